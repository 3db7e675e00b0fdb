import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ArchiveHistory, DocumentHistory, auditPaths } from '../../../api/audit';
import { HISTORY_PAGE_SIZE } from '../../../api/constants';

/** GET .../documents/{doc}/audit?SecureId=: a document's history, newest first. */
export function getDocumentHistory(db: number, archiveId: number, docId: number, hash: string, signal?: AbortSignal) {
  return apiRequest({ path: auditPaths.document(db, archiveId, docId), query: { SecureId: hash }, schema: DocumentHistory, signal });
}

/** GET .../archives/{a}/audit?Page=&DocLimit=: one page of an archive's history. */
export function getArchiveHistory(db: number, archiveId: number, page: number, pageSize: number = HISTORY_PAGE_SIZE, signal?: AbortSignal) {
  return apiRequest({ path: auditPaths.archive(db, archiveId), query: { Page: page, DocLimit: pageSize }, tokenParam: 'Token', schema: ArchiveHistory, signal });
}

/** Keyed by user (scope), never by token; persisted so a history seen before reads offline. */
export function documentHistoryQueryOptions(scope: string | null, db: number, archiveId: number, docId: number, hash: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['history', 'document', scope, db, archiveId, docId],
    queryFn: ({ signal }) => getDocumentHistory(db, archiveId, docId, hash, signal),
    enabled: enabled && scope !== null,
    staleTime: 30_000,
  });
}

export function archiveHistoryQueryOptions(scope: string | null, db: number, archiveId: number, page: number, pageSize: number, enabled: boolean) {
  return queryOptions({
    queryKey: ['history', 'archive', scope, db, archiveId, pageSize, page],
    queryFn: ({ signal }) => getArchiveHistory(db, archiveId, page, pageSize, signal),
    enabled: enabled && scope !== null,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useDocumentHistory(...a: Parameters<typeof documentHistoryQueryOptions>) {
  return useQuery(documentHistoryQueryOptions(...a));
}
export function useArchiveHistory(...a: Parameters<typeof archiveHistoryQueryOptions>) {
  return useQuery(archiveHistoryQueryOptions(...a));
}
