/** The list calls the search prompts and the grid editors share (each feature keeps its own query options). */
import { apiRequest } from './http';
import { ListItems, archivePaths } from './archives';

/**
 * GET api/dbs/{db}/lists/{listId}?index=<typed text>: a list's items for what is typed ('' for all
 * the items of a fixed list). Callers cap suggestions at TEXT_COMPLETE_MAX where they show them.
 */
export function getListItems(dbId: number, listId: number, index: string, signal?: AbortSignal): Promise<string[]> {
  return apiRequest({ path: archivePaths.listValues(dbId, listId), query: { index }, schema: ListItems, signal }).then((a) => a.Items);
}

/** Which dynamic list: field Field (Prop 128) of a database, for the values of its ListF1/ListF2 fields. */
export interface DynamicListKey {
  dbId: number;
  fieldId: number;
  filter1: string;
  filter2: string;
}

/**
 * GET api/indexes?database&Field&Filter1&Filter2 (the user-app spec §7, token spelled Token): the items of
 * a dynamic list for the current values of its two parent fields.
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
