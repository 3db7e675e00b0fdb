import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ListItems, archivePaths } from '../../../api/archives';

export interface DynamicListKey {
  dbId: number;
  fieldId: number;
  filter1: string;
  filter2: string;
}

/**
 * GET api/indexes?database&Field&Filter1&Filter2 (user-app.md §7, token spelled Token): the items of
 * a dynamic list (field Prop 128) for the current values of the fields ListF1 and ListF2.
 */
export function getDynamicList(k: DynamicListKey, signal?: AbortSignal): Promise<string[]> {
  return apiRequest({
    path: archivePaths.indexes,
    query: { database: k.dbId, Field: k.fieldId, Filter1: k.filter1, Filter2: k.filter2 },
    tokenParam: 'Token',
    schema: ListItems,
    signal,
  }).then((a) => a.Items);
}

export function dynamicListQueryOptions(scope: string | null, k: DynamicListKey) {
  return queryOptions({
    queryKey: ['search', 'dynamicList', scope, k.dbId, k.fieldId, k.filter1, k.filter2],
    queryFn: ({ signal }) => getDynamicList(k, signal),
    enabled: scope !== null,
    staleTime: 10 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useDynamicList(scope: string | null, k: DynamicListKey) {
  return useQuery({ ...dynamicListQueryOptions(scope, k), placeholderData: keepPreviousData });
}
