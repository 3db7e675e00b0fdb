import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { DYNAMIC_LIST_MAX, ListItems, archivePaths } from '../../../api/archives';

/**
 * GET api/indexes?database&Field&Filter1&Filter2 (user-app.md §7, token spelled Token): the items of
 * the dynamic list of field Field (Prop 128) for the values of its ListF1/ListF2 fields. The same
 * call the search screen makes, kept here so features do not import each other. Persisted with the
 * query cache, so a list seen once also opens offline.
 */
export interface DynamicListKey {
  dbId: number;
  fieldId: number;
  filter1: string;
  filter2: string;
}

export function getDynamicListItems(k: DynamicListKey, signal?: AbortSignal): Promise<string[]> {
  return apiRequest({
    path: archivePaths.indexes,
    query: { database: k.dbId, Field: k.fieldId, Filter1: k.filter1, Filter2: k.filter2 },
    tokenParam: 'Token',
    schema: ListItems,
    signal,
  }).then((a) => a.Items.slice(0, DYNAMIC_LIST_MAX));
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
