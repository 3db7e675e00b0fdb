/**
 * Every field of the archive the import goes into (the result grid's fields are the search's
 * columns, which may leave out a required field): the shared call and cache key of src/api/archives.ts.
 */
import { useQuery } from '@tanstack/react-query';
import { archiveFieldsKey, fetchArchiveFields } from '../../../api/archives';

export const useImportFields = (scope: string | null, dbId: number, archiveId: number, enabled: boolean) =>
  useQuery({
    queryKey: archiveFieldsKey(scope, dbId, archiveId),
    queryFn: ({ signal }) => fetchArchiveFields(dbId, archiveId, signal),
    staleTime: 10 * 60 * 1000,
    enabled: enabled && scope !== null && dbId > 0 && archiveId > 0,
  });
