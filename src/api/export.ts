import * as z from 'zod/mini';

/** Export (user-app.md §3, §7): server export jobs and single-document file export. */
export const ExportSettings = z.object({
  DatabaseID: z.int(),
  ArchiveID: z.int(),
  SearchID: z.optional(z.int()),
  FilePath: z.optional(z.string()),
  Filename: z.optional(z.string()),
  CsvFile: z.optional(z.string()),
  FieldDelimiter: z._default(z.string(), ','),
  StringDelimiter: z._default(z.string(), '"'),
  UseString: z.optional(z.boolean()),
  ExportWithCSV: z.optional(z.boolean()),
  ExportWithMappedFields: z.optional(z.boolean()),
  ConvertToPDF: z.optional(z.boolean()),
  WithAnnotations: z.optional(z.boolean()),
  ConvertToBW: z.optional(z.boolean()),
  FieldIDs: z.optional(z.array(z.int())),
  Docs: z.optional(z.array(z.object({ ArchiveID: z.int(), DocID: z.int() }))),
  SearchCriteria: z.optional(z.string()),
});
export type ExportSettings = z.infer<typeof ExportSettings>;

/** Job notes (user-app.md §3): the first element is the kind. */
export const JOB_NOTE_KINDS = {
  error: 0,
  export: 1,
  info: 2,
  information: 3,
  link: 4,
  copyMoveDelete: 5,
  extensionsLink: 6,
  error7: 7,
  error8: 8,
} as const;
export const JobNote = z.tuple([z.int()], z.unknown());

/** Folder path and file name must not contain \ / : * ? " < > | (user-app.md §5). */
export const FORBIDDEN_NAME_CHARS = /[\\/:*?"<>|]/;
/** Drive path (C:\...) or UNC-like backslash path. */
export const WINDOWS_PATH = /^(?:[A-Za-z]:\\|\\\\)[A-Za-z0-9_\-. {}&\\]*$/;

export const exportPaths = {
  /** GET with jobid: job state; POST with token, field, auditEntry, alwaysExportZip; body documents. */
  job: (db: number) => `/api/dbs/${db}/export`,
  /** GET with Token, SecureId, fileNameFieldId, auditEntry (single export). */
  file: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/file`,
} as const;
