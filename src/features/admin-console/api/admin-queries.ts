/**
 * The console's TanStack keys: everything under ['admin-console', scope] (scope: sessionScope, one
 * user's), never persisted to the device (admin data is read fresh). A console write drops the
 * user app's caches (use-admin-change-sync.ts), not these: each mode invalidates its own key.
 */
export const adminConsoleKey = (scope: string | null) => ['admin-console', scope] as const;
export const ADMIN_QUERY_META = { persist: false } as const;
