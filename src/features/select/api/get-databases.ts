import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { DatabaseList, databasePaths, type Database } from '../../../api/databases';

/** GET api/dbs: the databases the signed-in user may open. */
export function getDatabases(signal?: AbortSignal): Promise<Database[]> {
  return apiRequest({ path: databasePaths.list, schema: DatabaseList, signal });
}

/** `scope` is sessionScope(session): cached per user, not per token. */
export function databasesQueryOptions(scope: string | null) {
  return queryOptions({
    queryKey: ['databases', scope],
    queryFn: ({ signal }) => getDatabases(signal),
    enabled: scope !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useDatabases(scope: string | null) {
  return useQuery(databasesQueryOptions(scope));
}
