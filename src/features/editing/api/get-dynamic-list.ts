import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { DYNAMIC_LIST_MAX } from '../../../api/archives';
import { getDynamicList, type DynamicListKey } from '../../../api/list-calls';

export type { DynamicListKey };

/**
 * A dynamic list's items for the grid editors (at most DYNAMIC_LIST_MAX). Persisted with the query
 * cache, so a list seen once also opens offline.
 */
export function getDynamicListItems(k: DynamicListKey, signal?: AbortSignal): Promise<string[]> {
  return getDynamicList(k, signal).then((items) => items.slice(0, DYNAMIC_LIST_MAX));
}

export function dynamicListOptions(scope: string | null, k: DynamicListKey) {
  return queryOptions({
    queryKey: ['editing', 'dynamicList', scope, k.dbId, k.fieldId, k.filter1.toLowerCase(), k.filter2.toLowerCase()],
    queryFn: ({ signal }) => getDynamicListItems(k, signal),
    enabled: scope !== null && k.dbId > 0,
    staleTime: 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

/** The items known without asking (cache), or null. */
export const cachedDynamicList = (qc: QueryClient, scope: string | null, k: DynamicListKey): string[] | null =>
  qc.getQueryData(dynamicListOptions(scope, k).queryKey) ?? null;

/**
 * The list refreshed from the server; offline (or on an error) the cached copy, else null (then
 * nothing is cleared: the server re-validates the value on save).
 */
export async function refreshDynamicList(qc: QueryClient, scope: string | null, k: DynamicListKey, signal?: AbortSignal): Promise<string[] | null> {
  const opts = dynamicListOptions(scope, k);
  try {
    const items = await getDynamicListItems(k, signal);
    qc.setQueryData(opts.queryKey, items);
    return items;
  } catch (e) {
    if (signal?.aborted) throw e;
    return cachedDynamicList(qc, scope, k);
  }
}
