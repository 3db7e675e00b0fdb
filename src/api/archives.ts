import { z } from 'zod';

/** Archives, their fields, view tabs and lists (user-app.md §3, §7; archive-inbox-ops.md §7). */

export const ARCHIVE_PROPS = { revisionControl: 1, webRevision: 4, versionsArchive: 16 } as const;

/** Archive permission bits (user-app.md §6). */
export const ARCHIVE_PERMISSIONS = {
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

export const Archive = z.looseObject({
  Id: z.number().int().optional(),
  ID: z.number().int().optional(),
  Name: z.string(),
  Count: z.number().int().optional(),
  Permissions: z.number().int().optional(),
  Parent: z.number().int().nullable().optional(),
  FolderOptions: z.unknown().optional(),
});
export type Archive = z.infer<typeof Archive>;
export const ArchiveList = z.array(Archive);

/** Field types: 1 character, 2 number, 3 date, 4 decimal. */
export const FIELD_TYPES = { character: 1, number: 2, date: 3, decimal: 4 } as const;
/** Field Prop flags (user-app.md §3). */
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
  /** 512, 1024, 2048, 4096 and 8192 make a cell read-only. */
  readOnlyMask: 512 | 1024 | 2048 | 4096 | 8192,
} as const;

export const Field = z.looseObject({
  ID: z.number().int(),
  Name: z.string(),
  List: z.number().int().nullable().optional(),
  Type: z.number().int(),
  Size: z.number().int().nullable().optional(),
  Mask: z.string().nullable().optional(),
  RegEx: z.string().nullable().optional(),
  Prop: z.number().int().nullable().optional(),
  Parent: z.number().int().nullable().optional(),
  ListF1: z.number().int().nullable().optional(),
  ListF2: z.number().int().nullable().optional(),
  MultiValue: z.boolean().nullable().optional(),
  ExtendedConfig: z.looseObject({ LiveField: z.boolean().optional() }).nullable().optional(),
});
export type Field = z.infer<typeof Field>;
export const FieldList = z.array(Field);

export const ViewTab = z.looseObject({ ID: z.number().int(), Label: z.string(), Color: z.string().nullable().optional(), Value: z.string().nullable().optional() });
export const ViewTabList = z.array(ViewTab);

export const ListItems = z.looseObject({ Items: z.array(z.string()) });

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
