/**
 * The outbox's one failure policy (drain.ts header): which answers end an entry as failed, which
 * only make it wait, and what the user's Retry does. Fake responses, no browser.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { classify, MAX_SAME_FAILURES } from '../../src/sync/drain';
import { retryEntry } from '../../src/sync/outbox';
import { docOf, jsonResponse, setup } from './outbox-helpers';

const serverError = { Message: 'An unknown error occured' };

/** Drains `times` times ignoring retry times (as `online` does), answering each with `answer`. */
async function drainTimes(t: ReturnType<typeof setup>, times: number) {
  for (let i = 0; i < times; i++) await t.drain({ force: true });
}

describe('the same 5xx several times', () => {
  it(`ends as failed after ${MAX_SAME_FAILURES} in a row, with the reason; later entries of other documents still go`, async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(1, [{ ID: 19, VAL: 'b' }]);
    await t.edit(2, [{ ID: 19, VAL: 'x' }]);
    t.setAnswer((req) => (docOf(req.url) === 1 ? jsonResponse(serverError, { status: 500, statusText: 'Internal Server Error' }) : jsonResponse({ Rev: 2, Fields: [] })));

    await drainTimes(t, MAX_SAME_FAILURES - 1);
    let [a, b, x] = await t.entries();
    expect(a).toMatchObject({ state: 'queued', attempts: MAX_SAME_FAILURES - 1, failureCode: 'http 500', failureCount: MAX_SAME_FAILURES - 1 });
    expect(a!.reason).toBeUndefined();
    expect(x!.state).toBe('done');

    const r = await t.drain({ force: true });
    expect(r).toMatchObject({ failed: 1 });
    [a, b, x] = await t.entries();
    expect(a).toMatchObject({ state: 'failed', reason: { code: 'serverError', status: 500, count: MAX_SAME_FAILURES, message: 'An unknown error occured' } });
    expect(a!.error).toBe('An unknown error occured');
    // Its document's later edit waits for the user's decision (order per document); nothing is retried by itself.
    expect(b!.state).toBe('queued');
    const sent = t.sent.length;
    await drainTimes(t, 3);
    expect(t.sent).toHaveLength(sent);
  });

  it('a different 5xx starts the count again', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    let status = 500;
    t.setAnswer(() => jsonResponse(serverError, { status }));
    await drainTimes(t, MAX_SAME_FAILURES - 1);
    status = 501;
    await t.drain({ force: true });
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', failureCode: 'http 501', failureCount: 1 });
  });

  it('network failures in between neither count nor reset the count', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    let offline = false;
    t.setAnswer(() => {
      if (offline) throw new TypeError('Failed to fetch');
      return jsonResponse(serverError, { status: 500 });
    });
    await drainTimes(t, MAX_SAME_FAILURES - 1);
    offline = true;
    await drainTimes(t, 10);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', failureCount: MAX_SAME_FAILURES - 1 });
    offline = false;
    await t.drain({ force: true });
    expect((await t.entries())[0]).toMatchObject({ state: 'failed', reason: { code: 'serverError', count: MAX_SAME_FAILURES } });
  });
});

describe('answers that only make the entry wait', () => {
  it('network failures (offline) never end an entry: it waits, however often', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => {
      throw new TypeError('Failed to fetch');
    });
    await drainTimes(t, 3 * MAX_SAME_FAILURES);
    const [e] = await t.entries();
    expect(e).toMatchObject({ state: 'queued', attempts: 3 * MAX_SAME_FAILURES });
    expect(e!.failureCount).toBeUndefined();
    expect(e!.nextAttemptAt).toBeGreaterThan(Date.now());
  });

  it.each([
    [502, { Message: 'Bad Gateway' }],
    [503, { Message: 'Service Unavailable' }],
    [504, { Message: 'Gateway Timeout' }],
    [408, { Message: 'Request Timeout' }],
    [429, { Message: 'Too Many Requests' }],
    [409, { Message: 'The request with this Idempotency-Key is still running', Key: 'ERROR_IDEMPOTENCY_IN_PROGRESS' }],
  ])('%i: waits and is sent again, never failed', async (status, body) => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse(body, { status }));
    await drainTimes(t, 2 * MAX_SAME_FAILURES);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', attempts: 2 * MAX_SAME_FAILURES });
    t.setAnswer(() => jsonResponse({ Rev: 2, Fields: [] }));
    await t.drain({ force: true });
    expect((await t.entries())[0]!.state).toBe('done');
  });
});

describe('4xx: failed at once', () => {
  it.each([
    [400, { Message: 'Field Invoice Number: invalid value', Key: 'ERROR_INCORRECT_PARAMETERS' }],
    [403, { Message: 'You do not have permission to edit documents of this archive', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }],
    [404, { Message: 'Document not found' }],
    [409, { Message: 'E-mail exists', Key: 'EMAIL_EXISTS' }],
    [422, { Message: 'This Idempotency-Key was used for a different request', Key: 'ERROR_IDEMPOTENCY_KEY_REUSED' }],
  ])('%i: failed after one answer, with the server Message as the reason', async (status, body) => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(2, [{ ID: 19, VAL: 'b' }]);
    t.setAnswer((req) => (docOf(req.url) === 1 ? jsonResponse(body, { status }) : jsonResponse({ Rev: 2, Fields: [] })));
    const r = await t.drain();
    expect(r).toMatchObject({ failed: 1, done: 1 });
    const [a, b] = await t.entries();
    expect(a).toMatchObject({ state: 'failed', attempts: 1, reason: { code: 'refused', status, message: body.Message } });
    expect(b!.state).toBe('done');
  });

  it('a 4xx without a Message keeps the status as the reason', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => new Response('nope', { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'text/plain' } }));
    await t.drain();
    const [a] = await t.entries();
    expect(a).toMatchObject({ state: 'failed', reason: { code: 'refused', status: 400 } });
    expect(a!.reason).not.toHaveProperty('message');
  });
});

describe('sign in again: 401, 402, 499 keep the entry queued and uncounted', () => {
  it.each([401, 402, 499])('%i many times: still queued, attempts and count untouched', async (status) => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse({ Message: status === 401 ? 'LicenseExpired' : 'Lease expired' }, { status }));
    await drainTimes(t, 2 * MAX_SAME_FAILURES);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', attempts: 0 });
    expect(t.sessionErrors).toHaveLength(2 * MAX_SAME_FAILURES);
  });
});

describe('anything unexpected thrown while sending', () => {
  it('counts like a 5xx', () => {
    expect(classify(new Error('boom'))).toMatchObject({ type: 'retry', counted: { code: 'error', message: 'boom' } });
  });
});

describe("the user's Retry", () => {
  it('after repeated 5xx: queued again with the same Idempotency-Key and a fresh count', async () => {
    const t = setup();
    const id = await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse(serverError, { status: 500 }));
    await drainTimes(t, MAX_SAME_FAILURES);
    const [failed] = await t.entries();
    expect(failed!.state).toBe('failed');

    await retryEntry(failed!.seq!, t.database);
    const [queued] = await t.entries();
    expect(queued).toMatchObject({ id, state: 'queued', nextAttemptAt: 0 });
    expect(queued!.reason).toBeUndefined();
    expect(queued!.failureCount).toBeUndefined();

    // One more 500 is the first of a new count, not the sixth of the old one.
    await t.drain();
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', failureCount: 1 });
    t.setAnswer(() => jsonResponse({ Rev: 2, Fields: [] }));
    await t.drain({ force: true });
    expect((await t.entries())[0]!.state).toBe('done');
    expect(t.sent.every((s) => s.headers['Idempotency-Key'] === id)).toBe(true);
  });

  it('on a waiting entry: sent now, and its count goes on', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse(serverError, { status: 500 }));
    await t.drain();
    for (let i = 1; i < MAX_SAME_FAILURES; i++) {
      const [waiting] = await t.entries();
      expect(waiting).toMatchObject({ state: 'queued', failureCount: i });
      await retryEntry(waiting!.seq!, t.database);
      await t.drain();
    }
    expect((await t.entries())[0]).toMatchObject({ state: 'failed', failureCount: MAX_SAME_FAILURES });
  });

  it('after a refusal (4xx): a new Idempotency-Key, since the server keeps replaying its refusal under the old one', async () => {
    const t = setup();
    const id = await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse({ Message: 'You do not have permission', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 }));
    await t.drain();
    const [failed] = await t.entries();
    await retryEntry(failed!.seq!, t.database);
    const [queued] = await t.entries();
    expect(queued).toMatchObject({ state: 'queued', attempts: 0 });
    expect(queued!.id).not.toBe(id);
    t.setAnswer(() => jsonResponse({ Rev: 2, Fields: [] }));
    await t.drain();
    expect(t.sent[1]!.headers['Idempotency-Key']).toBe(queued!.id);
    expect((await t.entries())[0]!.state).toBe('done');
  });
});
