import { AdminConsole } from '../../features/admin-console/shell/admin-console';

/** /admin/full: the administration console (admin-console.md), loaded only when opened. */
export function Component() {
  return <AdminConsole />;
}
