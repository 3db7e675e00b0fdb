import { z } from 'zod';

/** Export (user-app.md §3, §7): server export jobs and single-document file export. */
export const ExportSettings = z.object({
  DatabaseID: z.number().int(),
  ArchiveID: z.number().int(),
  SearchID: z.number().int().optional(),
  FilePath: z.string().optional(),
  Filename: z.string().optional(),
  CsvFile: z.string().optional(),
  FieldDelimiter: z.string().default(','),
  StringDelimiter: z.string().default('"'),
  UseString: z.boolean().optional(),
  ExportWithCSV: z.boolean().optional(),
  ExportWithMappedFields: z.boolean().optional(),
  ConvertToPDF: z.boolean().optional(),
  WithAnnotations: z.boolean().optional(),
  ConvertToBW: z.boolean().optional(),
  FieldIDs: z.array(z.number().int()).optional(),
  Docs: z.array(z.object({ ArchiveID: z.number().int(), DocID: z.number().int() })).optional(),
  SearchCriteria: z.string().optional(),
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
export const JobNote = z.tuple([z.number().int()], z.unknown());

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
