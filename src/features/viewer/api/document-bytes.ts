/**
 * The bytes of a PDF document for pdf.js: the shared file call (src/api/document-file.ts, the token in
 * the Auth-Token header, never in the address), without a history entry (viewing is not an export).
 * Fetched while the user waits: not through the outbox.
 */
import { fetchDocumentFile } from '../../../api/document-file';

export async function fetchDocumentBytes(db: number, doc: { archiveId: number; id: number; hash: string }, signal?: AbortSignal): Promise<Uint8Array> {
  const file = await fetchDocumentFile(db, doc, { signal, view: true });
  return new Uint8Array(await file.response.arrayBuffer());
}
