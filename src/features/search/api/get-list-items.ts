import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ListItems, TEXT_COMPLETE_MAX, archivePaths } from '../../../api/archives';

/**
 * GET api/dbs/{db}/lists/{listId}?index=<typed text>: the list's items for what is typed ('' for a
 * fixed list's drop-down). Text-complete suggestions are capped at 100 (archive-inbox-ops.md §5).
 */
export function getListItems(dbId: number, listId: number, index: string, signal?: AbortSignal): Promise<string[]> {
  return apiRequest({ path: archivePaths.listValues(dbId, listId), query: { index }, schema: ListItems, signal }).then((a) =>
    a.Items.slice(0, TEXT_COMPLETE_MAX),
  );
}

/** Persisted per typed text, so suggestions seen before come back offline. */
export function listItemsQueryOptions(scope: string | null, dbId: number, listId: number | null, index: string) {
  return queryOptions({
    queryKey: ['search', 'list', scope, dbId, listId, index],
    queryFn: ({ signal }) => getListItems(dbId, listId ?? 0, index, signal),
    enabled: scope !== null && listId !== null,
    staleTime: 10 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useListItems(scope: string | null, dbId: number, listId: number | null, index: string, enabled = true) {
  return useQuery({ ...listItemsQueryOptions(scope, dbId, listId, index), enabled: enabled && scope !== null && listId !== null, placeholderData: keepPreviousData });
}
