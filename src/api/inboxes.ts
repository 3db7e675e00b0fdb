import * as z from 'zod/mini';

/** Inboxes (user-app.md §3, §7; archive-inbox-ops.md §7). */
export const INBOX_FIXED_COLUMNS = ['File Name', 'File Format', 'Date Created', 'Date Modified'] as const;
export const INBOX_PAGE_DEFAULTS = { pageNumber: 1, numberOfDocuments: 25 } as const;

export const Inbox = z.looseObject({ Id: z.int(), Name: z.string(), Count: z.optional(z.int()) });
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
});
export type InboxDocument = z.infer<typeof InboxDocument>;

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
