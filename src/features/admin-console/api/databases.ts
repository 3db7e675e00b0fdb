import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../../api/admin-client';
import { adminConsolePaths } from '../../../api/admin-console';
import { AdminDatabase, AdminDatabaseList, DatabaseDeleted, type DatabaseEdit } from '../../../api/admin-databases';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/** Databases in the console (src/api/admin-databases.ts): the shell's database choice and the DATABASES mode. */
export type ConsoleDatabase = Camelize<AdminDatabase>;
export type DatabaseDraft = Camelize<DatabaseEdit>;

export const adminDatabasesKey = (scope: string | null) => [...adminConsoleKey(scope), 'databases'] as const;

export function adminDatabasesQueryOptions(scope: string | null) {
  return queryOptions({
    queryKey: adminDatabasesKey(scope),
    queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.databases, { schema: AdminDatabaseList, signal }),
    enabled: scope !== null,
    meta: ADMIN_QUERY_META,
  });
}

export function useAdminDatabases(scope: string | null) {
  return useQuery(adminDatabasesQueryOptions(scope));
}

export const createDatabase = (draft: DatabaseDraft) => adminCall('POST', adminConsolePaths.databases, { body: draft, schema: AdminDatabase });
export const updateDatabase = (id: number, draft: DatabaseDraft) => adminCall('PUT', adminConsolePaths.database(id), { body: draft, schema: AdminDatabase });
export const deleteDatabase = (id: number, drop: boolean) => adminCall('DELETE', adminConsolePaths.database(id), { query: { drop }, schema: DatabaseDeleted });
export const rebuildDatabaseIndexes = (id: number) => adminCall('GET', adminConsolePaths.database(id), { query: { rebuild: true }, schema: AdminDatabase });
