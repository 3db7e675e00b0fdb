import { z } from 'zod';
import { DocumentField } from './search';

/**
 * Document calls (user-app.md §7; archive-inbox-ops.md §7): files, thumbnails, e-mail, field data,
 * copy/move/delete, merge, burst, user actions, viewer sessions, temp files and page rotation.
 */
export type DocumentOperation = 'Copy' | 'Move' | 'delete';

export const FieldData = z.array(DocumentField);

/** Field update check codes (user-app.md §5). */
export const FIELD_CHECK_CODES = {
  invalidNumber: -1,
  invalidDate: -2,
  lengthOverflow: -3,
  fieldNotFound: -4,
  required: -5,
} as const;

/** Merge object (user-app.md §3). */
export const MergeRequest = z.object({
  Documents: z.array(z.object({ ArchiveID: z.number().int(), DocID: z.number().int() })),
  BaseDocument: z.union([
    z.object({ Type: z.literal('Archive'), ArchiveID: z.number().int(), DocID: z.number().int() }),
    z.object({ Type: z.literal('Inbox'), InboxID: z.number().int(), Path: z.string() }),
  ]),
  Target: z.object({ Type: z.enum(['Archive', 'Inbox']), Id: z.number().int() }),
});
export type MergeRequest = z.infer<typeof MergeRequest>;

/** Viewer session (user-app.md §3), POST session. */
export const ViewerSession = z.object({
  Database: z.number().int(),
  SearchId: z.number().int().optional(),
  SearchCriteria: z.string().optional(),
  Documents: z.array(z.object({ Archive: z.number().int(), Hash: z.string(), Id: z.number().int(), ContentSearchTerms: z.string().optional() })).optional(),
  InboxId: z.number().int().optional(),
  InboxFileName: z.string().optional(),
});
export type ViewerSession = z.infer<typeof ViewerSession>;

/** Queue actions of a document: GET/PUT useraction. */
export const UserAction = z.looseObject({
  Actions: z.unknown().optional(),
  Key: z.string(),
  Name: z.string(),
  ProcessID: z.number().int(),
  UsersAndGroups: z.unknown().optional(),
});
export const UserActionList = z.array(UserAction);

export const documentPaths = {
  file: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/file`,
  email: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/email`,
  thumb: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/thumb`,
  /** GET with token, SecureId, Job, Count, and DestinationArchive for Copy and Move. */
  operation: (db: number, archive: number, id: number, op: DocumentOperation) =>
    `/api/dbs/${db}/archives/${archive}/documents/${id}/${op}`,
  /** PUT with secureId; Auth-Token and Secure-Id headers; body field data (ID, VAL, MVAL). */
  fieldData: (db: number, archive: number, id: number) =>
    `/api/UpdateDocument/databases/${db}/archive/${archive}/document/${id}/FieldData`,
  merge: (db: number) => `/api/dbs/${db}/merge`,
  /** GET files with fileName, action=burst and RequestedPages (repeated). */
  files: '/api/files',
  useraction: '/api/useraction',
  session: '/api/session',
  /** POST copy; cachedfile, page, format; GET with search terms. */
  tempfiles: '/api/tempfiles',
  /** POST Processing handler: page rotate (doc, angle, page). */
  processing: '/api/Processing',
} as const;
