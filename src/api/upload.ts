import * as z from 'zod/mini';
import { IDEMPOTENCY_HEADER } from './errors';
import { apiRequest } from './http';

/**
 * Uploads (the user-app spec §3 "Upload job: JobID, chunk Index, RawData", §7 "POST upload, upload/chunk;
 * GET upload", §9 chunk size 1048576 "with a server-given chunk limit"; the archive-ops spec §5, §7,
 * §8): chunked and resumable, the one way every file reaches the server (inbox drop, import, scan).
 *
 *   POST uploadPaths.upload         body UploadStart (+ Idempotency-Key)    -> UploadState (a new JobID)
 *   POST uploadPaths.chunk?JobID=&Index=   body: the chunk's bytes (RawData) -> UploadState
 *   GET  uploadPaths.upload?JobID=                                          -> UploadState
 *
 * RawData travels as the request body itself (Content-Type application/octet-stream), not as base64
 * in JSON (a third larger, and decoded in memory) nor as multipart (a boundary parser for one field):
 * the server writes the bytes as they came to the upload's part file at Index * ChunkSize.
 * Every chunk is ChunkSize bytes (the server's limit, given in UploadState) but the last one.
 *
 * The answer always names NextIndex: the chunk the server needs next, the resume point after a
 * dropped connection or a reload (ask GET, go on from there). A chunk the server already has is
 * accepted again and not written twice (Repeated counts them); a chunk past NextIndex answers 409
 * UPLOAD_CHUNK_OUT_OF_ORDER with NextIndex in the body. With the last chunk the server checks the
 * whole file against Sha256 (a mismatch ends the upload failed: 422 ERROR_FILE_UPLOAD_FAILED) and
 * stores it; an inbox target then holds it as a new inbox file (named uniquely in its inbox: Result
 * InboxID and Path), a staging target (import) keeps it for the import that names the JobID (Result
 * Sha256).
 * Refusals: Size 0 is 400 ZERO_BYTE_FILE_REMOVED_MSG; a Size over the server's limit (UPLOAD_MAX_BYTES,
 * default 2 GiB) is 413 UPLOAD_TOO_LARGE, and one that would take the user's unfinished uploads past
 * their limit (UPLOAD_USER_STAGED_BYTES, default 4 GiB, counted by declared Size) is 413
 * UPLOAD_STAGED_LIMIT, both with the sizes in Message and before any byte is sent; an inbox target needs inbox edit (4) and an
 * archive (staging) target archive add (2), else 403; the read-only licence (4) may not upload (403);
 * another user's JobID is 404; an upload not finished within UPLOAD_KEEP_MS is purged (410).
 */
export const UPLOAD_CHUNK_SIZE = 1_048_576;
/** An upload that has not moved for this long is removed with its part file (the hourly purge). */
export const UPLOAD_KEEP_MS = 86_400_000;
export const UPLOAD_ERRORS = ['RequiredField', 'Permissions', 'DataTypeMismatch', 'LicenseExpired'] as const;
/** Keys of the upload's refusals (public/languages/*.json). */
export const UPLOAD_KEYS = {
  failed: 'ERROR_FILE_UPLOAD_FAILED',
  zeroByte: 'ZERO_BYTE_FILE_REMOVED_MSG',
  outOfOrder: 'UPLOAD_CHUNK_OUT_OF_ORDER',
  expired: 'UPLOAD_EXPIRED',
  tooLarge: 'UPLOAD_TOO_LARGE',
  stagedLimit: 'UPLOAD_STAGED_LIMIT',
} as const;

/** Where the file goes: an inbox (a new inbox file) or the staging area of an archive's import. */
export const UploadTarget = z.union([
  z.object({ InboxID: z.int().check(z.positive()) }),
  z.object({ DatabaseID: z.int().check(z.positive()), ArchiveID: z.int().check(z.positive()) }),
]);
export type UploadTarget = z.infer<typeof UploadTarget>;

export const UploadStart = z.object({
  FileName: z.string().check(z.minLength(1), z.maxLength(255)),
  Size: z.int().check(z.nonnegative()),
  /** The file's media type as the browser gave it ('' when unknown). */
  Type: z.optional(z.string().check(z.maxLength(200))),
  /** SHA-256 of the whole file, lower-case hex. */
  Sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  Target: UploadTarget,
});
export type UploadStart = z.infer<typeof UploadStart>;

export const UPLOAD_STATES = ['receiving', 'done', 'failed', 'expired'] as const;
export type UploadServerState = (typeof UPLOAD_STATES)[number];

export const UploadResult = z.union([
  z.object({ InboxID: z.int(), Path: z.string(), Sha256: z.string() }),
  z.object({ ArchiveID: z.int(), Sha256: z.string() }),
]);
export type UploadResult = z.infer<typeof UploadResult>;

export const UploadState = z.looseObject({
  JobID: z.string(),
  State: z.enum(UPLOAD_STATES),
  /** The chunk the server needs next (ChunkCount once every chunk is in). */
  NextIndex: z.int(),
  ChunkSize: z.int(),
  ChunkCount: z.int(),
  Size: z.number(),
  /** Chunks the server was sent again although it had them (their bytes were not written twice). */
  Repeated: z.int(),
  Result: z.optional(UploadResult),
  /** Why it failed (State failed), in the catalogue's words: Key and the server's Message. */
  Key: z.optional(z.string()),
  Message: z.optional(z.string()),
});
export type UploadState = z.infer<typeof UploadState>;

/** The query of a chunk; its RawData is the request body. */
export const UploadChunkQuery = z.object({ JobID: z.string().check(z.minLength(1), z.maxLength(64)), Index: z.int().check(z.nonnegative()) });
export type UploadChunkQuery = z.infer<typeof UploadChunkQuery>;

/** The 409 of a chunk sent ahead of NextIndex. */
export const UploadOutOfOrder = z.looseObject({ Message: z.string(), Key: z.optional(z.string()), NextIndex: z.int() });

export const chunkCountOf = (size: number, chunkSize: number): number => Math.ceil(size / chunkSize);

/** Scan session (the user-app spec §3). */
export const ScanSession = z.looseObject({ Licence: z.optional(z.string()), ScannerName: z.optional(z.string()), SessionId: z.string(), ScanId: z.optional(z.string()) });

/** Import options (the user-app spec §3). */
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

/** Bulk update (the user-app spec §3). */
export const BulkUpdate = z.object({
  SearchInfo: z.optional(z.unknown()),
  ReplaceInfo: z.optional(z.record(z.string(), z.int())),
  ArchiveID: z.int(),
  SearchID: z.optional(z.int()),
  Docs: z.optional(z.array(z.unknown())),
});
export type BulkUpdateType = 'simple' | 'documentSelectUpdate';

export const uploadPaths = {
  /** POST upload: starts an upload job; GET upload?JobID=: its state and NextIndex. */
  upload: '/api/upload',
  chunk: '/api/upload/chunk',
  /** POST files for an inbox upload. */
  files: '/api/files',
} as const;

// --- calls (the token in the Auth-Token header, out of the URL) -------------------------------------

/** POST api/upload: a new upload job; `key` (the Idempotency-Key) makes a repeat find the same job. */
export const startUploadJob = (body: UploadStart, key: string, signal?: AbortSignal) =>
  apiRequest({ method: 'POST', path: uploadPaths.upload, body, headers: { [IDEMPOTENCY_HEADER]: key }, auth: 'header', schema: UploadState, signal });

/** GET api/upload?JobID=: where the server is (the resume point). */
export const fetchUploadState = (jobId: string, signal?: AbortSignal) => apiRequest({ path: uploadPaths.upload, query: { JobID: jobId }, auth: 'header', schema: UploadState, signal });

/** POST api/upload/chunk: one chunk's bytes (a slice of the stored File, read as it is sent). */
export const sendUploadChunk = (jobId: string, index: number, data: Blob, signal?: AbortSignal) =>
  apiRequest({ method: 'POST', path: uploadPaths.chunk, query: { JobID: jobId, Index: index }, rawBody: data, auth: 'header', schema: UploadState, signal });
