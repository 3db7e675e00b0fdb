/**
 * One document's index data for the indexer panel and the advanced links (contract
 * src/api/document-index.ts): a grid page of that one document, kept by TanStack Query per user and
 * persisted with its other queries (IndexedDB), so a document seen before shows its fields offline;
 * a document kept on the device ("Keep offline") always does.
 */
import { useQuery } from '@tanstack/react-query';
import { fetchDocumentIndex } from '../../../api/document-index';
import { documentIndexOrKept } from '../pins/pinned-viewer';

export interface DocumentRef {
  db: number;
  archiveId: number;
  docId: number;
  hash: string;
}

export function useDocumentIndex(scope: string | null, d: DocumentRef) {
  return useQuery({
    queryKey: ['document-index', scope, d.db, d.archiveId, d.docId, d.hash],
    // A document kept on this device (pins/pinned-viewer.ts): its kept copy is refreshed with each
    // answer and answers with no connection. offlineFirst: the call is tried (and falls back to the
    // kept copy) while the browser is offline, instead of waiting for a connection.
    queryFn: ({ signal }) => documentIndexOrKept({ db: d.db, archiveId: d.archiveId, docId: d.docId }, () => fetchDocumentIndex(d, signal)),
    networkMode: 'offlineFirst',
    enabled: scope !== null,
    retry: false,
    meta: { handlesOwnErrors: true },
  });
}
