import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { SearchList, searchPaths, type Search } from '../../../api/search';

/** GET api/dbs/{db}/searches: the saved searches of a database (persisted: the list opens offline). */
export function getSearches(dbId: number, signal?: AbortSignal): Promise<Search[]> {
  return apiRequest({ path: searchPaths.list(dbId), schema: SearchList, signal });
}

/**
 * `scope` is sessionScope(session): cached per user, never per token. The list paints from the cache
 * at once and is fetched again whenever the search screen opens (online), so a search an
 * administrator has just added or changed, on any device, is in the list (issue 13 item 7).
 */
export function searchesQueryOptions(scope: string | null, dbId: number | null) {
  return queryOptions({
    queryKey: ['search', 'list', scope, dbId],
    queryFn: ({ signal }) => getSearches(dbId ?? 0, signal),
    enabled: scope !== null && dbId !== null,
    staleTime: 5 * 60 * 1000,
    refetchOnMount: 'always',
    meta: { handlesOwnErrors: true },
  });
}

export function useSearches(scope: string | null, dbId: number | null) {
  return useQuery(searchesQueryOptions(scope, dbId));
}
