import { DocumentEmailAnswer, documentPaths } from '../../../api/documents';
import { apiRequest } from '../../../api/http';

/**
 * GET .../documents/{id}/email: the server mails the document's files now (user-app.md §7). Called
 * directly, not through the outbox: a mail is sent while the user waits, or not at all.
 */
export function emailDocument(db: number, doc: { id: number; hash: string; archiveId: number }, mail: { to: string; subject?: string; message?: string }, signal?: AbortSignal) {
  return apiRequest({
    path: documentPaths.email(db, doc.archiveId, doc.id),
    query: { SecureId: doc.hash, To: mail.to, Subject: mail.subject || undefined, Message: mail.message || undefined },
    schema: DocumentEmailAnswer,
    signal,
  });
}
