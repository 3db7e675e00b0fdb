import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall, NoAnswer } from '../../../api/admin-client';
import { advancedLinkAdminPaths, type AdvancedLinkInput } from '../../../api/admin-advanced-links';
import { AdvancedLink, AdvancedLinkList } from '../../../api/advanced-links';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/** Advanced links in the console (src/api/admin-advanced-links.ts): every link of a database, and the writes. */
export type ConsoleLink = Camelize<AdvancedLink>;
export type LinkDraft = Camelize<AdvancedLinkInput>;

export const adminLinksKey = (scope: string | null, dbId: number | null) => [...adminConsoleKey(scope), 'advanced-links', dbId] as const;

export function useAdminLinks(scope: string | null, dbId: number | null) {
  return useQuery(
    queryOptions({
      queryKey: adminLinksKey(scope, dbId),
      queryFn: ({ signal }) => adminCall('GET', advancedLinkAdminPaths.adminList(dbId ?? 0), { schema: AdvancedLinkList, signal }),
      enabled: scope !== null && dbId !== null,
      meta: ADMIN_QUERY_META,
    }),
  );
}

export const createLink = (dbId: number, draft: LinkDraft) => adminCall('POST', advancedLinkAdminPaths.links(dbId), { body: draft, schema: AdvancedLink });
export const updateLink = (dbId: number, id: number, draft: LinkDraft) => adminCall('PUT', advancedLinkAdminPaths.links(dbId), { query: { id }, body: draft, schema: AdvancedLink });
export const deleteLink = (dbId: number, id: number) => adminCall('DELETE', advancedLinkAdminPaths.links(dbId), { query: { id }, schema: NoAnswer });
