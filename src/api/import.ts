import * as z from 'zod/mini';
import { BULK_UPDATE_MAX_ROWS, CsvRowBatch, CsvRowsReceived } from './bulk-update';

/**
 * Import documents with index data (the user-app spec §2 import dialog, §3 "Import options: Database,
 * Archive, csvPath, errorPath, fieldDelimiter, stringDelimiter, OverwriteSystem, FieldMapping
 * (FieldID, RowID, Checked)", §6 licence type 4, §7 helper "Import: getcsvcolumns, ImportDocuments",
 * §8 ERROR_IMPORT_MISSING_FIELDS, ERROR_IMPORT_DATATYPE_MISMATCH; the archive-ops spec §2 "import data
 * and documents" popover, §5 add rights, zero-byte files, licence 4).
 *
 * The spec has the local helper read a CSV from a path and import; here the browser does the helper's
 * part (the CSV is read in workers/csv.worker.ts, every value checked with the shared field rules
 * before anything is sent, the documents' files sent through the resumable uploads to the archive's
 * import staging target) and the server does the import as ONE job of kind 'import', one item a row:
 *
 *   POST importPaths.rows(db)     body CsvRowBatch (the same batches and staging as a CSV bulk
 *                                 update, src/api/bulk-update.ts; each row's File names its file)
 *                                 -> CsvRowsReceived
 *   POST importPaths.start(db)    body ImportRequest (+ Idempotency-Key)   -> ImportAccepted
 *
 * A row is { Line, Values, File? }: Values in wire form (BulkValue: dates yyyy-mm-dd, decimals with
 * '.'), File the index of its document's file in ImportRequest.Files (none: a document of index data
 * only). Files[i].Upload is the server upload job (POST api/upload with Target {DatabaseID, ArchiveID})
 * that brought the file; the client sends ImportDocuments only once its uploads are done. A file
 * whose upload is missing or not done fails its rows (ERROR_IMPORT_FILE_MISSING), not the import.
 *
 * The job judges each row again as PUT FieldData would (the shared field rules, list membership,
 * dynamic lists): an empty required field fails the row with ERROR_IMPORT_MISSING_FIELDS, a value
 * that does not fit its field with ERROR_IMPORT_DATATYPE_MISMATCH. The system fields (date entered,
 * indexed by, page count, file type, last modified by) are filled by the server unless
 * OverwriteSystem is set, when a mapped value of such a field is kept instead. Each row becomes one
 * document with one 'imported' history entry, once: a row is an item of the job, done in one
 * transaction with its document, so a crash or a re-sent call never imports a row twice.
 * A failed row is 'Line {n}: reason' (JobFailure.Line), the line of the user's CSV.
 *
 * Refusals of the whole call: the read-only licence (403), no add right (2) or view on the archive
 * (403), a versions archive (400), a mapped field not of the archive (400), rows missing (409
 * BULK_UPDATE_ROWS_MISSING).
 */
export const IMPORT_JOB_KIND = 'import';
export const IMPORT_MAX_ROWS = BULK_UPDATE_MAX_ROWS;
export const IMPORT_MAX_FILES = 100_000;

/** the user-app spec §8 (the first two); the third is ours: a row's file never reached the server. */
export const IMPORT_KEYS = {
  missingFields: 'ERROR_IMPORT_MISSING_FIELDS',
  datatypeMismatch: 'ERROR_IMPORT_DATATYPE_MISMATCH',
  fileMissing: 'ERROR_IMPORT_FILE_MISSING',
} as const;

/** FieldMapping of Import options: the CSV column RowID (0-based) fills field FieldID when Checked. */
export const ImportFieldMapping = z.object({ FieldID: z.int().check(z.positive()), RowID: z.int().check(z.nonnegative()), Checked: z.boolean() });
export type ImportFieldMapping = z.infer<typeof ImportFieldMapping>;

export const ImportFile = z.object({
  /** The file's name as the user's CSV names it. */
  Name: z.string().check(z.minLength(1), z.maxLength(255)),
  /** The upload job that brought it (api/upload, staging target of this archive). */
  Upload: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type ImportFile = z.infer<typeof ImportFile>;

/** Import options (the user-app spec §3) as the server takes them, with the staged rows and the files. */
export const ImportRequest = z.object({
  Database: z.int().check(z.positive()),
  Archive: z.int().check(z.positive()),
  /** The CSV's name (the user's file; shown in the job's title). */
  csvPath: z.string().check(z.minLength(1), z.maxLength(260)),
  /** The name the error file of refused rows is offered under. */
  errorPath: z.string().check(z.maxLength(260)),
  fieldDelimiter: z._default(z.string().check(z.length(1)), ','),
  stringDelimiter: z._default(z.string().check(z.length(1)), '"'),
  OverwriteSystem: z.optional(z.boolean()),
  FieldMapping: z.array(ImportFieldMapping).check(z.maxLength(500)),
  /** The staged rows (importPaths.rows): their Key and how many. */
  Key: z.string().check(z.minLength(8), z.maxLength(80)),
  Total: z.int().check(z.minimum(1), z.maximum(IMPORT_MAX_ROWS)),
  Files: z.array(ImportFile).check(z.maxLength(IMPORT_MAX_FILES)),
});
export type ImportRequest = z.infer<typeof ImportRequest>;
export type ImportRequestInput = z.input<typeof ImportRequest>;

export const ImportAccepted = z.looseObject({ JobId: z.int(), State: z.string(), Count: z.int() });
export type ImportAccepted = z.infer<typeof ImportAccepted>;

export { CsvRowBatch as ImportRowBatch, CsvRowsReceived as ImportRowsReceived };

export const importPaths = {
  rows: (db: number) => `/api/dbs/${db}/import/rows`,
  start: (db: number) => `/api/dbs/${db}/import/ImportDocuments`,
} as const;

/** The wording of one failed row (the import's counterpart of 'DocID {id}: reason'). */
export const importFailureMessage = (line: number, reason: string): string => `Line ${line}: ${reason}`;
