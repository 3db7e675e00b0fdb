import * as z from 'zod/mini';

/**
 * Inboxes (user-app.md §3, §7; archive-inbox-ops.md §3, §7). The reference server answers two reads
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
/** Inbox rights (archive-inbox-ops.md §4): 1 view, 4 edit (history is disabled for inboxes). */
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
/** One page of an inbox's files (archive-inbox-ops.md §3 "Inbox list response: Files, Count"). */
export const InboxFiles = z.looseObject({ Count: z.int(), Files: z.array(InboxDocument), Permissions: z.optional(z.int()) });
export type InboxFiles = z.infer<typeof InboxFiles>;

export interface InboxPageParams {
  Id: number;
  pageNumber?: number;
  numberOfDocuments?: number;
  sort?: string;
}

export const inboxPaths = {
  /** GET: list, with jobid; with Id, pageNumber, numberOfDocuments, sort: one inbox's documents. */
  list: '/api/inboxes',
  /**
   * PUT; GET for move (FilePath, targetInboxId, deleteOriginal); POST for export, rename
   * (FilePath, newFileName) and send to archive (fileName, destinationDatabaseId,
   * destinationArchiveId, token); DELETE with FilePath.
   */
  one: (id: number) => `/api/inboxes/${id}`,
  /** GET with an Auth-Token header. */
  admin: '/api/admin/inboxes',
} as const;
