import { z } from 'zod';

/**
 * Searches (user-app.md §3, §7): saved searches of a database, one search with its prompts, and
 * the page of documents a search returns for one archive. Task (queue) searches use the same list
 * call with workflowId and queueKey.
 */

/** Search Settings bit 4: shown in the list. Props: 1 content search, 32 display view tabs. */
export const SEARCH_SETTINGS = { shownInList: 4 } as const;
export const SEARCH_PROPS = { contentSearch: 1, displayViewTabs: 32 } as const;

/** Search detail item (a prompt). */
export const SearchDetailItem = z.looseObject({
  ID: z.number().int(),
  Prompt: z.string().nullable().optional(),
  ListID: z.number().int().nullable().optional(),
  Prop: z.number().int().nullable().optional(),
  Type: z.number().int().nullable().optional(),
  VAL: z.string().nullable().optional(),
  MVAL: z.array(z.string()).nullable().optional(),
});
export type SearchDetailItem = z.infer<typeof SearchDetailItem>;

export const Search = z.looseObject({
  Id: z.number().int(),
  Name: z.string(),
  Parent: z.number().int().nullable().optional(),
  Archives: z.array(z.number().int()).nullable().optional(),
  Detail: z.array(SearchDetailItem).nullable().optional(),
  Props: z.number().int().nullable().optional(),
  Settings: z.number().int().nullable().optional(),
});
export type Search = z.infer<typeof Search>;
export const SearchList = z.array(Search);

export const DocumentField = z.looseObject({
  ID: z.number().int(),
  VAL: z.string().nullable().optional(),
  MVAL: z.array(z.string()).nullable().optional(),
});
export type DocumentField = z.infer<typeof DocumentField>;

/** Document (user-app.md §3). */
export const ArchiveDocument = z.looseObject({
  Id: z.number().int(),
  Hash: z.string(),
  ArchiveId: z.number().int().optional(),
  Archive: z.number().int().optional(),
  FileName: z.string().nullable().optional(),
  FileType: z.string().nullable().optional(),
  InboxId: z.number().int().nullable().optional(),
  Permissions: z.number().int().optional(),
  Hits: z.number().nullable().optional(),
  Version: z.string().nullable().optional(),
  Fields: z.array(DocumentField),
  check: z.boolean().optional(),
});
export type ArchiveDocument = z.infer<typeof ArchiveDocument>;

/** Result set (user-app.md §3): Docs for archives, Files for inboxes. */
export const ResultSet = z.looseObject({
  Count: z.number().int(),
  Docs: z.array(ArchiveDocument).optional(),
  Files: z.array(z.unknown()).optional(),
  Fields: z.array(z.unknown()).optional(),
  Terms: z.array(z.string()).nullable().optional(),
  Permissions: z.number().int().optional(),
  FolderOptions: z.unknown().optional(),
});
export type ResultSet = z.infer<typeof ResultSet>;

/** Workflow queue search (task searches). */
export const QueueSearch = z.looseObject({
  Key: z.string(),
  WorkflowId: z.number().int(),
  ProcessIDs: z.array(z.number().int()).optional(),
  Visible: z.boolean().optional(),
});
/** Queue count result: archives with Id and ProcessIDs; the count is their number. */
export const QueueCount = z.array(z.looseObject({ Id: z.number().int(), ProcessIDs: z.array(z.number().int()) }));

export interface SearchListParams {
  token?: string;
  workflowId?: number;
  queueKey?: string;
  ArchiveId?: number;
  count?: boolean;
  Page?: number;
  RecordsPerPage?: number;
  Sort?: string;
}

export interface DocumentPageParams {
  page: number;
  RecordsPerPage: number;
  SearchCriteria?: string;
  SecureId?: string;
  tabID?: number;
  sort?: string;
  time?: number;
  Count?: boolean;
}

export const searchPaths = {
  list: (dbId: number) => `/api/dbs/${dbId}/searches`,
  one: (dbId: number, searchId: number) => `/api/dbs/${dbId}/searches/${searchId}`,
  documents: (dbId: number, searchId: number, archiveId: number) =>
    `/api/dbs/${dbId}/searches/${searchId}/archive/${archiveId}/documents`,
  /** archive-inbox-ops.md §7: searches of one archive, and a parent database's search. */
  ofArchive: (dbId: number, archiveId: number) => `/api/dbs/${dbId}/archives/${archiveId}/searches`,
  parentSearch: (parentDb: number, parentArchive: number, searchId: number) =>
    `/api/dbs/${parentDb}/archives/${parentArchive}/searches/${searchId}`,
} as const;
