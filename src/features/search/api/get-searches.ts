import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { SearchList, searchPaths, type Search } from '../../../api/search';

/** GET api/dbs/{db}/searches: the saved searches of a database (persisted: the list opens offline). */
export function getSearches(dbId: number, signal?: AbortSignal): Promise<Search[]> {
  return apiRequest({ path: searchPaths.list(dbId), schema: SearchList, signal });
}

/** `scope` is sessionScope(session): cached per user, never per token. */
export function searchesQueryOptions(scope: string | null, dbId: number | null) {
  return queryOptions({
    queryKey: ['search', 'list', scope, dbId],
    queryFn: ({ signal }) => getSearches(dbId ?? 0, signal),
    enabled: scope !== null && dbId !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useSearches(scope: string | null, dbId: number | null) {
  return useQuery(searchesQueryOptions(scope, dbId));
}
