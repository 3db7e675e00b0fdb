/**
 * POST api/session and GET api/session/{id} (the user-app spec §7; contract src/api/viewer.ts): the
 * documents of the result page the viewer was opened from, read back in the viewer (also in another
 * tab) for "Document n of m" and the previous/next document. Kept by TanStack Query per user.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { createViewerSession, getViewerSession } from '../../../api/viewer';

export { createViewerSession, getViewerSession };

export function viewerSessionQueryOptions(scope: string | null, id: string | undefined) {
  return queryOptions({
    queryKey: ['viewer-session', scope, id],
    queryFn: ({ signal }) => getViewerSession(id as string, signal),
    enabled: scope !== null && !!id,
    staleTime: 60 * 1000,
    // Read again whenever the viewer opens (viewer-screen.tsx waits for it while online).
    refetchOnMount: 'always',
    retry: false,
    meta: { handlesOwnErrors: true },
  });
}

export function useViewerSession(scope: string | null, id: string | undefined) {
  return useQuery(viewerSessionQueryOptions(scope, id));
}
