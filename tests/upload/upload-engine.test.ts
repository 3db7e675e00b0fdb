/**
 * The upload's resume logic (src/sync/upload-engine.ts, src/sync/uploads.ts, workers/upload.ts) on
 * fake-indexeddb against an in-memory server that behaves as server/services/upload.ts does (next
 * index, repeated chunks, 409 out of order, checksum at the end), with connections cut before the
 * server has a chunk or after (the answer lost), "reloads" (a new run over the stored record), an
 * expired session, pause and cancel.
 */
import 'fake-indexeddb/auto';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { UPLOAD_CHUNK_SIZE, type UploadStart, type UploadState } from '../../src/api/upload';
import { ArchiveDb } from '../../src/db/db';
import { workUpload, type UploadApi } from '../../src/sync/upload-engine';
import { UploadRefusedError, enqueueUpload, enqueueUploads, pauseUpload, removeUpload, resumeUpload, retryUpload, uploadPercent } from '../../src/sync/uploads';
import { nextUpload, startUploadLoop } from '../../workers/upload';

const CS = UPLOAD_CHUNK_SIZE;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const network = () => new ApiError({ kind: 'network', method: 'POST', url: '/api/upload/chunk' });
const http = (status: number, key?: string, body?: unknown) => new ApiError({ kind: 'http', method: 'POST', url: '/api/upload/chunk', status, key, serverMessage: key, body });

/** The server's rules in memory; `cut` decides per chunk request whether the connection drops before or after the server took it. */
class FakeServer implements UploadApi {
  jobs = new Map<string, { body: UploadStart; bytes: Uint8Array; next: number; repeated: number; state: UploadState['State']; key?: string }>();
  starts = new Map<string, string>();
  chunkCalls: number[] = [];
  cut: (index: number, call: number) => 'before' | 'after' | null = () => null;
  session = true;

  private stateOf(id: string): UploadState {
    const j = this.jobs.get(id)!;
    const count = Math.ceil(j.body.Size / CS);
    return { JobID: id, State: j.state, NextIndex: j.state === 'done' ? count : j.next, ChunkSize: CS, ChunkCount: count, Size: j.body.Size, Repeated: j.repeated, ...(j.state === 'done' ? { Result: { InboxID: 1, Path: j.body.FileName, Sha256: sha(j.bytes) } } : {}), ...(j.key ? { Key: j.key } : {}) };
  }
  async start(body: UploadStart, key: string) {
    if (!this.session) throw http(401, 'LicenseExpired');
    let id = this.starts.get(key);
    if (!id) {
      id = `job-${this.starts.size + 1}`;
      this.starts.set(key, id);
      this.jobs.set(id, { body, bytes: new Uint8Array(body.Size), next: 0, repeated: 0, state: 'receiving' });
    }
    return this.stateOf(id);
  }
  async state(id: string) {
    if (!this.session) throw http(401, 'LicenseExpired');
    return this.stateOf(id);
  }
  async chunk(id: string, index: number, data: Blob) {
    if (!this.session) throw http(401, 'LicenseExpired');
    const call = this.chunkCalls.push(index);
    const cut = this.cut(index, call);
    if (cut === 'before') throw network();
    const j = this.jobs.get(id)!;
    const bytes = new Uint8Array(await data.arrayBuffer());
    const count = Math.ceil(j.body.Size / CS);
    if (j.state === 'failed') throw http(422, 'ERROR_FILE_UPLOAD_FAILED');
    if (j.state === 'done' || index < j.next) j.repeated++;
    else if (index > j.next) throw http(409, 'UPLOAD_CHUNK_OUT_OF_ORDER', { Message: 'order', Key: 'UPLOAD_CHUNK_OUT_OF_ORDER', NextIndex: j.next });
    else {
      j.bytes.set(bytes, index * CS);
      j.next++;
      if (j.next === count) {
        if (sha(j.bytes) !== j.body.Sha256) {
          j.state = 'failed';
          j.key = 'ERROR_FILE_UPLOAD_FAILED';
          throw http(422, 'ERROR_FILE_UPLOAD_FAILED');
        }
        j.state = 'done';
      }
    }
    if (cut === 'after') throw network();
    return this.stateOf(id);
  }
}

let database: ArchiveDb;
let server: FakeServer;
let n = 0;
beforeEach(async () => {
  database = new ArchiveDb(`upload-engine-${++n}`);
  await database.open();
  server = new FakeServer();
});
afterEach(async () => {
  database.close();
  await database.delete();
});

const file = (bytes: Uint8Array, name = 'scan.pdf') => Object.assign(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), { name });
const enqueue = (bytes: Uint8Array, name?: string) => enqueueUpload({ file: file(bytes, name), target: { InboxID: 1 }, owner: 'user', database });

/** Runs the engine as the worker does until the upload ends (each 'wait' is a new run: a retry or a reload). */
async function runToEnd(id: string, maxRuns = 1000) {
  for (let run = 0; run < maxRuns; run++) {
    const r = await workUpload(database, id, server);
    if (r.outcome !== 'wait') return r;
  }
  throw new Error('did not end');
}

describe('enqueueUpload', () => {
  it('stores the File itself and queues it; a zero-byte file is refused at once, naming it', async () => {
    const id = await enqueue(randomBytes(10), 'a.pdf');
    const rec = await database.uploads.get(id);
    expect(rec).toMatchObject({ state: 'queued', fileName: 'a.pdf', size: 10, nextIndex: 0, chunkCount: 1, owner: 'user', target: { InboxID: 1 } });
    expect(rec!.file).toBeInstanceOf(Blob);
    await expect(enqueue(new Uint8Array(0), 'empty.pdf')).rejects.toMatchObject({ key: 'ZERO_BYTE_FILE_REMOVED_MSG', fileName: 'empty.pdf' });
    await expect(enqueue(new Uint8Array(0), 'empty.pdf')).rejects.toBeInstanceOf(UploadRefusedError);
    const many = await enqueueUploads([file(randomBytes(5), 'b.pdf'), file(new Uint8Array(0), 'zero.tif'), file(randomBytes(5), 'c.pdf')], { InboxID: 1 }, { owner: 'user', database });
    expect(many.refused).toEqual(['zero.tif']);
    expect(many.ids).toHaveLength(2);
    expect(await database.uploads.count()).toBe(3);
  });
});

describe('workUpload', () => {
  it('sends a file of 3.5 MiB in 4 chunks, once each, and ends with the file equal and the Blob dropped', async () => {
    const bytes = randomBytes(CS * 3 + CS / 2);
    const id = await enqueue(bytes);
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'done' });
    expect(server.chunkCalls).toEqual([0, 1, 2, 3]);
    const job = server.jobs.get('job-1')!;
    expect(sha(job.bytes)).toBe(sha(bytes));
    expect(job.body).toMatchObject({ Size: bytes.byteLength, Sha256: sha(bytes), Target: { InboxID: 1 } });
    const rec = (await database.uploads.get(id))!;
    expect(rec).toMatchObject({ state: 'done', nextIndex: 4, resent: 0, result: { Sha256: sha(bytes) } });
    expect(rec.file).toBeUndefined();
    expect(uploadPercent(rec)).toBe(100);
  });

  it('a cut connection costs at most one chunk: before the server has it, it is sent again; after (answer lost), GET says to go on', async () => {
    const bytes = randomBytes(CS * 6 + 1);
    const id = await enqueue(bytes);
    const cuts = new Map<number, 'before' | 'after'>([[2, 'before'], [4, 'before'], [9, 'after'], [5, 'after']]);
    server.cut = (_i, call) => cuts.get(call) ?? null;
    expect(await runToEnd(id)).toEqual({ outcome: 'done' });
    expect(sha(server.jobs.get('job-1')!.bytes)).toBe(sha(bytes));
    const rec = (await database.uploads.get(id))!;
    // Two cuts before the server had the chunk: those two chunks went twice; the two lost answers cost nothing.
    expect(rec.resent).toBe(2);
    expect(server.chunkCalls.length).toBe(7 + 2);
    expect(server.jobs.get('job-1')!.repeated).toBe(0);
    expect(rec.resent).toBeLessThanOrEqual(cuts.size);
  });

  it('a network failure waits with a growing delay and never fails the upload', async () => {
    const id = await enqueue(randomBytes(CS + 5));
    server.cut = () => 'before';
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await workUpload(database, id, server, () => 1_000_000);
      expect(r.outcome).toBe('wait');
      if (r.outcome === 'wait') waits.push(r.at - 1_000_000);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect((await database.uploads.get(id))!).toMatchObject({ state: 'waiting', reason: { key: 'UPLOAD_WAITING_CONNECTION' } });
    server.cut = () => null;
    expect(await runToEnd(id)).toEqual({ outcome: 'done' });
  });

  it('a reload mid-way (a new run over the stored record) asks the server where it is and goes on', async () => {
    const bytes = randomBytes(CS * 5);
    const id = await enqueue(bytes);
    // The tab "closes" while chunk 2 is on its way and after the server took it: the record still says 2.
    server.cut = (i) => (i === 2 ? 'after' : null);
    expect((await workUpload(database, id, server)).outcome).toBe('wait');
    expect((await database.uploads.get(id))!.nextIndex).toBe(2);
    server.cut = () => null;
    // A fresh database handle, as after a browser restart.
    const reopened = new ArchiveDb(database.name);
    await reopened.open();
    expect(await workUpload(reopened, id, server)).toEqual({ outcome: 'done' });
    reopened.close();
    expect(server.chunkCalls).toEqual([0, 1, 2, 3, 4]);
    expect(sha(server.jobs.get('job-1')!.bytes)).toBe(sha(bytes));
    expect(server.starts.size).toBe(1);
  });

  it('out of order (409): goes on from the index the server names', async () => {
    const bytes = randomBytes(CS * 3);
    const id = await enqueue(bytes);
    await workUpload(database, id, { ...server, start: server.start.bind(server), state: server.state.bind(server), chunk: async () => Promise.reject(network()) });
    // The stored record claims more than the server has.
    await database.uploads.update(id, { nextIndex: 2 });
    const lying: UploadApi = { start: server.start.bind(server), chunk: server.chunk.bind(server), state: async (j) => ({ ...(await server.state(j)), NextIndex: 2 }) };
    expect(await workUpload(database, id, lying)).toEqual({ outcome: 'done' });
    expect(server.chunkCalls).toEqual([2, 0, 1, 2]);
  });

  it('an expired session: the upload waits for sign-in untouched, then goes on', async () => {
    const bytes = randomBytes(CS * 2);
    const id = await enqueue(bytes);
    // The token expires once chunk 0 is in: chunk 1 is answered 401.
    server.cut = (i) => {
      if (i === 0) server.session = false;
      return null;
    };
    const r = await workUpload(database, id, server);
    expect(r.outcome).toBe('session');
    expect((await database.uploads.get(id))!).toMatchObject({ state: 'queued', nextIndex: 1 });
    expect((await database.uploads.get(id))!.file).toBeInstanceOf(Blob);
    server.session = true;
    server.cut = () => null;
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'done' });
    expect(sha(server.jobs.get('job-1')!.bytes)).toBe(sha(bytes));
  });

  it('a checksum the server refuses ends failed with ERROR_FILE_UPLOAD_FAILED; Retry starts a new upload job from the first chunk', async () => {
    const bytes = randomBytes(CS + 10);
    const id = await enqueue(bytes);
    await database.uploads.update(id, { sha256: sha(randomBytes(4)) });
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'failed' });
    expect((await database.uploads.get(id))!).toMatchObject({ state: 'failed', reason: { key: 'ERROR_FILE_UPLOAD_FAILED', status: 422 } });
    await retryUpload(id, database);
    expect((await database.uploads.get(id))!).toMatchObject({ state: 'queued', attempt: 2, nextIndex: 0 });
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'done' });
    expect(server.starts.size).toBe(2);
    expect(sha(server.jobs.get('job-2')!.bytes)).toBe(sha(bytes));
  });

  it('a refusal (403) fails with the server\'s key and message', async () => {
    const id = await enqueue(randomBytes(10));
    const refusing: UploadApi = { ...server, start: async () => Promise.reject(http(403, 'ERROR_FAILED_DUE_TO_PERMISSIONS')), state: server.state.bind(server), chunk: server.chunk.bind(server) };
    expect(await workUpload(database, id, refusing)).toEqual({ outcome: 'failed' });
    expect((await database.uploads.get(id))!.reason).toMatchObject({ key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', status: 403 });
  });

  it('a file the server will not hold (413 UPLOAD_TOO_LARGE, UPLOAD_STAGED_LIMIT) fails at once with its reason, no chunk sent and no retry', async () => {
    for (const key of ['UPLOAD_TOO_LARGE', 'UPLOAD_STAGED_LIMIT']) {
      const id = await enqueue(randomBytes(10));
      const message = `scan.pdf: refused (${key})`;
      const refusing: UploadApi = {
        ...server,
        start: async () => Promise.reject(new ApiError({ kind: 'http', method: 'POST', url: '/api/upload', status: 413, key, serverMessage: message })),
        state: server.state.bind(server),
        chunk: server.chunk.bind(server),
      };
      const chunks = server.chunkCalls.length;
      expect(await workUpload(database, id, refusing)).toEqual({ outcome: 'failed' });
      expect(await database.uploads.get(id)).toMatchObject({ state: 'failed', reason: { key, message, status: 413 } });
      expect(server.chunkCalls.length).toBe(chunks);
    }
  });

  it('Pause stops after the chunk in flight, Resume goes on; Cancel removes the upload and its file', async () => {
    const bytes = randomBytes(CS * 4);
    const id = await enqueue(bytes);
    server.cut = (i) => {
      if (i === 1) void pauseUpload(id, database);
      return null;
    };
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'paused' });
    const paused = (await database.uploads.get(id))!;
    expect(paused.state).toBe('paused');
    expect(server.chunkCalls.length).toBeLessThan(4);
    server.cut = () => null;
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'gone' });
    await resumeUpload(id, database);
    expect(await workUpload(database, id, server)).toEqual({ outcome: 'done' });
    expect(sha(server.jobs.get('job-1')!.bytes)).toBe(sha(bytes));

    const other = await enqueue(randomBytes(CS * 3));
    server.cut = (i) => {
      if (i === 1) void removeUpload(other, database);
      return null;
    };
    expect(await workUpload(database, other, server)).toEqual({ outcome: 'gone' });
    expect(await database.uploads.get(other)).toBeUndefined();
  });
});

describe('the loop', () => {
  it('works the queued uploads oldest first, one at a time, and only the owner\'s', async () => {
    const a = await enqueue(randomBytes(CS + 1), 'a.pdf');
    const b = await enqueue(randomBytes(10), 'b.pdf');
    await database.uploads.update(b, { createdAt: Date.now() + 10 });
    const c = await enqueueUpload({ file: file(randomBytes(10), 'c.pdf'), target: { InboxID: 1 }, owner: 'someone else', database });
    expect(nextUpload(await database.uploads.toArray(), 'user', Date.now())).toEqual({ id: a });
    const loop = startUploadLoop({ database, api: server, owner: 'user' });
    for (let i = 0; i < 200 && (await database.uploads.get(b))!.state !== 'done'; i++) {
      await loop.idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    loop.stop();
    expect((await database.uploads.get(a))!.state).toBe('done');
    expect((await database.uploads.get(b))!.state).toBe('done');
    expect((await database.uploads.get(c))!.state).toBe('queued');
    expect([...server.jobs.values()].map((j) => j.body.FileName)).toEqual(['a.pdf', 'b.pdf']);
  });

  it('a waiting upload is due at its nextAttemptAt', () => {
    const base = { owner: 'user', file: new Blob(['x']), createdAt: 1 } as const;
    const recs = [{ ...base, id: 'w', state: 'waiting', nextAttemptAt: 5000 }] as unknown as Parameters<typeof nextUpload>[0];
    expect(nextUpload(recs, 'user', 1000)).toEqual({ at: 5000 });
    expect(nextUpload(recs, 'user', 5000)).toEqual({ id: 'w' });
  });
});
