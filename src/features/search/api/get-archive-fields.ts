import { queryOptions, useQueries } from '@tanstack/react-query';
import { archiveFieldsKey, fetchArchiveFields, type Field } from '../../../api/archives';

/**
 * The archive's fields (src/api/archives.ts fetchArchiveFields). The search form needs them for
 * dynamic lists (ListF1 / ListF2 name the fields whose prompt values filter the list).
 */
export function archiveFieldsQueryOptions(scope: string | null, dbId: number, archiveId: number) {
  return queryOptions({
    queryKey: archiveFieldsKey(scope, dbId, archiveId),
    queryFn: ({ signal }) => fetchArchiveFields(dbId, archiveId, signal),
    enabled: scope !== null,
    staleTime: 10 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export interface SearchFields {
  byId: Map<number, Field>;
  /** Every archive's answer is in (or failed): a field still missing is not coming. */
  settled: boolean;
}

/** The fields of every archive of a search, merged by field id (first archive wins). */
export function useSearchFields(scope: string | null, dbId: number, archiveIds: readonly number[], enabled: boolean): SearchFields {
  return useQueries({
    queries: archiveIds.map((a) => ({ ...archiveFieldsQueryOptions(scope, dbId, a), enabled: enabled && scope !== null })),
    combine: (results) => {
      const byId = new Map<number, Field>();
      for (const r of results) for (const f of r.data ?? []) if (!byId.has(f.ID)) byId.set(f.ID, f);
      return { byId, settled: results.every((r) => !r.isPending) };
    },
  });
}
