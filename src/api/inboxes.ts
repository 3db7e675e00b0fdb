import * as z from 'zod/mini';

/**
 * Inboxes (the user-app spec §3, §7; the archive-ops spec §3, §7). The reference server answers two reads
 * so far (issue 11 builds the rest):
 *   GET inboxPaths.list                 -> InboxList: every inbox the user may view (right 1), in
 *                                          name order, each with Count (its files) and the user's
 *                                          Permissions (1 view, 4 edit) and DatabaseId (null: any).
 *   GET inboxPaths.list?Id=&pageNumber=&numberOfDocuments=&sort=
 *                                       -> InboxFiles: one page of that inbox's files. pageNumber
 *                                          from 1 (default 1), numberOfDocuments 1..INBOX_PAGE_MAX
 *                                          (default 25), sort 'Column:asc|desc' (comma-separated;
 *                                          columns INBOX_SORT_COLUMNS; default FileName:asc).
 * Refusals: 404 ERROR_NOT_FOUND for an unknown inbox, 403 ERROR_FAILED_DUE_TO_PERMISSIONS without
 * view (1) on it, 400 ERROR_INCORRECT_PARAMETERS for bad paging or sort.
 * A file is named by its inbox and its Path (the merge object's InboxID plus Path): its path inside
 * the inbox; this server keeps inboxes flat, so Path equals FileName.
 */
export const INBOX_FIXED_COLUMNS = ['File Name', 'File Format', 'Date Created', 'Date Modified'] as const;
export const INBOX_PAGE_DEFAULTS = { pageNumber: 1, numberOfDocuments: 25 } as const;
export const INBOX_PAGE_MAX = 10_000;
/** Inbox rights (the archive-ops spec §4): 1 view, 4 edit (history is disabled for inboxes). */
export const INBOX_RIGHTS = { view: 1, edit: 4 } as const;
export const INBOX_SORT_COLUMNS = ['FileName', 'FileType', 'DateCreated', 'DateModified'] as const;
export type InboxSortColumn = (typeof INBOX_SORT_COLUMNS)[number];

export const Inbox = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  Count: z.optional(z.int()),
  Permissions: z.optional(z.int()),
  DatabaseId: z.nullish(z.int()),
});
export type Inbox = z.infer<typeof Inbox>;
export const InboxList = z.array(Inbox);

export const InboxDocument = z.looseObject({
  FileName: z.string(),
  NewName: z.nullish(z.string()),
  FileType: z.nullish(z.string()),
  DateCreated: z.nullish(z.string()),
  DateModified: z.nullish(z.string()),
  Fields: z.optional(z.array(z.unknown())),
  Permissions: z.optional(z.int()),
  InboxId: z.optional(z.int()),
  Path: z.optional(z.string()),
  PageCount: z.optional(z.int()),
});
export type InboxDocument = z.infer<typeof InboxDocument>;
/** One page of an inbox's files (the archive-ops spec §3 "Inbox list response: Files, Count"). */
export const InboxFiles = z.looseObject({ Count: z.int(), Files: z.array(InboxDocument), Permissions: z.optional(z.int()) });
export type InboxFiles = z.infer<typeof InboxFiles>;

export interface InboxPageParams {
  Id: number;
  pageNumber?: number;
  numberOfDocuments?: number;
  sort?: string;
}

// --- inbox changes (issue 11) -------------------------------------------------------------------

/** Longest inbox file name accepted (a file system's name limit). */
export const INBOX_NAME_MAX = 255;

/**
 * Why a file name or Path cannot name a file of an inbox, or null when it can. Inboxes are flat, so
 * a name holds no folder part: no / or \ (absolute paths, UNC paths, `a/../b`), no drive letter or
 * other ':' , no '.' or '..', no NUL or other control character, none of the characters file names
 * may not hold (\ / : * ? " < > |), no trailing dot or space (Windows drops them, so two names would
 * meet), at most INBOX_NAME_MAX characters. Shared by the server's check of every path and the
 * rename form.
 */
export type InboxNameProblem = 'empty' | 'too-long' | 'control' | 'separator' | 'dots' | 'forbidden' | 'trailing';
export function inboxNameProblem(name: string): InboxNameProblem | null {
  if (name.length === 0 || name.trim() === '') return 'empty';
  if (name.length > INBOX_NAME_MAX) return 'too-long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control';
  if (/[\\/]/.test(name)) return 'separator';
  if (name === '.' || name === '..') return 'dots';
  if (/[:*?"<>|]/.test(name)) return 'forbidden';
  if (/[. ]$/.test(name)) return 'trailing';
  return null;
}

/**
 * The inbox calls that change files (the archive-ops spec §7 "On inboxes/{id}"). Every change needs
 * view (1) and edit (4) on the inbox and a licence other than the read-only one (type 4): 403
 * ERROR_FAILED_DUE_TO_PERMISSIONS. A name the checks above refuse: 400 ERROR_INCORRECT_PARAMETERS.
 * A file that is not there: 404 ERROR_NOT_FOUND. A new name another file of the inbox has: 409
 * INBOX_FILE_EXISTS. Writes take the Idempotency-Key (also the move, a GET by the spec).
 *   GET    one(id)?FilePath=&targetInboxId=&deleteOriginal=true|false -> InboxFileMoved (the target
 *          needs edit too; a name taken there gets ' (2)' ...; deleteOriginal false keeps a copy)
 *   POST   one(id)?FilePath=&newFileName=                              -> InboxFileMoved (rename)
 *   POST   one(id)?fileName=&destinationDatabaseId=&destinationArchiveId=&deleteOriginal=
 *          body InboxSendBody                                          -> InboxSent: a new document
 *          of the destination archive (needs add, 2, there) with the file and the index values,
 *          checked by the shared field rules (required fields included; 400 with Fields as
 *          PUT FieldData answers); the file leaves the inbox unless deleteOriginal=false.
 *   POST   one(id)?export=true body InboxExportBody                    -> application/zip of the files
 *   DELETE one(id)?FilePath=                                           -> InboxFileDeleted
 *   PUT    one(id) body InboxPutDocument                               -> InboxFileMoved: an archive
 *          document into the inbox (its files as one file: a PDF when it has several); view (1) on
 *          its archive, and move (131072) there unless DeleteOriginal is false.
 *   GET    thumb(id)?FileName=&Height=&Width=&Page=                    -> image/png (view)
 *   GET    file(id)?FilePath=                                          -> the file's bytes (view)
 */
export const INBOX_FILE_EXISTS_KEY = 'INBOX_FILE_EXISTS';
export const InboxFileMoved = z.looseObject({ InboxId: z.int(), FileName: z.string() });
export type InboxFileMoved = z.infer<typeof InboxFileMoved>;
export const InboxFileDeleted = z.looseObject({ InboxId: z.int(), FileName: z.string() });
export const InboxSendBody = z.looseObject({
  Fields: z.array(z.looseObject({ ID: z.int(), VAL: z.optional(z.nullable(z.string())), MVAL: z.optional(z.nullable(z.array(z.string()))) })),
});
export type InboxSendBody = z.infer<typeof InboxSendBody>;
export const InboxSent = z.looseObject({ DocID: z.int(), ArchiveID: z.int(), Hash: z.string(), FileName: z.string() });
export type InboxSent = z.infer<typeof InboxSent>;
export const InboxExportBody = z.looseObject({ FilePaths: z.array(z.string()) });
export const InboxPutDocument = z.looseObject({
  DatabaseId: z.int(),
  ArchiveId: z.int(),
  DocId: z.int(),
  SecureId: z.string(),
  DeleteOriginal: z.optional(z.boolean()),
});
export type InboxPutDocument = z.infer<typeof InboxPutDocument>;
/** Most files one export zips. */
export const INBOX_EXPORT_MAX = 1000;

export const inboxPaths = {
  /** GET: list, with jobid; with Id, pageNumber, numberOfDocuments, sort: one inbox's documents. */
  list: '/api/inboxes',
  /**
   * PUT; GET for move (FilePath, targetInboxId, deleteOriginal); POST for export, rename
   * (FilePath, newFileName) and send to archive (fileName, destinationDatabaseId,
   * destinationArchiveId, token); DELETE with FilePath.
   */
  one: (id: number) => `/api/inboxes/${id}`,
  /** GET ?FileName=&Height=&Width=&Page=: a page of the file as PNG. */
  thumb: (id: number) => `/api/inboxes/${id}/thumb`,
  /** GET ?FilePath=: the file's bytes as an attachment. */
  file: (id: number) => `/api/inboxes/${id}/file`,
  /** GET with an Auth-Token header. */
  admin: '/api/admin/inboxes',
} as const;
