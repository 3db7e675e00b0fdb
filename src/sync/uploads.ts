/**
 * The one way a feature sends a file to the server (inbox drop, import, scan; docs/architecture.md
 * "Uploads"): `enqueueUpload({ file, target })` stores the File itself in Dexie's `uploads` table
 * and returns its id; workers/upload.worker.ts sends it in 1 MiB chunks (src/sync/upload-engine.ts)
 * and writes its progress there; `useUpload(id)` / `useUploads()` (src/sync/react/use-uploads.ts)
 * follow it, and the tray shows it with Pause, Cancel and Retry (the functions below).
 *
 * Nothing here is kept in memory: the records are the state, shared by every tab and the worker.
 * Runs in the page and in workers (no window, no React).
 */
import { UPLOAD_CHUNK_SIZE, UPLOAD_KEYS, chunkCountOf } from '../api/upload';
import { db as defaultDb, type ArchiveDb, type UploadRecord } from '../db/db';
import { getSession } from '../session/session';

export type UploadTargetInput = UploadRecord['target'];

/** A file refused before anything is sent (a zero-byte file: ZERO_BYTE_FILE_REMOVED_MSG naming it). */
export class UploadRefusedError extends Error {
  constructor(
    readonly key: string,
    readonly fileName: string,
  ) {
    super(`${key}: ${fileName}`);
    this.name = 'UploadRefusedError';
  }
}

/** The page's worker is told of new work through this (use-upload-worker.ts sets it). */
let kick: (() => void) | null = null;
export function setUploadKick(fn: (() => void) | null): void {
  kick = fn;
}
const wake = () => kick?.();

export interface EnqueueOptions {
  file: Blob & { name?: string };
  target: UploadTargetInput;
  /** The name to upload under (default: the File's own name). */
  fileName?: string;
  dbId?: number;
  /** Defaults to the signed-in user. */
  owner?: string | null;
  database?: ArchiveDb;
  now?: number;
}

/** Stores the file and queues it; the id follows it. A zero-byte file is refused at once (UploadRefusedError). */
export async function enqueueUpload(opts: EnqueueOptions): Promise<string> {
  const database = opts.database ?? defaultDb;
  const fileName = opts.fileName ?? opts.file.name ?? 'upload';
  if (opts.file.size === 0) throw new UploadRefusedError(UPLOAD_KEYS.zeroByte, fileName);
  const now = opts.now ?? Date.now();
  const id = crypto.randomUUID();
  const owner = opts.owner === undefined ? (getSession()?.userName ?? undefined) : (opts.owner ?? undefined);
  const record: UploadRecord = {
    id,
    owner,
    dbId: opts.dbId,
    target: opts.target,
    file: opts.file,
    fileName,
    size: opts.file.size,
    type: opts.file.type ?? '',
    attempt: 1,
    nextIndex: 0,
    chunkSize: UPLOAD_CHUNK_SIZE,
    chunkCount: chunkCountOf(opts.file.size, UPLOAD_CHUNK_SIZE),
    highestSent: -1,
    resent: 0,
    state: 'queued',
    createdAt: now,
    updatedAt: now,
  };
  await database.uploads.add(record);
  wake();
  return id;
}

/**
 * Several files at once (a drop): the zero-byte ones are left out and named in `refused` (the
 * caller says ZERO_BYTE_FILE_REMOVED_MSG with each name), the others queued in order.
 */
export async function enqueueUploads(files: readonly (Blob & { name?: string })[], target: UploadTargetInput, extra: Omit<EnqueueOptions, 'file' | 'target' | 'fileName'> = {}): Promise<{ ids: string[]; refused: string[] }> {
  const ids: string[] = [];
  const refused: string[] = [];
  for (const file of files) {
    try {
      ids.push(await enqueueUpload({ ...extra, file, target }));
    } catch (e) {
      if (e instanceof UploadRefusedError) refused.push(e.fileName);
      else throw e;
    }
  }
  return { ids, refused };
}

export const isActiveUpload = (r: Pick<UploadRecord, 'state'>): boolean => r.state === 'queued' || r.state === 'hashing' || r.state === 'sending' || r.state === 'waiting';
export const isFinalUpload = (r: Pick<UploadRecord, 'state'>): boolean => r.state === 'done' || r.state === 'failed';

/** Per cent of the file the server has (hashing counts as 0). */
export function uploadPercent(r: Pick<UploadRecord, 'state' | 'nextIndex' | 'chunkSize' | 'size'>): number {
  if (r.state === 'done') return 100;
  return Math.min(100, Math.floor((Math.min(r.size, r.nextIndex * r.chunkSize) / Math.max(1, r.size)) * 100));
}

/** Stops after the chunk in flight; Resume goes on from where the server is. */
export async function pauseUpload(id: string, database: ArchiveDb = defaultDb): Promise<void> {
  await database.uploads.where('id').equals(id).filter(isActiveUpload).modify({ state: 'paused', reason: undefined, updatedAt: Date.now() });
}

export async function resumeUpload(id: string, database: ArchiveDb = defaultDb): Promise<void> {
  await database.uploads.where('id').equals(id).filter((r) => r.state === 'paused').modify({ state: 'queued', nextAttemptAt: 0, retries: 0, updatedAt: Date.now() });
  wake();
}

/**
 * A failed upload again. When the server itself gave the upload up (a checksum that did not match,
 * an upload it expired) a new upload job starts from the first chunk and the checksum is computed
 * again; otherwise it goes on where the server is.
 */
export async function retryUpload(id: string, database: ArchiveDb = defaultDb): Promise<void> {
  await database.uploads
    .where('id')
    .equals(id)
    .filter((r) => r.state === 'failed' && r.file !== undefined)
    .modify((r) => {
      const serverGaveUp = r.reason?.key === UPLOAD_KEYS.failed || r.reason?.key === UPLOAD_KEYS.expired || r.reason?.status === 404;
      if (serverGaveUp) {
        r.attempt += 1;
        delete r.jobId;
        delete r.sha256;
        r.nextIndex = 0;
        r.highestSent = -1;
      }
      r.state = 'queued';
      delete r.reason;
      r.retries = 0;
      r.nextAttemptAt = 0;
      r.updatedAt = Date.now();
    });
  wake();
}

/** Cancel (while it runs) or dismiss (once ended): the record and the stored file go. */
export async function removeUpload(id: string, database: ArchiveDb = defaultDb): Promise<void> {
  await database.uploads.delete(id);
}

/** The tray's "Clear finished": uploads that are done. */
export async function clearDoneUploads(owner: string | null, database: ArchiveDb = defaultDb): Promise<void> {
  await database.uploads
    .where('state')
    .equals('done')
    .filter((r) => r.owner === undefined || r.owner === owner)
    .delete();
}
