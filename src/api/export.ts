import * as z from 'zod/mini';

/**
 * Export (the user-app spec §2 export dialogs, §3 Export settings and job notes, §4 conversion states, §5
 * name patterns, §6 bits 64 and 128, §7, §8 export keys). An export is a server job (src/api/jobs.ts,
 * Kind 'export'), worked by the job runner like copy/move/delete; its result is ONE file kept on the
 * server for EXPORT_KEEP_HOURS, streamed to the client (never held in memory on either side).
 *
 *   POST exportPaths.job(db)?field=&auditEntry=&alwaysExportZip=   body ExportSettings
 *        (PascalCase, as the spec's Export settings; Idempotency-Key like every POST)
 *     -> 200 ExportAccepted { JobId, State, Count }; then GET api/jobs/{JobId} for progress.
 *     The documents: Docs (each ArchiveID, DocID; at most EXPORT_MAX_DOCUMENTS), or when Docs is
 *     empty or absent, every document of the saved search SearchID in ArchiveID with SearchCriteria
 *     (as the results grid runs it). None at all: 400 ERROR_EXPORT_NO_RESULTS.
 *     Format 'zip' (default): a zip with every document's file(s) (in the folder FilePath when
 *     given) plus, with ExportWithCSV, a CSV of index data named CsvFile (default EXPORT_CSV_NAME):
 *     one header row (ArchiveID, DocID, File, then the fields of FieldIDs by name, in that order)
 *     and one row a document, fields separated by FieldDelimiter, values quoted with
 *     StringDelimiter when needed (UseString: always). ExportWithMappedFields: a list field is
 *     written as its list's shown text instead of its stored value. ConvertToPDF: TIFF documents
 *     become PDF files; ConvertToBW: image pages become black and white (1 bit). WithAnnotations:
 *     each document's annotations (src/api/annotations.ts) drawn onto its exported pages.
 *     Format 'xlsx' (Excel export, bit 64): one .xlsx workbook of the index data only (same columns
 *     as the CSV), no files.
 *     `field`: a field id whose value names each document's file in the zip (else its file name);
 *     names are made safe and unique. `auditEntry` (default true): an 'exported' history entry per
 *     document. `alwaysExportZip` (default true): false with one document, Format 'zip' and no CSV
 *     gives that document's file itself instead of a zip.
 *     Filename: the result's file name (default 'export-{JobId}.zip' / '.xlsx'); FilePath and
 *     Filename must not contain \ / : * ? " < > | (FORBIDDEN_NAME_CHARS): 400.
 *     Refusals (nothing started): 403 ERROR_FAILED_DUE_TO_PERMISSIONS without bit 128 (zip) or 64
 *     (xlsx, also refused for a read-only licence, type 4) on an archive of the documents; 409
 *     ERROR_EXPORT_PDF_PENDING / ERROR_EXPORT_IN_WORKFLOW / ERROR_EXPORT_PDF_WORKFLOW_PENDING when
 *     documents wait for PDF conversion, are in a workflow, or both (Message names them: "PDF
 *     conversion", "workflow", as the spec's client reads it).
 *   GET exportPaths.job(db)?jobid=N
 *     -> 200 the result file (Content-Type application/zip or the xlsx type, Content-Disposition
 *        attachment with its name, Content-Length), streamed from disk.
 *     -> 409 EXPORT_NOT_READY_KEY while the job is queued or running (body: the error plus Job);
 *        410 EXPORT_EXPIRED_KEY once EXPORT_KEEP_HOURS have passed (the file is removed);
 *        404 for an unknown job or another user's; 400 for a job that is not an export.
 * The job's Notes, once done: [[1, ExportNote]] (kind 1: export with job id).
 *
 * Single export (no job): GET exportPaths.file(db, archive, id) with SingleExportQuery -> the
 * document's file (a document of several files: one PDF of them all), Content-Disposition named by
 * the value of fileNameFieldId when given; needs view (1) and export (128). auditEntry: an
 * 'exported' history entry.
 */
export const EXPORT_FORMATS = ['zip', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_MAX_DOCUMENTS = 100_000;
export const EXPORT_KEEP_HOURS = 24;
export const EXPORT_CSV_NAME = 'index.csv';
export const EXPORT_NOT_READY_KEY = 'ERROR_EXPORT_NOT_READY';
export const EXPORT_EXPIRED_KEY = 'ERROR_EXPORT_EXPIRED';
export const EXPORT_NO_RESULTS_KEY = 'ERROR_EXPORT_NO_RESULTS';
export const EXPORT_PDF_PENDING_KEY = 'ERROR_EXPORT_PDF_PENDING';
export const EXPORT_IN_WORKFLOW_KEY = 'ERROR_EXPORT_IN_WORKFLOW';
export const EXPORT_PDF_WORKFLOW_PENDING_KEY = 'ERROR_EXPORT_PDF_WORKFLOW_PENDING';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
  /** Not in the spec's list: which kind of export (the spec's ExportDocuments / ExportDocumentsToExcel). */
  Format: z.optional(z.enum(EXPORT_FORMATS)),
});
export type ExportSettings = z.infer<typeof ExportSettings>;

export interface ExportQuery {
  field?: number;
  auditEntry?: boolean;
  alwaysExportZip?: boolean;
}

export const ExportAccepted = z.looseObject({ JobId: z.int(), State: z.string(), Count: z.int() });
export type ExportAccepted = z.infer<typeof ExportAccepted>;

/** The export job note's second element: where and until when the result can be fetched. */
export const ExportNote = z.looseObject({
  JobId: z.int(),
  FileName: z.string(),
  Size: z.int(),
  Format: z.enum(EXPORT_FORMATS),
  /** ISO time after which GET answers 410. */
  Expires: z.string(),
});
export type ExportNote = z.infer<typeof ExportNote>;

export interface SingleExportQuery {
  SecureId: string;
  fileNameFieldId?: number;
  auditEntry?: boolean;
}

/** Job notes (the user-app spec §3): the first element is the kind. */
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

/** Folder path and file name must not contain \ / : * ? " < > | (the user-app spec §5). */
export const FORBIDDEN_NAME_CHARS = /[\\/:*?"<>|]/;
/** Drive path (C:\...) or UNC-like backslash path. */
export const WINDOWS_PATH = /^(?:[A-Za-z]:\\|\\\\)[A-Za-z0-9_\-. {}&\\]*$/;

export const exportPaths = {
  /** GET with jobid: the result file; POST with field, auditEntry, alwaysExportZip; body ExportSettings. */
  job: (db: number) => `/api/dbs/${db}/export`,
  /** GET with Token, SecureId, fileNameFieldId, auditEntry (single export). */
  file: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/file`,
} as const;
