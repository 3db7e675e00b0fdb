import * as z from 'zod/mini';

/** Uploads (user-app.md §3, §7, §9): chunked, resumable; JobID, Index, RawData. */
export const UPLOAD_CHUNK_SIZE = 1_048_576;
export const UPLOAD_ERRORS = ['RequiredField', 'Permissions', 'DataTypeMismatch', 'LicenseExpired'] as const;

export const UploadChunk = z.object({ JobID: z.string(), Index: z.int().check(z.nonnegative()), RawData: z.string() });
export type UploadChunk = z.infer<typeof UploadChunk>;

/** Scan session (user-app.md §3). */
export const ScanSession = z.looseObject({ Licence: z.optional(z.string()), ScannerName: z.optional(z.string()), SessionId: z.string(), ScanId: z.optional(z.string()) });

/** Import options (user-app.md §3). */
export const ImportOptions = z.object({
  Database: z.int(),
  Archive: z.int(),
  csvPath: z.string(),
  errorPath: z.string(),
  fieldDelimiter: z._default(z.string(), ','),
  stringDelimiter: z._default(z.string(), '"'),
  OverwriteSystem: z.optional(z.boolean()),
  FieldMapping: z.array(z.object({ FieldID: z.int(), RowID: z.int(), Checked: z.boolean() })),
});
export type ImportOptions = z.infer<typeof ImportOptions>;

/** Bulk update (user-app.md §3). */
export const BulkUpdate = z.object({
  SearchInfo: z.optional(z.unknown()),
  ReplaceInfo: z.optional(z.record(z.string(), z.int())),
  ArchiveID: z.int(),
  SearchID: z.optional(z.int()),
  Docs: z.optional(z.array(z.unknown())),
});
export type BulkUpdateType = 'simple' | 'documentSelectUpdate';

export const uploadPaths = {
  /** POST upload (URL, token); GET upload: state of a job. */
  upload: '/api/upload',
  chunk: '/api/upload/chunk',
  /** POST files for an inbox upload. */
  files: '/api/files',
} as const;
