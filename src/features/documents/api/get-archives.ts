import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ArchiveList, archivePaths } from '../../../api/archives';

/**
 * GET api/dbs/{db}/archives: every archive of the database the user may view, with the user's
 * Permissions and the archive's Props: the archive select modal offers the destinations from it.
 * Kept per user (scope) and persisted, so the modal opens offline too (an action chosen offline is
 * queued in the outbox).
 */
export function getArchives(db: number, signal?: AbortSignal) {
  return apiRequest({ path: archivePaths.list(db), schema: ArchiveList, signal });
}

export function archivesQueryOptions(scope: string | null, db: number) {
  return queryOptions({
    queryKey: ['archives', scope, db],
    queryFn: ({ signal }) => getArchives(db, signal),
    enabled: scope !== null && db > 0,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useArchives(scope: string | null, db: number, enabled = true) {
  return useQuery({ ...archivesQueryOptions(scope, db), enabled: enabled && scope !== null && db > 0 });
}
