import { z } from 'zod';

/** Uploads (user-app.md §3, §7, §9): chunked, resumable; JobID, Index, RawData. */
export const UPLOAD_CHUNK_SIZE = 1_048_576;
export const UPLOAD_ERRORS = ['RequiredField', 'Permissions', 'DataTypeMismatch', 'LicenseExpired'] as const;

export const UploadChunk = z.object({ JobID: z.string(), Index: z.number().int().nonnegative(), RawData: z.string() });
export type UploadChunk = z.infer<typeof UploadChunk>;

/** Scan session (user-app.md §3). */
export const ScanSession = z.looseObject({ Licence: z.string().optional(), ScannerName: z.string().optional(), SessionId: z.string(), ScanId: z.string().optional() });

/** Import options (user-app.md §3). */
export const ImportOptions = z.object({
  Database: z.number().int(),
  Archive: z.number().int(),
  csvPath: z.string(),
  errorPath: z.string(),
  fieldDelimiter: z.string().default(','),
  stringDelimiter: z.string().default('"'),
  OverwriteSystem: z.boolean().optional(),
  FieldMapping: z.array(z.object({ FieldID: z.number().int(), RowID: z.number().int(), Checked: z.boolean() })),
});
export type ImportOptions = z.infer<typeof ImportOptions>;

/** Bulk update (user-app.md §3). */
export const BulkUpdate = z.object({
  SearchInfo: z.unknown().optional(),
  ReplaceInfo: z.record(z.string(), z.number().int()).optional(),
  ArchiveID: z.number().int(),
  SearchID: z.number().int().optional(),
  Docs: z.array(z.unknown()).optional(),
});
export type BulkUpdateType = 'simple' | 'documentSelectUpdate';

export const uploadPaths = {
  /** POST upload (URL, token); GET upload: state of a job. */
  upload: '/api/upload',
  chunk: '/api/upload/chunk',
  /** POST files for an inbox upload. */
  files: '/api/files',
} as const;
