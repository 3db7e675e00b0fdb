/**
 * Chunked, resumable uploads (the contract and its rules: src/api/upload.ts; issue 11 item 1).
 *
 * What is kept where:
 * - the `uploads` row (001 + 012): owner, file name, size, chunk size, declared SHA-256, target,
 *   next_index (the resume point), the count of repeated chunks, and at the end the result or why it
 *   failed;
 * - the part file `${files.root}/uploads/<id>.part`: the bytes, each chunk written at
 *   Index * chunk_size as it comes (never the whole file in memory). Chunks only ever extend it in
 *   order, so its length IS the resume point: NextIndex = floor(length / chunk_size). A chunk costs
 *   no database statement (a MiB a statement would cost more than the bytes do); a crash in the
 *   middle of a write leaves a short tail that floor() ignores and the re-sent chunk overwrites. Its
 *   modification time is the upload's last activity, for the purge. next_index in the row is only
 *   set when the upload ends;
 * - in this process's memory only: the rows of uploads still receiving (what a chunk checks never
 *   changes while it receives), a running SHA-256 of the chunks written in order (so the last
 *   chunk does not re-read 200 MiB; after a restart or a chunk taken by another process the part file
 *   is hashed once at the end instead) and a per-upload queue, so a chunk re-sent while its first copy
 *   is still being written (Chromium re-sends a POST on a dropped kept-alive connection) waits and
 *   is then counted as repeated.
 * When the last chunk is in, the part file is checked against the declared SHA-256 and for what it
 * holds (services/file-check.ts: a file named .pdf must be a readable PDF, a TIFF's pages must fit
 * the page budget, ...; a refusal ends the upload failed with ERROR_FILE_UNREADABLE or
 * ERROR_PAGE_TOO_LARGE, 422) and renamed into the content-addressed file store; for an inbox target
 * an inbox file, with its page count, is created in the same transaction that marks the upload done.
 */
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { INBOX_RIGHTS } from '../../src/api/inboxes.js';
import { UPLOAD_CHUNK_SIZE, UPLOAD_KEEP_MS, UPLOAD_KEYS, chunkCountOf, type UploadResult, type UploadServerState, type UploadStart, type UploadState } from '../../src/api/upload.js';
import { archivesWithRights } from '../auth/permissions.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError, Errors } from '../http/errors.js';
import { safeBaseName } from './document-file.js';
import type { Actor } from './documents.js';
import { checkUploadedFile, type CheckedFile } from './file-check.js';
import { inboxWithRights } from './inboxes.js';

export interface UploadDeps {
  store: Store;
  files: FileStore;
  now: () => number;
  limits?: UploadLimits;
}

/**
 * How much one user may have the server hold for them: the size of one file, and the declared sizes
 * of their uploads still receiving added up (the part files on disk). Environment UPLOAD_MAX_BYTES
 * and UPLOAD_USER_STAGED_BYTES; the defaults take a large scanned batch or a long video (2 GiB) and
 * two of them at once (4 GiB), and keep one user from filling the disk with uploads that never end.
 */
export interface UploadLimits {
  maxBytes: number;
  stagedBytesPerUser: number;
}
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxBytes: 2 * 1024 ** 3, stagedBytesPerUser: 4 * 1024 ** 3 };
/** The largest file whose chunks can be counted (total_chunks is an integer column). */
const COUNTABLE_BYTES = 2_147_483_647 * UPLOAD_CHUNK_SIZE;

/** The limits from the environment (a positive whole number of bytes each), else the defaults. */
export function uploadLimitsFrom(env: Record<string, string | undefined>, over: Partial<UploadLimits> = {}): UploadLimits {
  const read = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return Number.isSafeInteger(v) && v > 0 ? v : fallback;
  };
  return {
    maxBytes: Math.min(over.maxBytes ?? read('UPLOAD_MAX_BYTES', DEFAULT_UPLOAD_LIMITS.maxBytes), COUNTABLE_BYTES),
    stagedBytesPerUser: over.stagedBytesPerUser ?? read('UPLOAD_USER_STAGED_BYTES', DEFAULT_UPLOAD_LIMITS.stagedBytesPerUser),
  };
}

/** Bytes in the words of the refusals: 2 GiB, 1.5 MiB, 1,000 bytes. */
export function bytesWords(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  if (n < 1024) return `${n} bytes`;
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

interface UploadRow {
  id: string;
  owner_id: number;
  file_name: string;
  file_type: string | null;
  size: number;
  chunk_size: number;
  total_chunks: number;
  next_index: number;
  state: UploadServerState;
  sha256: string;
  target: { InboxID?: number; DatabaseID?: number; ArchiveID?: number };
  repeated_chunks: number;
  result: UploadResult | null;
  error_key: string | null;
  error_message: string | null;
}

const COLUMNS = 'id, owner_id, file_name, file_type, size, chunk_size, total_chunks, next_index, state, sha256, target, repeated_chunks, result, error_key, error_message';

const rowOf = (r: UploadRow): UploadRow => ({
  ...r,
  owner_id: Number(r.owner_id),
  size: Number(r.size),
  chunk_size: Number(r.chunk_size),
  total_chunks: Number(r.total_chunks),
  next_index: Number(r.next_index),
  repeated_chunks: Number(r.repeated_chunks),
});

export function stateOf(r: UploadRow, nextIndex = r.next_index): UploadState {
  return {
    JobID: r.id,
    State: r.state,
    NextIndex: nextIndex,
    ChunkSize: r.chunk_size,
    ChunkCount: r.total_chunks,
    Size: r.size,
    Repeated: r.repeated_chunks,
    ...(r.result ? { Result: r.result } : {}),
    ...(r.error_key ? { Key: r.error_key } : {}),
    ...(r.error_message ? { Message: r.error_message } : {}),
  };
}

/** The folder of the part files, beside the store's own files (same file system: the rename is free). */
export function uploadsDir(files: FileStore): string {
  const dir = join(files.root, 'uploads');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const partPath = (files: FileStore, id: string) => join(uploadsDir(files), `${id}.part`);

/** A file name from the browser made safe to keep: no folders, no forbidden or control characters. */
export function uploadFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const m = /^(.*?)(\.[A-Za-z0-9]{1,8})?$/.exec(base);
  const stem = safeBaseName(m?.[1] ?? base) || 'upload';
  return `${stem}${(m?.[2] ?? '').toLowerCase()}`;
}

/** The inbox's File Format column: the extension in capitals (TIFF as TIF, JPEG as JPG, as the seed has them). */
export function fileTypeOf(name: string): string {
  const ext = (/\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1] ?? '').toUpperCase();
  if (ext === 'TIFF') return 'TIF';
  if (ext === 'JPEG') return 'JPG';
  return ext || 'BIN';
}

/** This process's upload machinery (normally one; tests make more), for the purge to reach. */
const live = new Set<Uploads>();

/** A part file with no chunk for this long is closed (opened again by the next chunk). */
const PART_IDLE_MS = 60_000;

const failedError = (message: string, key: string = UPLOAD_KEYS.failed) => new ApiError(422, message, key);

/** POST api/upload: checks the target and the rights, records the upload and makes its empty part file. */
export async function startUpload(deps: UploadDeps, actor: Actor, req: UploadStart): Promise<UploadState> {
  const { store, files, now } = deps;
  const name = uploadFileName(req.FileName);
  if (req.Size === 0) throw new ApiError(400, `${req.FileName} is empty (0 bytes) and was not uploaded`, UPLOAD_KEYS.zeroByte);
  const limits = deps.limits ?? DEFAULT_UPLOAD_LIMITS;
  if (req.Size > limits.maxBytes) {
    throw new ApiError(413, `${req.FileName} is ${bytesWords(req.Size)}; this server takes files of at most ${bytesWords(limits.maxBytes)}`, UPLOAD_KEYS.tooLarge);
  }
  let dbId: number | null = null;
  if ('InboxID' in req.Target) {
    const inbox = await inboxWithRights(store, actor.userId, req.Target.InboxID, INBOX_RIGHTS.edit);
    dbId = inbox.database_id;
  } else {
    const { DatabaseID, ArchiveID } = req.Target;
    const archive = (await archivesWithRights(store, DatabaseID, actor.userId)).find((a) => a.id === ArchiveID);
    if (!archive) throw Errors.notFound(`Archive ${ArchiveID} does not exist in database ${DatabaseID}`);
    if ((archive.rights & ARCHIVE_PERMISSIONS.view) === 0 || (archive.rights & ARCHIVE_PERMISSIONS.add) === 0) {
      throw Errors.forbidden(`You do not have permission to add documents to ${archive.name}`);
    }
    dbId = DatabaseID;
  }
  const id = randomUUID();
  const t = new Date(now());
  const chunkCount = chunkCountOf(req.Size, UPLOAD_CHUNK_SIZE);
  // The part file first: a row without its file would be a resume point pointing at nothing.
  const fh = await open(partPath(files, id), 'w');
  await fh.close();
  try {
    const row = await store.transaction(async (tx) => {
      // The user's row locked: two uploads started at once are counted one after the other.
      await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [actor.userId]);
      const staged = await tx.query<{ bytes: string | number | null }>("SELECT sum(size) AS bytes FROM uploads WHERE owner_id = $1 AND state = 'receiving'", [actor.userId]);
      const bytes = Number(staged.rows[0]?.bytes ?? 0);
      if (bytes + req.Size > limits.stagedBytesPerUser) {
        throw new ApiError(
          413,
          `Your unfinished uploads hold ${bytesWords(bytes)} and ${req.FileName} is ${bytesWords(req.Size)}; the server holds at most ${bytesWords(limits.stagedBytesPerUser)} for one user until their uploads finish`,
          UPLOAD_KEYS.stagedLimit,
        );
      }
      const r = await tx.query<UploadRow>(
        `INSERT INTO uploads (id, owner_id, purpose, file_name, file_type, size, chunk_size, total_chunks, next_index, state, sha256, target, database_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 'receiving', $9, $10, $11, $12, $12) RETURNING ${COLUMNS}`,
        [id, actor.userId, 'InboxID' in req.Target ? 'inbox' : 'import', name, req.Type ?? null, req.Size, UPLOAD_CHUNK_SIZE, chunkCount, req.Sha256, JSON.stringify(req.Target), dbId, t],
      );
      return r.rows[0]!;
    });
    return stateOf(rowOf(row));
  } catch (e) {
    await rm(partPath(files, id), { force: true });
    throw e;
  }
}

async function loadUpload(db: Queryable, actor: Actor, id: string): Promise<UploadRow> {
  const r = await db.query<UploadRow>(`SELECT ${COLUMNS} FROM uploads WHERE id = $1 AND owner_id = $2`, [id, actor.userId]);
  const row = r.rows[0];
  // Another user's upload is as unknown as one that never was.
  if (!row) throw Errors.notFound(`Upload ${id} does not exist`);
  return rowOf(row);
}

/** Bytes in the part file (null when it is gone). */
async function partLength(files: FileStore, id: string): Promise<number | null> {
  return stat(partPath(files, id)).then(
    (st) => st.size,
    () => null,
  );
}

/** The resume point of a receiving upload: whole chunks in its part file (see the file comment). */
const nextOf = (row: UploadRow, length: number) => (length >= row.size ? row.total_chunks : Math.floor(length / row.chunk_size));

/** GET api/upload?JobID=: the upload's state (the resume point is NextIndex). */
export async function getUpload(deps: UploadDeps, actor: Actor, id: string): Promise<UploadState> {
  const row = await loadUpload(deps.store, actor, id);
  if (row.state !== 'receiving') return stateOf(row);
  return stateOf(row, nextOf(row, (await partLength(deps.files, id)) ?? 0));
}

/** The part of the whole upload machinery that lives in this process (see the file comment). */
export class Uploads {
  private readonly rows = new Map<string, UploadRow>();
  /**
   * Part files this process is writing, kept open with their length between chunks (an open, a
   * stat and a close a chunk were three trips to the file system's thread pool); closed when the
   * upload ends or after PART_IDLE_MS without a chunk.
   */
  private readonly parts = new Map<string, { fh: FileHandle; length: number; timer: NodeJS.Timeout }>();
  private readonly hashes = new Map<string, { hash: Hash; upTo: number }>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /**
   * The chunk write still going for each upload: a chunk is answered once it is checked, hashed and
   * handed to the file system, and its write finishes while the next chunk travels (the client sends
   * one chunk at a time, so receiving, hashing and writing overlap as in a plain streamed POST). The
   * next chunk, GET api/upload, the end of the upload and closing the part file wait for it first; a
   * write that failed fails the upload there.
   */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly deps: UploadDeps) {
    live.add(this);
  }

  /** Drops what this process keeps of an upload the purge ended (its row and open part file). */
  async forget(id: string): Promise<void> {
    this.rows.delete(id);
    this.hashes.delete(id);
    await this.closePart(id);
  }

  /**
   * GET api/upload: after the chunks this process is still writing for the upload, so a client
   * whose connection dropped while its chunk was being written hears that the server has it and
   * does not send it again.
   */
  async state(actor: Actor, id: string): Promise<UploadState> {
    await this.queues.get(id);
    await this.writes.get(id)?.catch(() => undefined);
    return getUpload(this.deps, actor, id);
  }

  private async part(id: string): Promise<{ fh: FileHandle; length: number; timer: NodeJS.Timeout } | null> {
    const known = this.parts.get(id);
    if (known) {
      known.timer.refresh();
      return known;
    }
    let fh: FileHandle;
    try {
      fh = await open(partPath(this.deps.files, id), 'r+');
    } catch {
      return null;
    }
    const raced = this.parts.get(id);
    if (raced) {
      await fh.close();
      return raced;
    }
    const timer = setTimeout(() => void this.closePart(id), PART_IDLE_MS);
    timer.unref();
    const part = { fh, length: (await fh.stat()).size, timer };
    this.parts.set(id, part);
    return part;
  }

  private async closePart(id: string): Promise<void> {
    await this.writes.get(id)?.catch(() => undefined);
    const part = this.parts.get(id);
    if (!part) return;
    this.parts.delete(id);
    clearTimeout(part.timer);
    await part.fh.close().catch(() => undefined);
  }

  /** Closes every part file this process holds (the server is closing). */
  async close(): Promise<void> {
    live.delete(this);
    await Promise.all([...this.parts.keys()].map((id) => this.closePart(id)));
  }

  /** POST api/upload/chunk: one chunk, in order; see the contract. */
  chunk(actor: Actor, id: string, index: number, bytes: Buffer): Promise<UploadState> {
    const before = this.queues.get(id) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.chunkNow(actor, id, index, bytes));
    const tail = run.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }

  private async chunkNow(actor: Actor, id: string, index: number, bytes: Buffer): Promise<UploadState> {
    const { store } = this.deps;
    const cached = this.rows.get(id);
    const row = cached && cached.owner_id === actor.userId ? cached : await loadUpload(store, actor, id);
    if (row.state === 'expired') throw new ApiError(410, `Upload ${id} was not finished in time and was removed`, UPLOAD_KEYS.expired);
    if (row.state === 'failed') throw failedError(row.error_message ?? 'The upload failed', row.error_key ?? undefined);
    if (index >= row.total_chunks) throw Errors.badRequest(`Incorrect parameters: Index ${index} (the file has ${row.total_chunks} chunks)`);
    if (row.state === 'done') return this.repeated(row, row.total_chunks);
    const part = await this.part(id);
    if (part === null) {
      // Finished or given up by another process since this one read the row?
      const fresh = await loadUpload(store, actor, id);
      this.rows.delete(id);
      if (fresh.state !== 'receiving') return this.chunkNow(actor, id, index, bytes);
      return this.fail(row, "The upload's received data was lost on the server; upload the file again");
    }
    this.rows.set(id, row);
    // The previous chunk's write first (see `writes`).
    const failed = await this.writeFailure(id);
    if (failed) return this.fail(row, failed);
    // The length this process wrote is the file's unless another process wrote to it too: asked
    // again before anything but the expected next chunk is decided.
    if (index !== nextOf(row, part.length)) part.length = (await part.fh.stat()).size;
    const next = nextOf(row, part.length);
    // Every byte is in but the upload is not done: the process stopped between the last write and
    // the end. The chunk, whichever it is, was received: finish now.
    if (next === row.total_chunks) return this.finish(row);
    if (index < next) return this.repeated(row, next);
    if (index > next) throw new ApiError(409, `Chunk ${index} came before chunk ${next}`, UPLOAD_KEYS.outOfOrder);
    const offset = index * row.chunk_size;
    const expected = Math.min(row.chunk_size, row.size - offset);
    if (bytes.byteLength !== expected) throw Errors.badRequest(`Incorrect parameters: chunk ${index} has ${bytes.byteLength} bytes, not ${expected}`);

    const write = part.fh.write(bytes, 0, bytes.byteLength, offset).then(() => undefined);
    this.writes.set(id, write);
    write.catch(() => undefined);
    part.length = Math.max(part.length, offset + bytes.byteLength);
    let h = this.hashes.get(id);
    if (index === 0) h = { hash: createHash('sha256'), upTo: 0 };
    if (h && h.upTo === offset) {
      h.hash.update(bytes);
      h.upTo += bytes.byteLength;
      this.hashes.set(id, h);
    } else this.hashes.delete(id);
    if (index === row.total_chunks - 1) {
      const lost = await this.writeFailure(id);
      return lost ? this.fail(row, lost) : this.finish(row);
    }
    return stateOf(row, index + 1);
  }

  /** Waits for the upload's write still going (see `writes`): why it failed, or null. */
  private async writeFailure(id: string): Promise<string | null> {
    const writing = this.writes.get(id);
    if (!writing) return null;
    try {
      await writing;
      return null;
    } catch (e) {
      return `The upload could not be written on the server: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (this.writes.get(id) === writing) this.writes.delete(id);
    }
  }

  private async repeated(row: UploadRow, next: number): Promise<UploadState> {
    const r = await this.deps.store.query<UploadRow>(`UPDATE uploads SET repeated_chunks = repeated_chunks + 1 WHERE id = $1 RETURNING ${COLUMNS}`, [row.id]);
    const fresh = rowOf(r.rows[0] ?? row);
    if (fresh.state === 'receiving') this.rows.set(row.id, fresh);
    const state = stateOf(fresh, fresh.state === 'receiving' ? next : fresh.next_index);
    if (state.State === 'failed') throw failedError(state.Message ?? 'The upload failed', state.Key);
    return state;
  }

  private async fail(row: UploadRow, message: string, key: string = UPLOAD_KEYS.failed): Promise<never> {
    const { store, files, now } = this.deps;
    this.hashes.delete(row.id);
    this.rows.delete(row.id);
    await this.closePart(row.id);
    await rm(partPath(files, row.id), { force: true });
    await store.query(`UPDATE uploads SET state = 'failed', error_key = $2, error_message = $3, updated_at = $4, finished_at = $4 WHERE id = $1 AND state = 'receiving'`, [
      row.id,
      key,
      message,
      new Date(now()),
    ]);
    throw failedError(message, key);
  }

  /** The last chunk is written: check the whole file, store it, and put it where it goes. */
  private async finish(row: UploadRow): Promise<UploadState> {
    const { store, files, now } = this.deps;
    const path = partPath(files, row.id);
    const h = this.hashes.get(row.id);
    this.hashes.delete(row.id);
    this.rows.delete(row.id);
    await this.closePart(row.id);
    const size = (await stat(path)).size;
    if (size !== row.size) return this.fail(row, `The uploaded file has ${size} bytes, not ${row.size}`);
    const digest = h && h.upTo === row.size ? h.hash.digest('hex') : await hashFile(path);
    if (digest !== row.sha256) return this.fail(row, `${row.file_name}: the uploaded file does not match its checksum`);
    let checked: CheckedFile;
    try {
      checked = await checkUploadedFile(path, row.file_name, fileTypeOf(row.file_name));
    } catch (e) {
      if (e instanceof ApiError && e.key) return this.fail(row, e.message, e.key);
      throw e;
    }
    await files.adopt(path, digest);
    const t = new Date(now());
    const done = await store.transaction(async (tx) => {
      await tx.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [digest, row.size, row.file_type || null]);
      let result: UploadResult;
      if (row.target.InboxID !== undefined) {
        const inboxId = row.target.InboxID;
        // One upload at a time names files in this inbox, so two uploads of one name get two names.
        await tx.query('SELECT id FROM inboxes WHERE id = $1 FOR UPDATE', [inboxId]);
        const name = await freeInboxName(tx, inboxId, row.file_name);
        await tx.query(
          `INSERT INTO inbox_files (inbox_id, file_name, file_type, sha256, size, page_count, date_created, date_modified) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [inboxId, name, checked.type, digest, row.size, checked.pages, t],
        );
        result = { InboxID: inboxId, Path: name, Sha256: digest };
      } else {
        result = { ArchiveID: row.target.ArchiveID!, Sha256: digest };
      }
      const r = await tx.query<UploadRow>(
        `UPDATE uploads SET state = 'done', next_index = total_chunks, result = $2, updated_at = $3, finished_at = $3 WHERE id = $1 AND state = 'receiving' RETURNING ${COLUMNS}`,
        [row.id, JSON.stringify(result), t],
      );
      return r.rows[0];
    });
    return done ? stateOf(rowOf(done)) : this.repeated(row, row.total_chunks);
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: UPLOAD_CHUNK_SIZE })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** 'a.pdf', else 'a (2).pdf', 'a (3).pdf' ...: free in the inbox, compared as Windows and macOS compare names. */
export async function freeInboxName(tx: Queryable, inboxId: number, name: string): Promise<string> {
  const m = /^(.*?)(\.[^.]*)?$/.exec(name);
  const stem = m?.[1] ?? name;
  const ext = m?.[2] ?? '';
  const taken = await tx.query<{ file_name: string }>(
    'SELECT file_name FROM inbox_files WHERE inbox_id = $1 AND (lower(file_name) = lower($2) OR lower(file_name) LIKE lower($3) ESCAPE \'\\\')',
    [inboxId, name, `${stem.replace(/[\\%_]/g, (c) => `\\${c}`)} (%)${ext.replace(/[\\%_]/g, (c) => `\\${c}`)}`],
  );
  const names = new Set(taken.rows.map((r) => r.file_name.toLowerCase()));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    if (!names.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * The hourly purge: uploads still receiving whose part file has not grown for UPLOAD_KEEP_MS end as
 * expired and lose their part file; part files no receiving upload owns (a crash between the two) go
 * too once they are that old, and so do bursts' import documents left unindexed.
 */
export async function purgeUploads(store: Store, files: FileStore, now: number): Promise<number> {
  const cutoff = now - UPLOAD_KEEP_MS;
  const open_ = await store.query<{ id: string; created_at: Date }>("SELECT id, created_at FROM uploads WHERE state = 'receiving' AND created_at < $1", [new Date(cutoff)]);
  let expired = 0;
  for (const { id } of open_.rows) {
    const s = await stat(partPath(files, id)).catch(() => null);
    if (s && s.mtimeMs >= cutoff) continue;
    const r = await store.query(
      `UPDATE uploads SET state = 'expired', error_key = $2, error_message = 'Not finished in time', updated_at = $3, finished_at = $3 WHERE id = $1 AND state = 'receiving'`,
      [id, UPLOAD_KEYS.expired, new Date(now)],
    );
    for (const u of live) await u.forget(id);
    await rm(partPath(files, id), { force: true });
    expired += r.rowCount;
  }
  // A burst's import document never indexed nor dropped (services/burst.ts): gone after as long.
  await store.query("DELETE FROM uploads WHERE purpose = 'burst' AND state = 'done' AND created_at < $1", [new Date(cutoff)]);
  const dir = uploadsDir(files);
  const receiving = new Set((await store.query<{ id: string }>("SELECT id FROM uploads WHERE state = 'receiving'")).rows.map((x) => x.id));
  for (const f of await readdir(dir)) {
    if (receiving.has(f.replace(/\.part$/, ''))) continue;
    const s = await stat(join(dir, f)).catch(() => null);
    if (s && s.mtimeMs < cutoff) await rm(join(dir, f), { force: true });
  }
  return expired;
}
