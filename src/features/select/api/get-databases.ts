import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { DatabaseList, databasePaths, type Database } from '../../../api/databases';

/** GET api/dbs: the databases the signed-in user may open. */
export function getDatabases(signal?: AbortSignal): Promise<Database[]> {
  return apiRequest({ path: databasePaths.list, schema: DatabaseList, signal });
}

export function databasesQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: ['databases', token],
    queryFn: ({ signal }) => getDatabases(signal),
    enabled: token !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useDatabases(token: string | null) {
  return useQuery(databasesQueryOptions(token));
}
