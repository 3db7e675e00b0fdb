import { z } from 'zod';

/** Histories (user-app.md §3, §7; archive-inbox-ops.md §7). */
export const HISTORY_CATEGORIES = [
  'annotation', 'appended', 'checked in/out', 'converted', 'copied', 'deleted', 'email', 'exported',
  'indexed', 'moved', 'printed', 'published/unpublished', 'updated', 'viewed', 'version',
] as const;

export const HistoryItem = z.looseObject({ Time: z.string() });
export const DocumentHistory = z.array(HistoryItem);
export const ArchiveHistory = z.looseObject({ Total: z.number().int(), Items: z.array(z.looseObject({ Date: z.string() })) });

export const auditPaths = {
  /** GET with token, SecureId. */
  document: (db: number, archive: number, doc: number) => `/api/dbs/${db}/archives/${archive}/documents/${doc}/audit`,
  /** GET with Page, DocLimit, Token. */
  archive: (db: number, archive: number) => `/api/dbs/${db}/archives/${archive}/audit`,
} as const;
