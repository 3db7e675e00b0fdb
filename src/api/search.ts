import * as z from 'zod/mini';
import { FieldList, ViewTabList } from './archives';

/**
 * Searches (the user-app spec §3, §7): saved searches of a database, one search with its prompts, and
 * the page of documents a search returns for one archive. Task (queue) searches use the same list
 * call with workflowId and queueKey.
 */

/** Search Settings bit 4: shown in the list; bit 8: the default search. Props: 1 content search, 32 display view tabs. */
export const SEARCH_SETTINGS = { shownInList: 4, default: 8 } as const;
export const SEARCH_PROPS = { contentSearch: 1, displayViewTabs: 32 } as const;

/**
 * Prompt conditions. Contains: case-insensitive substring. Equals: case-insensitive for text, by
 * value for numbers (Type 2) and decimals (4), the ISO date for dates (3). Range: MVAL [from, to],
 * inclusive, either may be '' (open end), compared by value (numbers, decimals), by date, or
 * lexically (text). IsEmpty / IsNotEmpty take no value.
 * Multi-value fields (Prop 32, table-field columns) match when any of their values matches.
 */
export const SEARCH_CONDITIONS = ['Contains', 'Equals', 'IsEmpty', 'IsNotEmpty', 'Range'] as const;
export const SearchCondition = z.enum(SEARCH_CONDITIONS);
export type SearchCondition = z.infer<typeof SearchCondition>;

/** Type of the content-search prompt (FID 0): its VAL is the full-text query ("hits marker"). */
export const CONTENT_SEARCH_TYPE = 0;

/** Search detail item (a prompt). The server always sends every field of SearchPrompt below. */
export const SearchDetailItem = z.looseObject({
  ID: z.int(),
  /** Field id; 0 for the content-search prompt. */
  FID: z.optional(z.int()),
  Prompt: z.nullish(z.string()),
  ListID: z.nullish(z.int()),
  Prop: z.nullish(z.int()),
  /** Field type 1-4 (src/api/archives.ts FIELD_TYPES); 0 = content search text. */
  Type: z.nullish(z.int()),
  Mask: z.nullish(z.string()),
  Condition: z.optional(SearchCondition),
  /** Default value. */
  VAL: z.nullish(z.string()),
  /** Default values (Range: [from, to]). */
  MVAL: z.nullish(z.array(z.string())),
});
export type SearchDetailItem = z.infer<typeof SearchDetailItem>;

/** A prompt as the server sends it (GET api/dbs/{db}/searches/{id}, Detail). Prop is the field's Prop. */
export const SearchPrompt = z.extend(SearchDetailItem, {
  FID: z.int(),
  Prompt: z.string(),
  ListID: z.nullable(z.int()),
  Prop: z.int(),
  Type: z.int().check(z.minimum(0), z.maximum(4)),
  Mask: z.nullable(z.string()),
  Condition: SearchCondition,
  VAL: z.nullable(z.string()),
  MVAL: z.nullable(z.array(z.string())),
});
export type SearchPrompt = z.infer<typeof SearchPrompt>;

export const Search = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  /** Stable string id, the {searchHash} of /results/{searchHash}. */
  Hash: z.optional(z.string()),
  Parent: z.nullish(z.int()),
  Archives: z.nullish(z.array(z.int())),
  Detail: z.nullish(z.array(SearchDetailItem)),
  Props: z.nullish(z.int()),
  Settings: z.nullish(z.int()),
  Icon: z.nullish(z.string()),
});
export type Search = z.infer<typeof Search>;
/**
 * GET api/dbs/{db}/searches: every search of the database the user may run (it has view rights on
 * at least one of its archives), in designer order, hidden ones (no Settings bit 4) included; the
 * client lists those with bit 4 and preselects bit 8. Archives lists only archives the user may view.
 */
export const SearchList = z.array(Search);
export const SearchListEntry = z.extend(Search, { Hash: z.string(), Archives: z.array(z.int()), Props: z.int(), Settings: z.int() });

/** An archive of a search as the user sees it. */
export const SearchArchive = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  Parent: z.nullable(z.int()),
  Props: z.int(),
  Permissions: z.int(),
});
export type SearchArchive = z.infer<typeof SearchArchive>;

/** Per-archive count of a multi-archive search (each archive counted with its sub-archives). */
export const ArchiveCount = z.looseObject({ Id: z.int(), Name: z.string(), Count: z.int() });
export type ArchiveCount = z.infer<typeof ArchiveCount>;

/**
 * GET api/dbs/{db}/searches/{searchId}[?SearchCriteria=...&count=true]: the search with its prompts
 * (Detail), the archives the user may view (ArchiveList, search order), and when Props has 32 the
 * view Tabs and the StatusField (field id the tabs filter on). With count=true (and optional
 * SearchCriteria) also ArchiveCounts, one per archive of ArchiveList.
 * A search the user may not run: 403; unknown: 404.
 */
export const SearchDetail = z.extend(SearchListEntry, {
  Detail: z.array(SearchPrompt),
  ArchiveList: z.array(SearchArchive),
  Tabs: z.optional(ViewTabList),
  StatusField: z.nullish(z.int()),
  ArchiveCounts: z.optional(z.array(ArchiveCount)),
});
export type SearchDetail = z.infer<typeof SearchDetail>;

/**
 * SearchCriteria query parameter: JSON text of an array of these, one per prompt (ID = the prompt's
 * ID). Dates ISO yyyy-mm-dd, decimals with '.'. Contains/Equals with an empty VAL (and no non-empty
 * MVAL) set no condition; several MVAL values for Contains/Equals match any of them. Range uses
 * MVAL [from, to]. IsEmpty/IsNotEmpty apply when listed. Prompts sharing one Prompt text are
 * equivalent (same field): a value may be sent under either ID.
 * Without SearchCriteria the prompts' defaults apply (VAL/MVAL, and every IsEmpty/IsNotEmpty prompt).
 * A non-empty VAL on the content-search prompt (Type 0) runs a full-text search (PostgreSQL
 * websearch syntax: words, "phrases", OR, -word) on the documents' text: Docs get Hits and the
 * answer Terms. Values of the wrong type, unknown IDs or malformed JSON: 400 ERROR_INCORRECT_PARAMETERS.
 */
const CriterionValue = z.pipe(z.union([z.string(), z.number()]), z.transform(String));
export const SearchCriterion = z.object({
  ID: z.int(),
  VAL: z.nullish(CriterionValue),
  MVAL: z.nullish(z.array(z.nullable(CriterionValue))),
});
export type SearchCriterion = z.input<typeof SearchCriterion>;
export const SearchCriteria = z.array(SearchCriterion);
export const encodeSearchCriteria = (items: readonly SearchCriterion[]): string => JSON.stringify(items);

/** Sort column name for the content-search rank. */
export const HITS_SORT = 'HITS';
export interface SortSpec {
  /** A field id (as text) or HITS_SORT. */
  field: string;
  dir: 'asc' | 'desc';
}
/** The `sort` parameter: comma list of `{fieldId}:asc|desc` or `HITS:desc`, e.g. `3:desc,HITS:desc`. */
export const formatSort = (specs: readonly SortSpec[]): string => specs.map((s) => `${s.field}:${s.dir}`).join(',');

export const DocumentField = z.looseObject({
  ID: z.int(),
  VAL: z.nullish(z.string()),
  MVAL: z.nullish(z.array(z.string())),
});
export type DocumentField = z.infer<typeof DocumentField>;

/** Document (the user-app spec §3). */
export const ArchiveDocument = z.looseObject({
  Id: z.int(),
  Hash: z.string(),
  ArchiveId: z.optional(z.int()),
  Archive: z.optional(z.int()),
  FileName: z.nullish(z.string()),
  FileType: z.nullish(z.string()),
  PageCount: z.optional(z.int()),
  InboxId: z.nullish(z.int()),
  Permissions: z.optional(z.int()),
  Hits: z.nullish(z.number()),
  Version: z.nullish(z.string()),
  /** Edit stamp: counts changes of the field values; sent back with an edit (PUT FieldData If-Match). */
  Rev: z.optional(z.int()),
  /**
   * The version of the first page as its thumbnail shows it (not in the spec): changes when that
   * page's picture does (rotate, burst, merge, a new file). Thumbnail addresses carry it.
   */
  ThumbVersion: z.nullish(z.string()),
  Fields: z.array(DocumentField),
  check: z.optional(z.boolean()),
});
export type ArchiveDocument = z.infer<typeof ArchiveDocument>;

/**
 * A document of a result page as the server sends it. ArchiveId is the document's own archive (a
 * sub-archive's documents appear in their parent's search); Permissions are the user's bits on it.
 * Fields: one entry per field of the searched archive, in column order: VAL '' when empty; MVAL
 * (array, possibly empty) only for multi-value fields and table-field columns, whose VAL is the
 * first value. Hits: how many times the content search's words (excluded ones not counted) occur in
 * the document's text, a whole number (the words as the search matches them: 'invoices' counts
 * for 'invoice'), null without a content search. Version:
 * the version number as text for archives with revision control, web revision or versions
 * (Props 1, 4, 16), else null.
 */
export const ResultDocument = z.extend(ArchiveDocument, {
  ArchiveId: z.int(),
  FileName: z.nullable(z.string()),
  FileType: z.nullable(z.string()),
  PageCount: z.int(),
  Permissions: z.int(),
  Hits: z.nullable(z.number()),
  Version: z.nullable(z.string()),
});
export type ResultDocument = z.infer<typeof ResultDocument>;

/** Result set (the user-app spec §3): Docs for archives, Files for inboxes. */
export const ResultSet = z.looseObject({
  Count: z.int(),
  Docs: z.optional(z.array(ArchiveDocument)),
  Files: z.optional(z.array(z.unknown())),
  Fields: z.optional(z.array(z.unknown())),
  Terms: z.nullish(z.array(z.string())),
  Permissions: z.optional(z.int()),
  FolderOptions: z.optional(z.unknown()),
});
export type ResultSet = z.infer<typeof ResultSet>;

/**
 * GET api/dbs/{db}/searches/{searchId}/archive/{archiveId}/documents?page=&RecordsPerPage=
 *   &SearchCriteria=&sort=&tabID=&Count=  -> DocumentPage.
 * page: 1-based (default 1; not a positive integer: 400). RecordsPerPage: 1..10000, anything else 25.
 * The archive must be one of the search's archives (or a sub-archive of one); its documents and
 * those of its sub-archives the user may view are searched. sort (formatSort): field ids of the
 * archive or HITS; default and tie-break: document Id ascending; empty values sort last. A sort on
 * anything else: 400 with a Message starting "Invalid search string, Sort field" (WIRE_MESSAGES.invalidSort).
 * tabID: a tab of SearchDetail.Tabs; filters StatusField = the tab's Value (empty Value: all).
 * Count: total matches (always present; computed once per criteria and cached briefly, recomputed
 * when Count=true). A page past the end: Docs [] with the same Count.
 * Fields: the searched archive's FieldList. Terms: the content-search terms ([] without one).
 * Permissions: the user's bits on the searched archive. No view right: 403, no document sent.
 */
export const DocumentPage = z.extend(ResultSet, {
  Docs: z.array(ResultDocument),
  Fields: FieldList,
  Terms: z.array(z.string()),
  Permissions: z.int(),
});
export type DocumentPage = z.infer<typeof DocumentPage>;

/** Workflow queue search (task searches). */
export const QueueSearch = z.looseObject({
  Key: z.string(),
  WorkflowId: z.int(),
  ProcessIDs: z.optional(z.array(z.int())),
  Visible: z.optional(z.boolean()),
});
/** Queue count result: archives with Id and ProcessIDs; the count is their number. */
export const QueueCount = z.array(z.looseObject({ Id: z.int(), ProcessIDs: z.array(z.int()) }));

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
  /** the archive-ops spec §7: searches of one archive, and a parent database's search. */
  ofArchive: (dbId: number, archiveId: number) => `/api/dbs/${dbId}/archives/${archiveId}/searches`,
  parentSearch: (parentDb: number, parentArchive: number, searchId: number) =>
    `/api/dbs/${parentDb}/archives/${parentArchive}/searches/${searchId}`,
} as const;
