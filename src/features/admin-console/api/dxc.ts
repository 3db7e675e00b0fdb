import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall, NoAnswer } from '../../../api/admin-client';
import { DxcSource, DxcSourceList, DxcTestResult, dxcPaths, type DxcSourceInput } from '../../../api/admin-dxc';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/** DXC sources of an archive and the connection test (src/api/admin-dxc.ts). */
export type ConsoleDxc = Camelize<DxcSource>;
export type DxcDraft = Camelize<DxcSourceInput>;
export type DxcTest = Camelize<DxcTestResult>;

export const dxcKey = (scope: string | null, dbId: number, archiveId: number) => [...adminConsoleKey(scope), 'dxc', dbId, archiveId] as const;

export function useDxcSources(scope: string | null, dbId: number, archiveId: number) {
  return useQuery(
    queryOptions({
      queryKey: dxcKey(scope, dbId, archiveId),
      queryFn: ({ signal }) => adminCall('GET', dxcPaths.list(dbId, archiveId), { schema: DxcSourceList, signal }),
      enabled: scope !== null,
      meta: ADMIN_QUERY_META,
    }),
  );
}

export const createDxc = (dbId: number, archiveId: number, draft: DxcDraft) => adminCall('POST', dxcPaths.list(dbId, archiveId), { body: draft, schema: DxcSource });
export const updateDxc = (dbId: number, archiveId: number, id: number, draft: DxcDraft) => adminCall('PUT', dxcPaths.one(dbId, archiveId, id), { body: draft, schema: DxcSource });
export const deleteDxc = (dbId: number, archiveId: number, id: number) => adminCall('DELETE', dxcPaths.one(dbId, archiveId, id), { schema: NoAnswer });
export const testDxcConnection = (connectionString: string) => adminCall('PUT', dxcPaths.test, { body: { connectionString }, schema: DxcTestResult });
