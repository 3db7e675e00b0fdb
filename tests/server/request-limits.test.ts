/**
 * Bad input answers 4xx, never 500: JSON nested far too deep (it overflowed the stack while the
 * Idempotency-Key's hash was made), and uploads declaring more bytes than the server takes for one
 * file or holds for one user (UPLOAD_MAX_BYTES, UPLOAD_USER_STAGED_BYTES).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { UPLOAD_CHUNK_SIZE, UploadState, uploadPaths, type UploadStart } from '../../src/api/upload';
import { SEED_IDS } from '../../server/seed/catalog';
import { JSON_MAX_DEPTH } from '../../server/http/json-body';
import { DEFAULT_UPLOAD_LIMITS, bytesWords, uploadLimitsFrom } from '../../server/services/upload';
import { signIn, startServer, type TestServer } from './helpers';

const MiB = 1024 * 1024;
let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // Small limits, so that a test need not send gigabytes to reach them.
  s = await startServer({ uploads: { maxBytes: 8 * MiB, stagedBytesPerUser: 12 * MiB } });
  for (const u of ['user', 'clerk']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

let keyN = 0;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const start = (user: string, size: number, over: Partial<UploadStart> = {}) =>
  s.app.inject({
    method: 'POST',
    url: uploadPaths.upload,
    headers: { 'auth-token': tokens[user]!, 'idempotency-key': `limits-${++keyN}` },
    payload: { FileName: 'batch.pdf', Size: size, Sha256: sha(new Uint8Array([1])), Target: { InboxID: SEED_IDS.inbox.scans }, ...over },
  });

describe('JSON nested too deep', () => {
  it('answers 400 with the reason, with or without an Idempotency-Key', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    for (const headers of [{ 'idempotency-key': 'deep-1' }, {}]) {
      const r = await s.app.inject({ method: 'POST', url: '/api/dbs/1/merge', headers: { 'auth-token': tokens.user!, 'content-type': 'application/json', ...headers }, payload: deep });
      expect(r.statusCode, r.body).toBe(400);
      expect(ErrorBody.parse(r.json())).toEqual({ Key: 'ERROR_INCORRECT_PARAMETERS', Message: `Incorrect parameters: the JSON body nests more than ${JSON_MAX_DEPTH} levels deep` });
    }
    // Brackets inside strings do not count, and a body at the limit is read as usual.
    const fine = { FileName: '[[[[{{{{'.repeat(20), Size: 0, Sha256: 'x', Target: JSON.parse(`${'['.repeat(JSON_MAX_DEPTH - 1)}1${']'.repeat(JSON_MAX_DEPTH - 1)}`) as unknown };
    const r = await s.app.inject({ method: 'POST', url: uploadPaths.upload, headers: { 'auth-token': tokens.user!, 'idempotency-key': 'deep-ok' }, payload: fine });
    expect(r.statusCode).toBe(400);
    expect(r.json().Message).not.toMatch(/nests more/);
  });
});

describe('upload sizes', () => {
  it('refuses a file over the size limit before any byte is sent: 1 TB, 2^53-1 and one byte too many', async () => {
    for (const size of [1024 ** 4, Number.MAX_SAFE_INTEGER, 8 * MiB + 1]) {
      const r = await start('user', size);
      expect(r.statusCode, `${size}: ${r.body}`).toBe(413);
      expect(ErrorBody.parse(r.json())).toEqual({ Key: 'UPLOAD_TOO_LARGE', Message: `batch.pdf is ${bytesWords(size)}; this server takes files of at most 8 MiB` });
    }
    const at = await start('user', 8 * MiB);
    expect(at.statusCode, at.body).toBe(200);
    expect(UploadState.parse(at.json())).toMatchObject({ State: 'receiving', ChunkCount: 8 * MiB / UPLOAD_CHUNK_SIZE });
  });

  it("refuses an upload that would take the user's unfinished uploads past their limit; another user is not counted", async () => {
    // The test before left 8 MiB receiving for `user`.
    const over = await start('user', 5 * MiB);
    expect(over.statusCode, over.body).toBe(413);
    expect(ErrorBody.parse(over.json())).toEqual({
      Key: 'UPLOAD_STAGED_LIMIT',
      Message: 'Your unfinished uploads hold 8 MiB and batch.pdf is 5 MiB; the server holds at most 12 MiB for one user until their uploads finish',
    });
    expect((await start('user', 4 * MiB)).statusCode).toBe(200);
    // The limit is each user's own: clerk (to the staging area of Invoices) is not refused for user's uploads.
    const other = await start('clerk', 8 * MiB, { Target: { DatabaseID: SEED_IDS.db.demo, ArchiveID: SEED_IDS.archive.invoices } });
    expect(other.statusCode, other.body).toBe(200);
    // A finished or failed upload no longer counts.
    await s.store.query("UPDATE uploads SET state = 'failed' WHERE owner_id = $1", [SEED_IDS.user.user]);
    expect((await start('user', 8 * MiB)).statusCode).toBe(200);
    expect((await start('user', 4 * MiB)).statusCode).toBe(200);
    expect((await start('user', 1)).json()).toMatchObject({ Key: 'UPLOAD_STAGED_LIMIT' });
  });

  it('reads its limits from the environment, with 2 GiB and 4 GiB by default', () => {
    expect(DEFAULT_UPLOAD_LIMITS).toEqual({ maxBytes: 2 * 1024 ** 3, stagedBytesPerUser: 4 * 1024 ** 3 });
    expect(uploadLimitsFrom({})).toEqual(DEFAULT_UPLOAD_LIMITS);
    expect(uploadLimitsFrom({ UPLOAD_MAX_BYTES: '1048576', UPLOAD_USER_STAGED_BYTES: '3145728' })).toEqual({ maxBytes: MiB, stagedBytesPerUser: 3 * MiB });
    // Not a positive whole number: the default.
    expect(uploadLimitsFrom({ UPLOAD_MAX_BYTES: '2GB', UPLOAD_USER_STAGED_BYTES: '-1' })).toEqual(DEFAULT_UPLOAD_LIMITS);
  });
});
