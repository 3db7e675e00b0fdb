/**
 * Issue 8 item 13: a request in flight when its server crashed left its Idempotency-Key record
 * 'running'; after the restart, the resend with that key runs once (not 409 for ten minutes), and a
 * repeat afterwards replays its answer. A record of a process that is still alive (another server on
 * the same PostgreSQL) stays 409 until that process stops beating.
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_LAPSE_MS, requestHash } from '../../server/http/idempotency';
import { startServer, type TestServer } from './helpers';

let s: TestServer;
let counter = 0;
const URL_PATH = '/api/test/count';
const BODY = { A: 1 };
// The hash the crashed process stored for this request, as it computes it.
const HASH = requestHash({ method: 'POST', url: URL_PATH, headers: {}, body: BODY } as unknown as FastifyRequest);

async function leaveRunning(key: string, bootId: string, seenAgoMs: number | null) {
  const t = s.clock.t;
  if (seenAgoMs !== null) {
    await s.store.query('INSERT INTO server_processes (boot_id, started_at, seen_at) VALUES ($1, $2, $3)', [bootId, new Date(t - 3_600_000), new Date(t - seenAgoMs)]);
  }
  await s.store.query(
    `INSERT INTO idempotency_keys (key, user_id, method, path, request_hash, status, created_at, boot_id)
     VALUES ($1, 0, 'POST', $2, $3, 'running', $4, $5)`,
    [key, URL_PATH, HASH, new Date(t - 2_000), bootId],
  );
}

const post = (key: string) => s.app.inject({ method: 'POST', url: URL_PATH, payload: BODY, headers: { 'idempotency-key': key } });

beforeAll(async () => {
  s = await startServer({ seed: false });
  s.app.post(URL_PATH, { config: { auth: 'none' } }, async () => {
    counter++;
    return { Count: counter };
  });
  // The crash: the previous process (heartbeat 2 s ago) was running this request when it died.
  // The server above is the restarted one: it is not ready (started) until its first request.
  await leaveRunning('crash-key', 'boot-of-the-crashed-process', 2_000);
});
afterAll(async () => {
  await s?.close();
});

describe('Idempotency-Key after a crash', () => {
  it('the resend of a request in flight at the crash runs once after the restart, then replays', async () => {
    const before = counter;
    let r = await post('crash-key');
    if (s.store.kind === 'pg') {
      // Several servers may share PostgreSQL: the crashed one's record lapses with its heartbeat.
      expect(r.statusCode).toBe(409);
      s.clock.advance(OWNER_LAPSE_MS);
      r = await post('crash-key');
    }
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['idempotent-replayed']).toBeUndefined();
    expect(counter).toBe(before + 1);
    const again = await post('crash-key');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(r.body);
    expect(counter).toBe(before + 1);
    const row = await s.store.query<{ status: string }>("SELECT status FROM idempotency_keys WHERE key = 'crash-key'");
    expect(row.rows[0]?.status).toBe('done');
  });

  it('a record with no owner process at all is free', async () => {
    await leaveRunning('orphan-key', 'boot-never-seen', null);
    const before = counter;
    expect((await post('orphan-key')).statusCode).toBe(200);
    expect(counter).toBe(before + 1);
  });

  it('a record of a live process (another server on the same database) is 409 until it stops beating', async () => {
    await leaveRunning('live-key', 'boot-of-a-live-process', 1_000);
    const before = counter;
    const r = await post('live-key');
    expect(r.statusCode).toBe(409);
    expect(r.headers['retry-after']).toBe('1');
    expect(counter).toBe(before);
    s.clock.advance(OWNER_LAPSE_MS);
    expect((await post('live-key')).statusCode).toBe(200);
    expect(counter).toBe(before + 1);
    expect((await post('live-key')).headers['idempotent-replayed']).toBe('true');
    expect(counter).toBe(before + 1);
  });
});
