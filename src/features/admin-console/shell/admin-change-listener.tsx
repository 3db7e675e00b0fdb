import { useAdminChangeListener } from './use-admin-change-sync';

/** Mounted in every signed-in screen: another tab's console write drops this tab's caches. */
export function AdminChangeListener() {
  useAdminChangeListener();
  return null;
}
