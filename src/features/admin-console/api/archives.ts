import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../../api/admin-client';
import { AdminArchive, AdminArchiveList, ArchiveDeleted, ArchiveNotifications, IndexRebuildStarted, INDEX_REBUILD_DOC_COUNT, type ArchiveEdit, type Notification } from '../../../api/admin-archives';
import { adminConsolePaths } from '../../../api/admin-console';
import type { Camelize } from '../../../api/case';
import { ADMIN_QUERY_META, adminConsoleKey } from './admin-queries';

/** Archives of the selected database in the console (src/api/admin-archives.ts), read fresh, never persisted. */
export type ConsoleArchive = Camelize<AdminArchive>;
export type ArchiveDraft = Camelize<ArchiveEdit>;
export type NotificationDraft = Camelize<Notification>;
export type ConsoleNotifications = Camelize<ArchiveNotifications>;

export const adminArchivesKey = (scope: string | null, dbId: number | null) => [...adminConsoleKey(scope), 'archives', dbId] as const;

export function adminArchivesQueryOptions(scope: string | null, dbId: number | null) {
  return queryOptions({
    queryKey: adminArchivesKey(scope, dbId),
    queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.archives(dbId ?? 0), { schema: AdminArchiveList, signal }),
    enabled: scope !== null && dbId !== null,
    meta: ADMIN_QUERY_META,
  });
}
export const useAdminArchives = (scope: string | null, dbId: number | null) => useQuery(adminArchivesQueryOptions(scope, dbId));

export const notificationsKey = (scope: string | null, dbId: number, archiveId: number) => [...adminArchivesKey(scope, dbId), archiveId, 'notifications'] as const;

export function useArchiveNotifications(scope: string | null, dbId: number, archiveId: number | null) {
  return useQuery({
    queryKey: notificationsKey(scope, dbId, archiveId ?? 0),
    queryFn: ({ signal }) => adminCall('GET', adminConsolePaths.archiveNotifications(dbId, archiveId ?? 0), { query: { includeGlobal: true }, schema: ArchiveNotifications, signal }),
    enabled: scope !== null && archiveId !== null,
    meta: ADMIN_QUERY_META,
  });
}

export const saveArchive = (dbId: number, id: number | null, draft: ArchiveDraft) =>
  adminCall(id === null ? 'POST' : 'PUT', id === null ? adminConsolePaths.archives(dbId) : adminConsolePaths.archive(dbId, id), { body: draft, schema: AdminArchive });
export const deleteArchive = (dbId: number, id: number) => adminCall('DELETE', adminConsolePaths.archive(dbId, id), { schema: ArchiveDeleted });
export const saveNotifications = (dbId: number, id: number, draft: NotificationDraft) =>
  adminCall('PUT', adminConsolePaths.archiveNotifications(dbId, id), { body: draft, schema: ArchiveNotifications });
/** The content-search rebuild (a GET that starts a server job; it changes no metadata). */
export const startIndexRebuild = (dbId: number, id: number) =>
  adminCall('GET', adminConsolePaths.indexRebuild(dbId, id), { query: { docCount: INDEX_REBUILD_DOC_COUNT }, schema: IndexRebuildStarted });

/** The edit of an archive as it is (what a modal changes one part of). */
export function archiveDraft(a: ConsoleArchive): ArchiveDraft {
  return {
    name: a.name,
    parent: a.parent,
    fields: [...a.fields],
    views: structuredClone(a.views),
    basePath: { ...a.basePath },
    contentSearch: a.contentSearch,
    convertPdf: a.convertPdf,
    revisionControl: a.revisionControl,
  };
}

/** The archive and all its sub-archives (ids): where it cannot be relocated to. */
export function descendantIds(archives: readonly ConsoleArchive[], rootId: number): Set<number> {
  const out = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const a of archives) if (a.parent !== null && out.has(a.parent) && !out.has(a.id)) {
      out.add(a.id);
      grew = true;
    }
  }
  return out;
}

/** Depth of each archive in the tree (0 top level), for indenting lists of archives. */
export function archiveDepths(archives: readonly ConsoleArchive[]): Map<number, number> {
  const byId = new Map(archives.map((a) => [a.id, a]));
  const depth = new Map<number, number>();
  const of = (a: ConsoleArchive, seen = 0): number => {
    if (depth.has(a.id)) return depth.get(a.id)!;
    const p = a.parent === null ? undefined : byId.get(a.parent);
    const d = p && seen < archives.length ? of(p, seen + 1) + 1 : 0;
    depth.set(a.id, d);
    return d;
  };
  for (const a of archives) of(a);
  return depth;
}
