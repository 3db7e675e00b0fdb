/**
 * The inbox reads of the inbox screen and sidebar (GET api/inboxes; the contract: src/api/inboxes.ts),
 * and the addresses of an inbox file's thumbnail and bytes. The list and each page are TanStack
 * queries keyed per user (scope), so they are persisted into Dexie like every query
 * (src/app/query-client.ts): an inbox page seen before opens offline, with the time it was fetched.
 * Changes go through the outbox (src/sync/kinds/inbox.ts); when one is done the screen invalidates
 * INBOX_QUERY_ROOT.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, isAbortError } from '../../../api/api-error';
import { TOKEN_HEADER } from '../../../api/errors';
import { apiRequest, buildQuery, httpContext, httpError } from '../../../api/http';
import { InboxFiles, InboxList, inboxPaths } from '../../../api/inboxes';

export const INBOX_QUERY_ROOT = 'inbox-screen';

export function inboxListOptions(scope: string | null) {
  return queryOptions({
    queryKey: [INBOX_QUERY_ROOT, scope, 'list'],
    queryFn: ({ signal }) => apiRequest({ path: inboxPaths.list, schema: InboxList, signal }),
    enabled: scope !== null,
    staleTime: 30 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

export function useInboxList(scope: string | null) {
  return useQuery(inboxListOptions(scope));
}

export interface InboxPageKey {
  inboxId: number;
  page: number;
  size: number;
  sort: string;
}

export function useInboxPage(scope: string | null, k: InboxPageKey | null) {
  return useQuery({
    queryKey: [INBOX_QUERY_ROOT, scope, 'files', k?.inboxId, k?.page, k?.size, k?.sort],
    queryFn: ({ signal }) =>
      apiRequest({ path: inboxPaths.list, query: { Id: k!.inboxId, pageNumber: k!.page, numberOfDocuments: k!.size, ...(k!.sort ? { sort: k!.sort } : {}) }, schema: InboxFiles, signal }),
    enabled: scope !== null && k !== null,
    placeholderData: keepPreviousData,
    staleTime: 10 * 1000,
    meta: { handlesOwnErrors: true },
  });
}

/** An inbox file's page as PNG, for an <img>: the token as the `token` parameter, built when rendered. */
export function inboxThumbUrl(inboxId: number, fileName: string, size: { width: number; height: number }, page = 1): string {
  const { baseUrl, token } = httpContext();
  return baseUrl.replace(/\/+$/, '') + inboxPaths.thumb(inboxId) + buildQuery({ FileName: fileName, Width: size.width, Height: size.height, Page: page, token });
}

/** Fetches an inbox file (GET inboxPaths.file) or a zip of several (POST ?export=true), the body unread. */
export async function fetchInboxFiles(inboxId: number, paths: readonly string[], signal?: AbortSignal): Promise<Response> {
  const { baseUrl, token } = httpContext();
  const one = paths.length === 1;
  const path = one ? inboxPaths.file(inboxId) : inboxPaths.one(inboxId);
  const method = one ? 'GET' : 'POST';
  if (!token) throw new ApiError({ kind: 'noToken', method, url: path, serverMessage: 'LicenseExpired' });
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}${buildQuery(one ? { FilePath: paths[0] } : { export: 'true' })}`, {
      method,
      headers: { [TOKEN_HEADER]: token, ...(one ? {} : { 'Content-Type': 'application/json' }) },
      ...(one ? {} : { body: JSON.stringify({ FilePaths: paths }) }),
      signal,
    });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw new ApiError({ kind: 'network', method, url: path, cause: e });
  }
  if (!res.ok) throw httpError(method, path, res, await res.text().catch(() => ''));
  return res;
}
