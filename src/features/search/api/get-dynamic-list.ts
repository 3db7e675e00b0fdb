import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getDynamicList, type DynamicListKey } from '../../../api/list-calls';

export type { DynamicListKey };

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
