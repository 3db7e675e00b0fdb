import { useAdminRights } from '../../features/admin-rights/api/get-admin-rights';
import { AdminConsole } from '../../features/admin-console/shell/admin-console';
import { sessionScope } from '../../session/session';
import { useSession } from '../../session/use-session';

/** /admin/full: the administration console (admin-console.md), loaded only when opened; the user's rights say which controls it offers. */
export function Component() {
  const rights = useAdminRights(sessionScope(useSession()));
  return <AdminConsole isAdminAll={rights.data?.isAdminAll ?? false} />;
}
