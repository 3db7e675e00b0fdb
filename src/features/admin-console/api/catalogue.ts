import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { adminCall } from '../../../api/admin-client';
import {
  CatalogueField,
  CatalogueFieldList,
  CatalogueList,
  CatalogueListList,
  Deleted,
  ListTest,
  TableField,
  TableFieldList,
  type FieldEdit,
  type ListEdit,
  type TableFieldEdit,
} from '../../../api/admin-catalogue';
import { adminConsolePaths } from '../../../api/admin-console';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/**
 * The field catalogue in the console (src/api/admin-catalogue.ts): fields, table fields and lists of
 * the selected database, read fresh (never persisted), each write followed by a refetch of the three.
 */
export type ConsoleField = Camelize<CatalogueField>;
export type ConsoleTableField = Camelize<TableField>;
export type ConsoleList = Camelize<CatalogueList>;
export type FieldDraftWire = Camelize<FieldEdit>;
export type TableFieldDraft = Camelize<TableFieldEdit>;
export type ListDraft = Camelize<ListEdit>;

type Kind = 'fields' | 'tablefields' | 'lists';
export const catalogueKey = (scope: string | null, dbId: number | null, kind?: Kind) =>
  kind ? ([...adminConsoleKey(scope), 'catalogue', dbId, kind] as const) : ([...adminConsoleKey(scope), 'catalogue', dbId] as const);

const enabled = (scope: string | null, dbId: number | null) => scope !== null && dbId !== null;

export const useCatalogueFields = (scope: string | null, dbId: number | null) =>
  useQuery(
    queryOptions({
      queryKey: catalogueKey(scope, dbId, 'fields'),
      queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.catalogue(dbId ?? 0, 'fields'), { schema: CatalogueFieldList, signal }),
      enabled: enabled(scope, dbId),
      meta: ADMIN_QUERY_META,
    }),
  );
export const useCatalogueTableFields = (scope: string | null, dbId: number | null) =>
  useQuery(
    queryOptions({
      queryKey: catalogueKey(scope, dbId, 'tablefields'),
      queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.catalogue(dbId ?? 0, 'tablefields'), { schema: TableFieldList, signal }),
      enabled: enabled(scope, dbId),
      meta: ADMIN_QUERY_META,
    }),
  );
export const useCatalogueLists = (scope: string | null, dbId: number | null) =>
  useQuery(
    queryOptions({
      queryKey: catalogueKey(scope, dbId, 'lists'),
      queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.catalogue(dbId ?? 0, 'lists'), { schema: CatalogueListList, signal }),
      enabled: enabled(scope, dbId),
      meta: ADMIN_QUERY_META,
    }),
  );

/** After a write: the three lists are read again (a field's list, a table field's columns and a list's users change together). */
export function useRefreshCatalogue(scope: string | null, dbId: number | null): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: catalogueKey(scope, dbId) }), [client, scope, dbId]);
}

const path = adminConsolePaths.catalogue;
export const saveField = (dbId: number, id: number | null, draft: FieldDraftWire) =>
  adminCall(id === null ? 'POST' : 'PUT', path(dbId, 'fields', id ?? undefined), { body: draft, schema: CatalogueField });
export const deleteField = (dbId: number, id: number) => adminCall('DELETE', path(dbId, 'fields', id), { schema: Deleted });
export const saveTableField = (dbId: number, id: number | null, draft: TableFieldDraft) =>
  adminCall(id === null ? 'POST' : 'PUT', path(dbId, 'tablefields', id ?? undefined), { body: draft, schema: TableField });
export const deleteTableField = (dbId: number, id: number) => adminCall('DELETE', path(dbId, 'tablefields', id), { schema: Deleted });
export const saveList = (dbId: number, id: number | null, draft: ListDraft) =>
  adminCall(id === null ? 'POST' : 'PUT', path(dbId, 'lists', id ?? undefined), { body: draft, schema: CatalogueList });
export const deleteList = (dbId: number, id: number) => adminCall('DELETE', path(dbId, 'lists', id), { schema: Deleted });
/** PUT .../lists/ (the trailing slash is the call's name in §7): the test of an assembly-bound list. */
export const testList = (dbId: number, draft: ListDraft) => adminCall('PUT', `${path(dbId, 'lists')}/`, { body: draft, schema: ListTest });
