import { queryOptions, useQuery } from '@tanstack/react-query';
import { DocumentEmailAnswer, EmailSettingsAnswer, documentPaths } from '../../../api/documents';
import { apiRequest } from '../../../api/http';

/**
 * GET .../documents/{id}/email: the server mails the document's files now (the user-app spec §7). Called
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

/**
 * GET api/email/settings: whether the server can send e-mail at all, so the E-mail action says it is
 * not set up before the user writes a mail. Kept per user (scope) with the other small answers; not
 * known yet (or offline, never asked): undefined, and nothing is blocked on a guess.
 */
export function emailSettingsQueryOptions(scope: string | null) {
  return queryOptions({
    queryKey: ['email-settings', scope],
    queryFn: ({ signal }) => apiRequest({ path: documentPaths.emailSettings, schema: EmailSettingsAnswer, signal }),
    enabled: scope !== null,
    staleTime: 10 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useEmailConfigured(scope: string | null): boolean | undefined {
  return useQuery(emailSettingsQueryOptions(scope)).data?.Configured;
}
