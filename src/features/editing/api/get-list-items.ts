import { useMemo } from 'react';
import { keepPreviousData, queryOptions, useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { TEXT_COMPLETE_MAX } from '../../../api/archives';
import { getListItems } from '../../../api/list-calls';

/**
 * Every item of a fixed list (the drop-down of a Prop 64 field). Persisted (default query
 * persistence), so a drop-down seen once also opens offline.
 */
export function getFixedListItems(dbId: number, listId: number, signal?: AbortSignal): Promise<string[]> {
  return getListItems(dbId, listId, '', signal);
}

export const fixedListQueryKey = (scope: string | null, dbId: number, listId: number) => ['editing', 'list', scope, dbId, listId] as const;

/** The items of each list id (null while unknown: the cell then edits as text). */
export function useFixedLists(scope: string | null, dbId: number, listIds: readonly number[], enabled: boolean): ReadonlyMap<number, string[] | null> {
  const results = useQueries({
    queries: listIds.map((listId) => ({
      queryKey: fixedListQueryKey(scope, dbId, listId),
      queryFn: ({ signal }: { signal: AbortSignal }) => getFixedListItems(dbId, listId, signal),
      enabled: enabled && scope !== null && dbId > 0,
      staleTime: 10 * 60 * 1000,
      meta: { handlesOwnErrors: true },
    })),
    combine: itemsOf,
  });
  return useMemo(() => new Map(listIds.map((id, i) => [id, results[i] ?? null])), [listIds, results]);
}

function itemsOf(results: readonly { data?: string[] }[]): (string[] | null)[] {
  return results.map((r) => r.data ?? null);
}

/**
 * GET api/dbs/{db}/lists/{listId}?index=<typed text>: suggestions of a type-ahead list (a List
 * without Prop 64 or 128), at most TEXT_COMPLETE_MAX (100, the archive-ops spec §5 and §9) like
 * the search prompts. Offline: the suggestions cached for the same text, else none.
 */
export function suggestionOptions(scope: string | null, dbId: number, listId: number, text: string) {
  return queryOptions({
    queryKey: ['editing', 'suggest', scope, dbId, listId, text.trim().toLowerCase()],
    queryFn: ({ signal }) => getListItems(dbId, listId, text.trim(), signal).then((items) => items.slice(0, TEXT_COMPLETE_MAX)),
    enabled: scope !== null && dbId > 0,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export async function fetchSuggestions(qc: QueryClient, scope: string | null, dbId: number, listId: number, text: string): Promise<string[]> {
  const opts = suggestionOptions(scope, dbId, listId, text);
  try {
    return await qc.fetchQuery(opts);
  } catch {
    return qc.getQueryData(opts.queryKey) ?? [];
  }
}

/** Suggestions for the text typed so far (the previous ones stay while the next load). */
export function useSuggestions(scope: string | null, dbId: number, listId: number | null, text: string, enabled: boolean) {
  return useQuery({ ...suggestionOptions(scope, dbId, listId ?? 0, text), enabled: enabled && listId !== null && scope !== null, placeholderData: keepPreviousData });
}
