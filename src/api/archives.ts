import * as z from 'zod/mini';
import { apiRequest } from './http';

/** Archives, their fields, view tabs and lists (the user-app spec §3, §7; the archive-ops spec §7). */

export const ARCHIVE_PROPS = { revisionControl: 1, webRevision: 4, versionsArchive: 16 } as const;

/**
 * Archive permission bits (the user-app spec §6; the archive-ops spec §4: 1 view, 2 add). Bit 2 is
 * "merge" in the user-app spec and "add" in the archive-ops spec: one bit, both names.
 */
export const ARCHIVE_PERMISSIONS = {
  view: 1,
  add: 2,
  merge: 2,
  append: 4,
  delete: 8,
  email: 32,
  excelExport: 64,
  export: 128,
  history: 512,
  edit: 1024,
  annotations: 2048,
  move: 131072,
} as const;
/** Inbox files: edit bit. */
export const INBOX_PERMISSIONS = { edit: 4 } as const;

/**
 * Archive. The server sends Id and ID (same value), Name, Count (documents in this archive itself,
 * not its sub-archives), Permissions (the user's bit mask on it, ARCHIVE_PERMISSIONS plus 1 view),
 * Parent (parent archive id or null), Props (ARCHIVE_PROPS), FolderOptions (number).
 * GET api/dbs/{db}/archives answers ArchiveList: every archive of the database the user may view
 * (bit 1), parents before children. GET api/dbs/{db}/archives/{a}?type=info (or no type) answers
 * one Archive; ?index=... (any value) answers the ArchiveList of its child archives the user may view.
 * An archive the user may not view answers 403 ERROR_FAILED_DUE_TO_PERMISSIONS; unknown 404.
 */
export const Archive = z.looseObject({
  Id: z.optional(z.int()),
  ID: z.optional(z.int()),
  Name: z.string(),
  Count: z.optional(z.int()),
  Permissions: z.optional(z.int()),
  Parent: z.nullish(z.int()),
  Props: z.optional(z.int()),
  FolderOptions: z.optional(z.unknown()),
});
export type Archive = z.infer<typeof Archive>;
export const ArchiveList = z.array(Archive);

/** Archive permission bit 1: view (search, open, thumbnails). */
export const ARCHIVE_VIEW = 1;

/** Field types: 1 character, 2 number, 3 date, 4 decimal. */
export const FIELD_TYPES = { character: 1, number: 2, date: 3, decimal: 4 } as const;
/** Field Prop flags (the user-app spec §3). */
export const FIELD_PROPS = {
  required: 2,
  dateEntered: 4,
  indexedBy: 8,
  pageCount: 16,
  multiValue: 32,
  dropdownList: 64,
  dynamicDropdown: 128,
  lastModifiedBy: 256,
  fileType: 1024,
  readOnly: 2048,
} as const;
// Which Prop bits make a value read-only: src/fields/editability.ts (READ_ONLY_PROP_MASK).

export const Field = z.looseObject({
  ID: z.int(),
  Name: z.string(),
  List: z.nullish(z.int()),
  Type: z.int(),
  Size: z.nullish(z.int()),
  Mask: z.nullish(z.string()),
  RegEx: z.nullish(z.string()),
  Prop: z.nullish(z.int()),
  Parent: z.nullish(z.int()),
  ListF1: z.nullish(z.int()),
  ListF2: z.nullish(z.int()),
  MultiValue: z.nullish(z.boolean()),
  /**
   * ISO 4217 code of the money a 'C' mask shows (USD, EUR ...): the server's answer from the
   * archive's country through the currency table by country code (src/fields/locale.ts). Absent:
   * unknown, and the amount shows without a currency rather than one guessed from the user's language.
   */
  Currency: z.nullish(z.string()),
  /** Min/Max: bounds of a number or decimal field (typed input is clamped to them; src/fields/rules.ts fieldBounds). */
  ExtendedConfig: z.nullish(
    z.looseObject({ LiveField: z.optional(z.boolean()), UseRegExValidation: z.optional(z.boolean()), Min: z.optional(z.number()), Max: z.optional(z.number()) }),
  ),
});
export type Field = z.infer<typeof Field>;
/** GET api/dbs/{db}/archives/{a}?type=fields: the archive's fields in column order. */
export const FieldList = z.array(Field);

/**
 * View tab. GET api/dbs/{db}/archives/{a}?type=tabs answers ViewTabList from the archive's view
 * configuration (ID = 1-based position; [] when the archive has none). A search's tabs (with their
 * own IDs, the ones tabID takes) come with the search: src/api/search.ts SearchDetail.Tabs.
 * An empty Value means "all documents".
 */
export const ViewTab = z.looseObject({ ID: z.int(), Label: z.string(), Color: z.nullish(z.string()), Value: z.nullish(z.string()) });
export const ViewTabList = z.array(ViewTab);

/**
 * GET api/dbs/{db}/lists/{listId}?index=: the list's values in list order. index filters case-
 * insensitively: values starting with it first, then values containing it. At most
 * TEXT_COMPLETE_MAX (100) items. Dynamic lists (kind 2) answer their distinct values.
 * GET api/indexes?database=&Field=&Filter1=&Filter2=[&index=]: the values of the dynamic list of
 * field Field (Prop 128) whose first/second filter equals Filter1/Filter2 (the values of the
 * field's ListF1/ListF2 fields; case-insensitive; an empty or missing filter does not filter),
 * distinct, sorted, at most DYNAMIC_LIST_MAX (1000). A field without a list answers Items [].
 */
export const ListItems = z.looseObject({ Items: z.array(z.string()) });
export const TEXT_COMPLETE_MAX = 100;
export const DYNAMIC_LIST_MAX = 1000;

export type ArchiveInfoType = 'tabs' | 'fields' | 'info';

export const archivePaths = {
  list: (dbId: number) => `/api/dbs/${dbId}/archives`,
  /** With type=tabs|fields|info, token; with index for child archives. */
  one: (dbId: number, archiveId: number) => `/api/dbs/${dbId}/archives/${archiveId}`,
  /** GET dbs/{id}/lists/{listId} with index and token; answers Items. */
  listValues: (dbId: number, listId: number) => `/api/dbs/${dbId}/lists/${listId}`,
  /** GET api/indexes with database, Field, Filter1, Filter2, Token (dynamic lists); POST indexes with token, dbId, archiveId (validation). */
  indexes: '/api/indexes',
  /** GET route with SearchId, DocumentId, Scan, Token. */
  route: (dbId: number, archiveId: number) => `/api/dbs/${dbId}/archives/${archiveId}/route`,
} as const;

/**
 * GET api/dbs/{db}/archives/{a}?type=fields: every field of the archive (the search form's dynamic
 * lists, the import's mapping, the inbox's send-to-archive values). One call and one TanStack key
 * (archiveFieldsKey) for every screen, so an archive's fields are fetched and cached once.
 */
export const fetchArchiveFields = (dbId: number, archiveId: number, signal?: AbortSignal) =>
  apiRequest({ path: archivePaths.one(dbId, archiveId), query: { type: 'fields' }, schema: FieldList, signal });
export const archiveFieldsKey = (scope: string | null, dbId: number, archiveId: number | null) => ['archiveFields', scope, dbId, archiveId] as const;
