/**
 * Chunked, resumable uploads (server/routes/upload.ts, server/services/upload.ts; the contract
 * src/api/upload.ts): start, chunks in order, resume from GET's NextIndex, a chunk sent twice kept
 * once, out of order 409, the checksum checked at the end, zero-byte and rights refused, the inbox
 * file created under a free name, stale uploads purged. The bytes are random, so the files are named
 * .dat, a kind the server keeps as it is (what a .pdf or .tif must hold: unreadable-files.test.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxFiles, inboxPaths } from '../../src/api/inboxes';
import { UPLOAD_CHUNK_SIZE, UPLOAD_KEEP_MS, UploadState, uploadPaths, type UploadStart } from '../../src/api/upload';
import { SEED_IDS } from '../../server/seed/catalog';
import { Uploads, purgeUploads } from '../../server/services/upload';
import { signIn, startServer, type TestServer } from './helpers';

const I = SEED_IDS.inbox;
let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer();
  for (const u of ['user', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let keyN = 0;

function start(user: string, body: Partial<UploadStart> & { bytes?: Uint8Array }, key = `k-${++keyN}`) {
  const { bytes, ...rest } = body;
  const payload = { FileName: 'scan.dat', Size: bytes?.byteLength ?? 0, Sha256: sha(bytes ?? new Uint8Array()), Target: { InboxID: I.scans }, ...rest };
  return s.app.inject({ method: 'POST', url: uploadPaths.upload, headers: { 'auth-token': tokens[user]!, 'idempotency-key': key }, payload });
}

function chunk(user: string, jobId: string, index: number, bytes: Uint8Array) {
  return s.app.inject({
    method: 'POST',
    url: uploadPaths.chunk,
    query: { JobID: jobId, Index: String(index) },
    headers: { 'auth-token': tokens[user]!, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
}

const state = async (user: string, jobId: string) => {
  const r = await s.app.inject({ method: 'GET', url: uploadPaths.upload, query: { JobID: jobId }, headers: { 'auth-token': tokens[user]! } });
  return { status: r.statusCode, body: r.json() as Record<string, unknown> };
};

const slice = (bytes: Uint8Array, i: number) => bytes.subarray(i * UPLOAD_CHUNK_SIZE, Math.min(bytes.byteLength, (i + 1) * UPLOAD_CHUNK_SIZE));

async function startOk(bytes: Uint8Array, extra: Partial<UploadStart> = {}): Promise<UploadState> {
  const r = await start('user', { bytes, ...extra });
  expect(r.statusCode, r.body).toBe(200);
  return UploadState.parse(r.json());
}

async function inboxFile(inboxId: number, name: string) {
  const r = await s.store.query<{ file_name: string; sha256: string; size: number; file_type: string }>('SELECT file_name, sha256, size, file_type FROM inbox_files WHERE inbox_id = $1 AND file_name = $2', [inboxId, name]);
  return r.rows[0];
}

describe('POST api/upload/chunk: a file in 1 MiB chunks', () => {
  it('takes the chunks in order, names the next index, and puts the file in the inbox with its checksum', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE * 2 + 12345);
    const job = await startOk(bytes, { FileName: 'letters/../three chunks.DAT' });
    expect(job).toMatchObject({ State: 'receiving', NextIndex: 0, ChunkSize: UPLOAD_CHUNK_SIZE, ChunkCount: 3, Size: bytes.byteLength, Repeated: 0 });
    for (let i = 0; i < 3; i++) {
      const r = await chunk('user', job.JobID, i, slice(bytes, i));
      expect(r.statusCode, r.body).toBe(200);
      const st = UploadState.parse(r.json());
      expect(st.NextIndex).toBe(i + 1);
      expect(st.State).toBe(i < 2 ? 'receiving' : 'done');
    }
    const done = UploadState.parse((await state('user', job.JobID)).body);
    // Only the base name is kept, the extension in lower case; the File Format in capitals.
    expect(done.Result).toEqual({ InboxID: I.scans, Path: 'three chunks.dat', Sha256: sha(bytes) });
    const f = await inboxFile(I.scans, 'three chunks.dat');
    expect(f).toMatchObject({ sha256: sha(bytes), file_type: 'DAT' });
    expect(Number(f!.size)).toBe(bytes.byteLength);
    expect(sha(await s.files.get(sha(bytes)))).toBe(sha(bytes));
    // Shown in the inbox's list like any other file.
    const list = InboxFiles.parse((await s.app.inject({ method: 'GET', url: inboxPaths.list, query: { Id: String(I.scans), numberOfDocuments: '100' }, headers: { 'auth-token': tokens.user! } })).json());
    expect(list.Files.map((x) => x.FileName)).toContain('three chunks.dat');
    // The part file is gone (renamed into the store).
    expect(readdirSync(join(s.files.root, 'uploads')).filter((x) => x.startsWith(job.JobID))).toEqual([]);
  });

  it('resumes: after a lost answer GET names the next index, and the upload goes on from there', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE * 3);
    const job = await startOk(bytes, { FileName: 'resumed.dat' });
    expect((await chunk('user', job.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    // The answer to chunk 1 "was lost": the client only asks where to go on.
    expect((await chunk('user', job.JobID, 1, slice(bytes, 1))).statusCode).toBe(200);
    const st = await state('user', job.JobID);
    expect(st.status).toBe(200);
    expect(st.body).toMatchObject({ State: 'receiving', NextIndex: 2, Repeated: 0 });
    expect(UploadState.parse((await chunk('user', job.JobID, 2, slice(bytes, 2))).json())).toMatchObject({ State: 'done', NextIndex: 3, Repeated: 0 });
    expect((await inboxFile(I.scans, 'resumed.dat'))?.sha256).toBe(sha(bytes));
  });

  it('resumes in another server process (nothing kept in memory): the next index comes from the part file, the checksum from re-reading it', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE * 2 + 7);
    const job = await startOk(bytes, { FileName: 'other-process.dat' });
    expect((await chunk('user', job.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    // A second process over the same database and files: no cached row, no running hash.
    const other = new Uploads({ store: s.store, files: s.files, now: () => s.clock.t });
    const actor = { userId: SEED_IDS.user.user, userName: 'user' };
    await expect(other.chunk(actor, job.JobID, 2, Buffer.from(slice(bytes, 2)))).rejects.toMatchObject({ status: 409 });
    expect(await other.chunk(actor, job.JobID, 1, Buffer.from(slice(bytes, 1)))).toMatchObject({ NextIndex: 2, Repeated: 0 });
    expect(await other.chunk(actor, job.JobID, 2, Buffer.from(slice(bytes, 2)))).toMatchObject({ State: 'done', Result: { Sha256: sha(bytes) } });
    // A wrong file is caught the same way without the running hash.
    const bad = await startOk(bytes, { FileName: 'other-bad.dat', Sha256: sha(randomBytes(3)) });
    expect((await chunk('user', bad.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    const third = new Uploads({ store: s.store, files: s.files, now: () => s.clock.t });
    await third.chunk(actor, bad.JobID, 1, Buffer.from(slice(bytes, 1)));
    await expect(third.chunk(actor, bad.JobID, 2, Buffer.from(slice(bytes, 2)))).rejects.toMatchObject({ status: 422, key: 'ERROR_FILE_UPLOAD_FAILED' });
  });

  it('a chunk sent twice is kept once and counted as repeated; after the end too', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE + 10);
    const job = await startOk(bytes, { FileName: 'twice.dat' });
    expect((await chunk('user', job.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    // The same chunk again, even with other bytes: not written (the file stays right).
    const again = await chunk('user', job.JobID, 0, randomBytes(UPLOAD_CHUNK_SIZE));
    expect(again.statusCode).toBe(200);
    expect(UploadState.parse(again.json())).toMatchObject({ NextIndex: 1, Repeated: 1 });
    expect(UploadState.parse((await chunk('user', job.JobID, 1, slice(bytes, 1))).json())).toMatchObject({ State: 'done', Repeated: 1 });
    const late = await chunk('user', job.JobID, 1, slice(bytes, 1));
    expect(late.statusCode).toBe(200);
    expect(UploadState.parse(late.json())).toMatchObject({ State: 'done', Repeated: 2 });
    expect((await s.store.query('SELECT 1 FROM inbox_files WHERE inbox_id = $1 AND file_name LIKE $2', [I.scans, 'twice%'])).rows).toHaveLength(1);
    expect((await inboxFile(I.scans, 'twice.dat'))?.sha256).toBe(sha(bytes));
  });

  it('two copies of one chunk at once (a browser re-send): written once, one counted as repeated', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE * 2);
    const job = await startOk(bytes, { FileName: 'at-once.dat' });
    const [a, b] = await Promise.all([chunk('user', job.JobID, 0, slice(bytes, 0)), chunk('user', job.JobID, 0, slice(bytes, 0))]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await state('user', job.JobID)).body).toMatchObject({ NextIndex: 1, Repeated: 1 });
  });

  it('out of order: 409 naming the index it needs', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE * 3);
    const job = await startOk(bytes, { FileName: 'order.dat' });
    const r = await chunk('user', job.JobID, 2, slice(bytes, 2));
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ Key: 'UPLOAD_CHUNK_OUT_OF_ORDER', NextIndex: 0 });
    expect((await state('user', job.JobID)).body).toMatchObject({ NextIndex: 0 });
  });

  it('a chunk of the wrong size or past the end is refused (400) and changes nothing', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE + 5);
    const job = await startOk(bytes, { FileName: 'sizes.dat' });
    expect((await chunk('user', job.JobID, 0, bytes.subarray(0, 100))).statusCode).toBe(400);
    expect((await chunk('user', job.JobID, 5, bytes.subarray(0, 5))).statusCode).toBe(400);
    const big = await chunk('user', job.JobID, 0, randomBytes(UPLOAD_CHUNK_SIZE + 4096));
    expect(big.statusCode).toBe(413);
    expect((await state('user', job.JobID)).body).toMatchObject({ NextIndex: 0, State: 'receiving' });
  });

  it('a checksum that does not match fails the upload with ERROR_FILE_UPLOAD_FAILED, and nothing is stored', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE + 99);
    const job = await startOk(bytes, { FileName: 'corrupt.dat', Sha256: sha(randomBytes(8)) });
    expect((await chunk('user', job.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    const r = await chunk('user', job.JobID, 1, slice(bytes, 1));
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({ Key: 'ERROR_FILE_UPLOAD_FAILED' });
    expect(r.json().Message).toMatch(/corrupt\.dat.*checksum/);
    expect((await state('user', job.JobID)).body).toMatchObject({ State: 'failed', Key: 'ERROR_FILE_UPLOAD_FAILED' });
    expect(await inboxFile(I.scans, 'corrupt.dat')).toBeUndefined();
    expect(existsSync(s.files.pathOf(sha(bytes)))).toBe(false);
    // A re-send of the last chunk gets the same refusal.
    expect((await chunk('user', job.JobID, 1, slice(bytes, 1))).statusCode).toBe(422);
  });

  it('two uploads of one name get two names; a name taken in another case counts as taken', async () => {
    const a = randomBytes(100);
    const b = randomBytes(200);
    const c = randomBytes(300);
    for (const [bytes, name] of [[a, 'Same.dat'], [b, 'same.dat'], [c, 'SAME.DAT']] as const) {
      const job = await startOk(bytes, { FileName: name, Target: { InboxID: I.mailroom } });
      expect(UploadState.parse((await chunk('user', job.JobID, 0, bytes)).json()).State).toBe('done');
    }
    const r = await s.store.query<{ file_name: string; sha256: string }>("SELECT file_name, sha256 FROM inbox_files WHERE inbox_id = $1 AND lower(file_name) LIKE 'same%' ORDER BY id", [I.mailroom]);
    expect(r.rows).toEqual([
      { file_name: 'Same.dat', sha256: sha(a) },
      { file_name: 'same (2).dat', sha256: sha(b) },
      { file_name: 'SAME (3).dat', sha256: sha(c) },
    ]);
  });

  it('a staging target (import into an archive) keeps the file and names it by checksum', async () => {
    const bytes = randomBytes(5000);
    const job = await startOk(bytes, { FileName: 'import.dat', Target: { DatabaseID: SEED_IDS.db.demo, ArchiveID: 1 } });
    const st = UploadState.parse((await chunk('user', job.JobID, 0, bytes)).json());
    expect(st).toMatchObject({ State: 'done', Result: { ArchiveID: 1, Sha256: sha(bytes) } });
    expect(sha(await s.files.get(sha(bytes)))).toBe(sha(bytes));
  });

  it('the same Idempotency-Key starts one upload', async () => {
    const bytes = randomBytes(10);
    const a = await start('user', { bytes, FileName: 'key.dat' }, 'same-key');
    const b = await start('user', { bytes, FileName: 'key.dat' }, 'same-key');
    expect(a.json().JobID).toBe(b.json().JobID);
  });
});

describe('refusals', () => {
  it('a zero-byte file: 400 ZERO_BYTE_FILE_REMOVED_MSG naming the file', async () => {
    const r = await start('user', { FileName: 'empty.dat', Size: 0 });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ Key: 'ZERO_BYTE_FILE_REMOVED_MSG' });
    expect(r.json().Message).toContain('empty.dat');
  });

  it('rights: inbox edit (4) and archive add (2) are needed (403); an unknown inbox or archive is 404', async () => {
    const bytes = randomBytes(10);
    // An inbox the user may only view.
    const inbox = await s.store.query<{ id: number }>("INSERT INTO inboxes (name, unique_name, database_id) VALUES ('Look only', 'look-only', $1) RETURNING id", [SEED_IDS.db.demo]);
    const lookOnly = Number(inbox.rows[0]!.id);
    await s.store.query('INSERT INTO inbox_permissions (inbox_id, user_id, rights) VALUES ($1, $2, 1)', [lookOnly, SEED_IDS.user.user]);
    const noEdit = await start('user', { bytes, Target: { InboxID: lookOnly } });
    expect(noEdit.statusCode).toBe(403);
    expect(noEdit.json()).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' });
    // clerk has no right on the Scans inbox at all.
    expect((await start('clerk', { bytes, Target: { InboxID: I.scans } })).statusCode).toBe(403);
    expect((await start('user', { bytes, Target: { InboxID: 999_999 } })).statusCode).toBe(404);
    // Records is read-only for user (no add, 2); HR Files is not theirs at all.
    const records = await start('user', { bytes, Target: { DatabaseID: SEED_IDS.db.records, ArchiveID: SEED_IDS.archive.records } });
    expect(records.statusCode).toBe(403);
    expect((await start('user', { bytes, Target: { DatabaseID: SEED_IDS.db.demo, ArchiveID: 999_999 } })).statusCode).toBe(404);
    expect((await s.store.query("SELECT 1 FROM uploads WHERE file_name = 'scan.dat' AND owner_id = $1 AND size = 10", [SEED_IDS.user.clerk])).rows).toEqual([]);
  });

  it('the read-only licence (type 4) may not upload (403), even where it may view', async () => {
    const r = await start('viewer', { bytes: randomBytes(10), Target: { InboxID: I.scans } });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' });
  });

  it("another user's upload is unknown to them (404), for GET and chunks", async () => {
    const bytes = randomBytes(10);
    const job = await startOk(bytes, { FileName: 'mine.dat' });
    expect((await state('viewer', job.JobID)).status).toBe(404);
    expect((await chunk('clerk', job.JobID, 0, bytes)).statusCode).toBe(404);
    expect((await state('user', job.JobID)).body).toMatchObject({ NextIndex: 0 });
  });
});

describe('purge', () => {
  it('an upload whose part file has not grown for a day is expired and the file removed; its chunks then answer 410', async () => {
    const bytes = randomBytes(UPLOAD_CHUNK_SIZE + 1);
    const job = await startOk(bytes, { FileName: 'stale.dat' });
    expect((await chunk('user', job.JobID, 0, slice(bytes, 0))).statusCode).toBe(200);
    const part = join(s.files.root, 'uploads', `${job.JobID}.part`);
    expect(existsSync(part)).toBe(true);
    // A chunk is answered while its write may still be landing (services/upload.ts `writes`):
    // GET api/upload waits for it, so the time set next is not overwritten by it.
    await state('user', job.JobID);
    // The part file's time is the upload's last activity: the server's (test) clock when the chunk came.
    utimesSync(part, s.clock.t / 1000, s.clock.t / 1000);
    expect(await purgeUploads(s.store, s.files, s.clock.t + UPLOAD_KEEP_MS - 1000)).toBe(0);
    expect(existsSync(part)).toBe(true);
    expect(await purgeUploads(s.store, s.files, s.clock.t + UPLOAD_KEEP_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(existsSync(part)).toBe(false);
    expect((await state('user', job.JobID)).body).toMatchObject({ State: 'expired', Key: 'UPLOAD_EXPIRED' });
    const r = await chunk('user', job.JobID, 1, slice(bytes, 1));
    expect(r.statusCode).toBe(410);
  });
});
