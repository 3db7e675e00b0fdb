import { useLiveQuery } from 'dexie-react-hooks';
import { useAdminRights } from '../../features/admin-rights/api/get-admin-rights';
import { AdminConsole } from '../../features/admin-console/shell/admin-console';
import { getRememberedDatabase } from '../../features/select/select-logic';
import { sessionScope } from '../../session/session';
import { useSession } from '../../session/use-session';

/**
 * /admin/full: the administration console (the console spec), loaded only when opened; the user's
 * rights say which controls it offers. The database the user works in (the app's selection) is the
 * console's when it has none of its own remembered, so a first visit does not start with none.
 */
export function Component() {
  const rights = useAdminRights(sessionScope(useSession()));
  const appDb = useLiveQuery(() => getRememberedDatabase(), []) ?? null;
  return <AdminConsole isAdminAll={rights.data?.isAdminAll ?? false} appDb={appDb} />;
}
