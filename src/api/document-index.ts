/**
 * One document's index data, for the viewer's indexer panel when it has no grid row (a viewer opened
 * in a tab of its own, or after a reload):
 *
 *   GET documentIndexPath(db, archive, id)?SecureId={Hash} -> 200 DocumentPage
 *
 * The answer has the shape of a grid page (src/api/search.ts DocumentPage) holding this one document
 * (Count 1, Docs [doc], the archive's Fields, Terms [], Permissions = the user's bits on the archive),
 * so the indexer edits it exactly as the grid's edit panel edits a row. Refusals: no view right (bit 1)
 * or a wrong SecureId 403; unknown database, archive or document (or a deleted one) 404.
 */
import { apiRequest } from './http';
import { DocumentPage } from './search';

export const documentIndexPath = (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/fields`;

/** The call itself: the indexer panel (features/viewer) and Keep offline (src/sync/pin-api.ts). */
export function fetchDocumentIndex(d: { db: number; archiveId: number; docId: number; hash: string }, signal?: AbortSignal): Promise<DocumentPage> {
  return apiRequest({ path: documentIndexPath(d.db, d.archiveId, d.docId), query: { SecureId: d.hash }, auth: 'header', schema: DocumentPage, signal });
}
