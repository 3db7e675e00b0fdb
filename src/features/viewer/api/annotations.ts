/**
 * The viewer's calls for rotation, annotations and stamps (contract src/api/annotations.ts):
 * the document's annotations and the user's rights on its archive (kept by TanStack Query per user and
 * document, persisted, so they show offline), the stamp list, the rotation (while the user waits:
 * it needs the server, never queued), and the current user's name for @User when the session does
 * not hold it. Changes to annotations go through the outbox (src/sync/kinds/annotation.ts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ProcessingAnswer, StampList, annotationPaths, stampPaths, type ProcessingRequest } from '../../../api/annotations';
import { fetchDocumentAnnotations } from '../../../api/document-annotations';
import { CurrentUser, adminPaths } from '../../../api/admin-functions';

export interface ViewerDocRef {
  db: number;
  archiveId: number;
  docId: number;
  hash: string;
}

export const annotationsKey = (scope: string | null, d: ViewerDocRef) => ['annotations', scope, d.db, d.archiveId, d.docId] as const;

export function useDocumentAnnotations(scope: string | null, d: ViewerDocRef) {
  return useQuery(
    queryOptions({
      queryKey: annotationsKey(scope, d),
      queryFn: ({ signal }) => fetchDocumentAnnotations(d, signal),
      enabled: scope !== null,
      staleTime: 30 * 1000,
      meta: { handlesOwnErrors: true },
    }),
  );
}

export function useStamps(scope: string | null) {
  return useQuery(
    queryOptions({
      queryKey: ['stamps', scope],
      queryFn: ({ signal }) => apiRequest({ path: stampPaths.list, auth: 'header', schema: StampList, signal }),
      enabled: scope !== null,
      staleTime: 5 * 60 * 1000,
      meta: { handlesOwnErrors: true },
    }),
  );
}

export function rotatePage(req: ProcessingRequest) {
  return apiRequest({ method: 'POST', path: annotationPaths.processing, body: req, auth: 'header', schema: ProcessingAnswer });
}

/** The signed-in user's name from the server (when the session was opened from a token and holds none). */
export async function fetchUserName(): Promise<string> {
  return (await apiRequest({ path: adminPaths.functions, query: { function: 'user' }, auth: 'header', schema: CurrentUser })).Name;
}
