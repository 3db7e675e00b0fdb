import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { SearchDetail, searchPaths } from '../../../api/search';

/**
 * GET api/dbs/{db}/searches/{searchId}: the search the grid runs, with its archives (ArchiveList),
 * view tabs (Tabs, shown when Props has 32) and prompts (Detail). With SearchCriteria and count=true
 * the answer adds ArchiveCounts, the per-archive totals of a multi-archive search.
 */
export const ResultsSearch = SearchDetail;
export type ResultsSearch = SearchDetail;

export function getResultsSearch(db: number, searchId: number, signal?: AbortSignal, counts?: { criteria: string }): Promise<ResultsSearch> {
  return apiRequest({
    path: searchPaths.one(db, searchId),
    query: counts ? { SearchCriteria: counts.criteria, count: true } : undefined,
    schema: ResultsSearch,
    signal,
  });
}

/** Kept per user (scope), persisted, so a search seen before opens offline. */
export function resultsSearchQueryOptions(scope: string | null, db: number, searchId: number) {
  return queryOptions({
    queryKey: ['search', scope, db, searchId],
    queryFn: ({ signal }) => getResultsSearch(db, searchId, signal),
    enabled: scope !== null && db > 0 && searchId > 0,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useResultsSearch(scope: string | null, db: number, searchId: number) {
  return useQuery(resultsSearchQueryOptions(scope, db, searchId));
}

/** Per-archive counts of a multi-archive search for these criteria. */
export function archiveCountsQueryOptions(scope: string | null, db: number, searchId: number, criteria: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['search', scope, db, searchId, 'counts', criteria],
    queryFn: async ({ signal }) => (await getResultsSearch(db, searchId, signal, { criteria })).ArchiveCounts ?? [],
    enabled: enabled && scope !== null && db > 0 && searchId > 0,
    staleTime: 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useArchiveCounts(scope: string | null, db: number, searchId: number, criteria: string, enabled: boolean) {
  return useQuery(archiveCountsQueryOptions(scope, db, searchId, criteria, enabled));
}
