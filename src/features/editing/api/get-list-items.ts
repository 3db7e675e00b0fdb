import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ListItems, archivePaths } from '../../../api/archives';

/**
 * GET api/dbs/{db}/lists/{listId}?index= : every item of a fixed list (the drop-down of a Prop 64
 * field). The same call the search screen makes; kept here so features do not import each other.
 * Persisted (default query persistence), so a drop-down seen once also opens offline.
 */
export function getFixedListItems(dbId: number, listId: number, signal?: AbortSignal): Promise<string[]> {
  return apiRequest({ path: archivePaths.listValues(dbId, listId), query: { index: '' }, schema: ListItems, signal }).then((a) => a.Items);
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
