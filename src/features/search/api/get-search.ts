import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { SearchDetail, searchPaths } from '../../../api/search';

/** GET api/dbs/{db}/searches/{id}: one search with its prompts (Detail) and archives (persisted). */
export function getSearch(dbId: number, searchId: number, signal?: AbortSignal): Promise<SearchDetail> {
  return apiRequest({ path: searchPaths.one(dbId, searchId), schema: SearchDetail, signal });
}

export function searchQueryOptions(scope: string | null, dbId: number | null, searchId: number | null) {
  return queryOptions({
    queryKey: ['search', 'one', scope, dbId, searchId],
    queryFn: ({ signal }) => getSearch(dbId ?? 0, searchId ?? 0, signal),
    enabled: scope !== null && dbId !== null && searchId !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useSearch(scope: string | null, dbId: number | null, searchId: number | null) {
  return useQuery(searchQueryOptions(scope, dbId, searchId));
}
