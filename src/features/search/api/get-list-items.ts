import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { TEXT_COMPLETE_MAX } from '../../../api/archives';
import { getListItems as getAllListItems } from '../../../api/list-calls';

/** A list's items for what is typed; text-complete suggestions are capped at 100 (the archive-ops spec §5). */
export function getListItems(dbId: number, listId: number, index: string, signal?: AbortSignal): Promise<string[]> {
  return getAllListItems(dbId, listId, index, signal).then((items) => items.slice(0, TEXT_COMPLETE_MAX));
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
