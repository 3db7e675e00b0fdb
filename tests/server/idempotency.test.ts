import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { IDEMPOTENCY_KEEP_MS, purgeIdempotencyKeys } from '../../server/http/idempotency';
import { startServer, type TestServer } from './helpers';

let s: TestServer;
let counter = 0;
let release: (() => void) | undefined;
beforeAll(async () => {
  s = await startServer({ seed: false });
  // Routes used only by this test: a counter, a slow action and a failing one.
  s.app.post('/api/test/count', { config: { auth: 'none' } }, async (request) => {
    counter++;
    return { Count: counter, Got: request.body };
  });
  s.app.post('/api/test/slow', { config: { auth: 'none' } }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return { Done: true };
  });
  s.app.post('/api/test/fail', { config: { auth: 'none' } }, async () => {
    counter++;
    throw new Error('boom');
  });
});
afterAll(async () => {
  await s?.close();
});

const post = (url: string, key: string | undefined, body: unknown = { A: 1 }) =>
  s.app.inject({ method: 'POST', url, payload: body as object, headers: key ? { 'idempotency-key': key } : {} });

describe('Idempotency-Key', () => {
  it('replays the first answer for a repeat and does not act twice', async () => {
    const first = await post('/api/test/count', 'k-1');
    expect(first.statusCode).toBe(200);
    const before = counter;
    const again = await post('/api/test/count', 'k-1');
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(counter).toBe(before);
  });

  it('ignores the token in the URL when comparing requests', async () => {
    await post('/api/test/count?token=aaa', 'k-token');
    const r = await post('/api/test/count?token=bbb', 'k-token');
    expect(r.headers['idempotent-replayed']).toBe('true');
  });

  it('same key with a different payload -> 422', async () => {
    await post('/api/test/count', 'k-2', { A: 1 });
    const r = await post('/api/test/count', 'k-2', { A: 2 });
    expect(r.statusCode).toBe(422);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_IDEMPOTENCY_KEY_REUSED');
  });

  it('same key while the first is running -> 409', async () => {
    const pending = post('/api/test/slow', 'k-3');
    await new Promise((r) => setTimeout(r, 100));
    const r = await post('/api/test/slow', 'k-3');
    expect(r.statusCode).toBe(409);
    expect(r.headers['retry-after']).toBe('1');
    release?.();
    expect((await pending).statusCode).toBe(200);
    const replay = await post('/api/test/slow', 'k-3');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ Done: true });
  });

  it('a 5xx is not stored: the retry runs again', async () => {
    const before = counter;
    expect((await post('/api/test/fail', 'k-4')).statusCode).toBe(500);
    expect((await post('/api/test/fail', 'k-4')).statusCode).toBe(500);
    expect(counter).toBe(before + 2);
  });

  it('without a key every request acts', async () => {
    const before = counter;
    await post('/api/test/count', undefined);
    await post('/api/test/count', undefined);
    expect(counter).toBe(before + 2);
  });

  it('rejects an over-long key', async () => {
    expect((await post('/api/test/count', 'x'.repeat(201))).statusCode).toBe(400);
  });

  it('keeps answers at least 8 days', async () => {
    await post('/api/test/count', 'k-old');
    expect(await purgeIdempotencyKeys(s.store, s.clock.t + 8 * 86_400_000)).toBe(0);
    const r = await post('/api/test/count', 'k-old');
    expect(r.headers['idempotent-replayed']).toBe('true');
    expect(await purgeIdempotencyKeys(s.store, s.clock.t + IDEMPOTENCY_KEEP_MS + 1)).toBeGreaterThan(0);
  });
});
