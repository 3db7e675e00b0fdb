/**
 * GET api/dbs/{db}/archives/{a}?type=fields: every field of the archive the import goes into (the
 * result grid's fields are the search's columns, which may leave out a required field).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { FieldList, archivePaths } from '../../../api/archives';
import { apiRequest } from '../../../api/http';

export function importFieldsQueryOptions(scope: string | null, dbId: number, archiveId: number) {
  return queryOptions({
    queryKey: ['import', 'archiveFields', scope, dbId, archiveId],
    queryFn: ({ signal }) => apiRequest({ path: archivePaths.one(dbId, archiveId), query: { type: 'fields' }, schema: FieldList, signal }),
    staleTime: 10 * 60 * 1000,
  });
}

export const useImportFields = (scope: string | null, dbId: number, archiveId: number, enabled: boolean) =>
  useQuery({ ...importFieldsQueryOptions(scope, dbId, archiveId), enabled: enabled && scope !== null && dbId > 0 && archiveId > 0 });
