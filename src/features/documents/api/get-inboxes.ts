import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { INBOX_PAGE_DEFAULTS, InboxFiles, InboxList, inboxPaths } from '../../../api/inboxes';

/**
 * GET api/inboxes: the inboxes the user may view, and one page of an inbox's files (the contract:
 * src/api/inboxes.ts), for the append dialog's inbox-document selector. Kept per user (scope) by
 * TanStack Query like the archive list, so a list seen before shows again offline; the append itself
 * waits in the outbox.
 */
export function getInboxes(signal?: AbortSignal) {
  return apiRequest({ path: inboxPaths.list, schema: InboxList, signal });
}

export function getInboxFiles(inboxId: number, page: number, size: number, signal?: AbortSignal) {
  return apiRequest({ path: inboxPaths.list, query: { Id: inboxId, pageNumber: page, numberOfDocuments: size, sort: 'DateModified:desc' }, schema: InboxFiles, signal });
}

export function inboxesQueryOptions(scope: string | null) {
  return queryOptions({
    queryKey: ['inboxes', scope],
    queryFn: ({ signal }) => getInboxes(signal),
    enabled: scope !== null,
    staleTime: 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useInboxes(scope: string | null, enabled: boolean) {
  return useQuery({ ...inboxesQueryOptions(scope), enabled: enabled && scope !== null });
}

export function useInboxFiles(scope: string | null, inboxId: number | null, page: number, size: number = INBOX_PAGE_DEFAULTS.numberOfDocuments) {
  return useQuery({
    queryKey: ['inboxes', scope, inboxId, 'files', page, size],
    queryFn: ({ signal }) => getInboxFiles(inboxId!, page, size, signal),
    enabled: scope !== null && inboxId !== null,
    // The page shown stays while the next one loads.
    placeholderData: keepPreviousData,
    staleTime: 30 * 1000,
    meta: { handlesOwnErrors: true },
  });
}
