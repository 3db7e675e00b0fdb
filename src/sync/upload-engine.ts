/**
 * Sends one stored upload (src/sync/uploads.ts) to the server, chunk after chunk, and decides what
 * each answer or failure means; workers/upload.ts runs it under a Web Lock. All state is in the
 * Dexie record, written once per chunk (before the chunk goes: nextIndex and highestSent), so the
 * step can stop anywhere (a cut connection, a closed tab, a browser restart) and the next run asks
 * the server where it is (GET api/upload's NextIndex) and goes on: at most the chunk that was in
 * flight is sent again.
 * - The SHA-256 of the whole file is computed first (1 MiB slices, never the whole file in memory).
 * - A lost connection, a 5xx or a busy answer never fails an upload: it waits (backoff from 1 s to
 *   30 s, or at once when the connection is back).
 * - A session error (expired token ...) puts it back in the queue untouched: it waits for sign-in.
 * - Any other refusal (403, 404, 410, 422 ERROR_FILE_UPLOAD_FAILED, ...) ends it failed with the
 *   server's key and Message; the tray offers Retry.
 * Pause and Cancel are writes of the page to the record (paused, or deleted), seen before each chunk.
 */
import { isApiError } from '../api/api-error';
import { UPLOAD_KEYS, UploadOutOfOrder, type UploadStart, type UploadState } from '../api/upload';
import type { ArchiveDb, UploadRecord } from '../db/db';
import { isSessionError } from './jobs';
import { Sha256 } from './sha256';

export interface UploadApi {
  start(body: UploadStart, key: string): Promise<UploadState>;
  state(jobId: string): Promise<UploadState>;
  chunk(jobId: string, index: number, data: Blob): Promise<UploadState>;
}

export type UploadStepResult =
  | { outcome: 'done' | 'failed' | 'paused' | 'gone' }
  /** Try again at `at` (or when the connection is back). */
  | { outcome: 'wait'; at: number }
  /** The session ended: every upload waits for sign-in; the error goes to the page. */
  | { outcome: 'session'; error: unknown };

export const RETRY_MIN_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
export const retryDelayMs = (retries: number): number => Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, retries - 1));

/** Slices hashed between two looks at the record (pause, cancel). */
const HASH_CHECK_EVERY = 16;

function outOfOrderIndex(e: unknown): number | undefined {
  if (!isApiError(e) || e.kind !== 'http' || e.status !== 409) return undefined;
  const body = UploadOutOfOrder.safeParse(e.body);
  return body.success && body.data.Key === UPLOAD_KEYS.outOfOrder ? body.data.NextIndex : undefined;
}

/** A failure the upload waits out rather than fails on: no answer at all, a 5xx, a busy or throttled answer. */
function isTransient(e: unknown): boolean {
  if (!isApiError(e)) return true;
  if (e.kind === 'network' || e.kind === 'parse') return true;
  if (e.kind !== 'http') return false;
  const s = e.status ?? 0;
  return s >= 500 || s === 408 || s === 429 || (s === 409 && e.key === 'ERROR_IDEMPOTENCY_IN_PROGRESS');
}

async function hashFile(database: ArchiveDb, rec: UploadRecord): Promise<string | null> {
  const file = rec.file!;
  const h = new Sha256();
  for (let i = 0, n = 0; i < rec.size; i += rec.chunkSize, n++) {
    if (n > 0 && n % HASH_CHECK_EVERY === 0) {
      const cur = await database.uploads.get(rec.id);
      if (!cur || cur.state !== 'hashing') return null;
    }
    h.update(new Uint8Array(await file.slice(i, Math.min(rec.size, i + rec.chunkSize)).arrayBuffer()));
  }
  return h.hex();
}

/** Works one upload until it is done, fails, is paused or removed, or must wait. */
export async function workUpload(database: ArchiveDb, id: string, api: UploadApi, now: () => number = Date.now): Promise<UploadStepResult> {
  let rec = await database.uploads.get(id);
  if (!rec || !rec.file || !(rec.state === 'queued' || rec.state === 'sending' || rec.state === 'waiting' || rec.state === 'hashing')) return { outcome: 'gone' };
  /** Writes `patch` unless the user paused or removed the upload meanwhile; false then. */
  const save = async (patch: Partial<UploadRecord>): Promise<boolean> => {
    let ok = false;
    await database.transaction('rw', database.uploads, async () => {
      const cur = await database.uploads.get(id);
      if (!cur || cur.state === 'paused' || cur.state === 'failed' || cur.state === 'done') return;
      await database.uploads.update(id, { ...patch, updatedAt: now() });
      ok = true;
    });
    if (ok) rec = { ...rec!, ...patch };
    return ok;
  };
  const stoppedBy = async (): Promise<UploadStepResult> => {
    const cur = await database.uploads.get(id);
    return { outcome: !cur ? 'gone' : cur.state === 'paused' ? 'paused' : cur.state === 'done' ? 'done' : 'failed' };
  };

  try {
    if (!rec.sha256) {
      if (!(await save({ state: 'hashing' }))) return stoppedBy();
      const sha256 = await hashFile(database, rec);
      if (sha256 === null || !(await save({ sha256 }))) return stoppedBy();
    }
    if (!(await save({ state: 'sending' }))) return stoppedBy();
    let st: UploadState;
    if (!rec.jobId) {
      st = await api.start({ FileName: rec.fileName, Size: rec.size, Type: rec.type, Sha256: rec.sha256!, Target: rec.target }, `${rec.id}:${rec.attempt}`);
      if (!(await save({ jobId: st.JobID, chunkSize: st.ChunkSize, chunkCount: st.ChunkCount, nextIndex: st.NextIndex }))) return stoppedBy();
    } else {
      // The resume point is the server's: it may have more than this device knows (an answer lost).
      st = await api.state(rec.jobId);
    }
    // Retries in a row are forgotten only once a chunk got through, so a link that answers GET but
    // drops every chunk still backs off.
    let progressed = false;
    for (;;) {
      if (st.State === 'done') {
        await database.uploads.update(id, { state: 'done', nextIndex: st.ChunkCount, serverRepeated: st.Repeated, result: st.Result, file: undefined, reason: undefined, updatedAt: now() });
        return { outcome: 'done' };
      }
      if (st.State === 'failed' || st.State === 'expired') {
        await database.uploads.update(id, { state: 'failed', reason: { key: st.Key ?? UPLOAD_KEYS.failed, message: st.Message }, serverRepeated: st.Repeated, updatedAt: now() });
        return { outcome: 'failed' };
      }
      const i = st.NextIndex;
      const resent = i <= rec.highestSent ? rec.resent + 1 : rec.resent;
      // One write a chunk, before it goes: progress for the tray, and the mark that it was sent.
      if (!(await save({ state: 'sending', nextIndex: i, highestSent: Math.max(rec.highestSent, i), resent, serverRepeated: st.Repeated, reason: undefined, ...(progressed ? { retries: 0 } : {}) }))) return stoppedBy();
      const slice = rec.file!.slice(i * rec.chunkSize, Math.min(rec.size, (i + 1) * rec.chunkSize));
      try {
        st = await api.chunk(rec.jobId!, i, slice);
        progressed = true;
      } catch (e) {
        const needed = outOfOrderIndex(e);
        if (needed === undefined) throw e;
        st = { ...st, NextIndex: needed };
      }
    }
  } catch (e) {
    if (isSessionError(e)) {
      // Waits for sign-in, untouched: nothing is dropped.
      await database.uploads.where('id').equals(id).filter((r) => r.state !== 'paused').modify({ state: 'queued', reason: { key: 'UPLOAD_WAITING_SIGN_IN' }, updatedAt: now() });
      return { outcome: 'session', error: e };
    }
    const cur = await database.uploads.get(id);
    if (!cur) return { outcome: 'gone' };
    if (cur.state === 'paused') return { outcome: 'paused' };
    if (isTransient(e)) {
      const retries = (cur.retries ?? 0) + 1;
      const at = now() + retryDelayMs(retries);
      await database.uploads.update(id, { state: 'waiting', retries, nextAttemptAt: at, reason: { key: 'UPLOAD_WAITING_CONNECTION', message: e instanceof Error ? e.message : undefined }, updatedAt: now() });
      return { outcome: 'wait', at };
    }
    const reason = isApiError(e) ? { key: e.key ?? (e.status === 403 ? 'ERROR_FAILED_DUE_TO_PERMISSIONS' : UPLOAD_KEYS.failed), message: e.serverMessage, status: e.status } : { key: UPLOAD_KEYS.failed, message: String(e) };
    await database.uploads.update(id, { state: 'failed', reason, updatedAt: now() });
    return { outcome: 'failed' };
  }
}
