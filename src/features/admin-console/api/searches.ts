import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall, NoAnswer } from '../../../api/admin-client';
import { AdminSearch, AdminSearchList, AdminSearchSaved, DesignerCatalog, searchAdminPaths, type AdminSearchInput } from '../../../api/admin-searches';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/**
 * Saved searches and the designer catalogue (archives with their fields) in the console
 * (src/api/admin-searches.ts). The catalogue serves the search, advanced-link and DXC editors.
 */
export type ConsoleSearch = Camelize<AdminSearch>;
export type SearchDraft = Camelize<AdminSearchInput>;
export type SearchSaved = Camelize<AdminSearchSaved>;
export type Designer = Camelize<DesignerCatalog>;
export type DesignerArchive = Designer['archives'][number];

export const adminSearchesKey = (scope: string | null, dbId: number | null) => [...adminConsoleKey(scope), 'searches', dbId] as const;
export const designerKey = (scope: string | null, dbId: number | null) => [...adminConsoleKey(scope), 'designer', dbId] as const;

export function useAdminSearches(scope: string | null, dbId: number | null) {
  return useQuery(
    queryOptions({
      queryKey: adminSearchesKey(scope, dbId),
      queryFn: ({ signal }) => adminCall('GET', searchAdminPaths.list(dbId ?? 0), { schema: AdminSearchList, signal }),
      enabled: scope !== null && dbId !== null,
      meta: ADMIN_QUERY_META,
    }),
  );
}

export function useDesigner(scope: string | null, dbId: number | null) {
  return useQuery(
    queryOptions({
      queryKey: designerKey(scope, dbId),
      queryFn: ({ signal }) => adminCall('GET', searchAdminPaths.designer(dbId ?? 0), { schema: DesignerCatalog, signal }),
      enabled: scope !== null && dbId !== null,
      meta: ADMIN_QUERY_META,
    }),
  );
}

export const createSearch = (dbId: number, draft: SearchDraft) => adminCall('POST', searchAdminPaths.list(dbId), { body: draft, schema: AdminSearchSaved });
export const updateSearch = (dbId: number, id: number, draft: SearchDraft) => adminCall('PUT', searchAdminPaths.one(dbId, id), { body: draft, schema: AdminSearchSaved });
export const deleteSearch = (dbId: number, id: number) => adminCall('DELETE', searchAdminPaths.one(dbId, id), { schema: NoAnswer });
