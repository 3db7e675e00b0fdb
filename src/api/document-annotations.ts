/**
 * The call for one document's annotations with the user's rights on its archive (contract
 * src/api/annotations.ts DocumentAnnotations): the viewer (features/viewer) and Keep offline
 * (src/sync/pin-api.ts, so a kept document's notes, stamps and rights are known offline). Apart from
 * the contract file, which the server imports without the client's fetch.
 */
import { DocumentAnnotations, annotationPaths } from './annotations';
import { apiRequest } from './http';

export function fetchDocumentAnnotations(d: { db: number; archiveId: number; docId: number; hash: string }, signal?: AbortSignal): Promise<DocumentAnnotations> {
  return apiRequest({ path: annotationPaths.list(d.db, d.archiveId, d.docId), query: { SecureId: d.hash }, auth: 'header', schema: DocumentAnnotations, signal });
}
