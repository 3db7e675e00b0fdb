/**
 * The drain is the same for every entry kind (src/sync/kinds.ts): a second, fake kind with its own
 * send (several calls, progress kept in the entry) gets the same order, lock and failure policy as
 * field edits, and an entry of a kind this app does not know is sent with the defaults. Runs in
 * Node: no window, no document, as in a worker or the service worker.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { OutboxEntry } from '../../src/db/db';
import { MAX_SAME_FAILURES, sendEntry } from '../../src/sync/drain';
import { OutboxWait, kindOf, registerKind } from '../../src/sync/kinds';
import { enqueue } from '../../src/sync/outbox';
import { jsonResponse, setup, type Sent } from './outbox-helpers';

/** A group of documents sent one call each; `meta.sent` says how many have gone (the resume point). */
const GROUP_KIND = 'test-group';
interface GroupMeta {
  docs: number[];
  sent: number;
}
const followUps: string[] = [];
let failFollowUp = false;

registerKind({
  kind: GROUP_KIND,
  conflictKey: 'GROUP_CONFLICT',
  async send(entry, ctx) {
    const meta = entry.meta as GroupMeta;
    const results: unknown[] = ((entry.result as unknown[] | undefined) ?? []).slice();
    for (let i = meta.sent; i < meta.docs.length; i++) {
      // One key per document: a re-sent call after a crash is answered, not applied, again.
      results.push(await sendEntry({ ...entry, id: `${entry.id}:${meta.docs[i]}`, path: `/api/test/${meta.docs[i]}` }, z.object({ ok: z.boolean() })));
      await ctx.saveProgress({ meta: { ...meta, sent: i + 1 }, result: results });
    }
    return results;
  },
  async followUp(_db, entry) {
    if (failFollowUp) throw new Error('follow-up broke');
    followUps.push(entry.id);
  },
});

const group = (t: ReturnType<typeof setup>, docs: number[], target = 'group-1') =>
  enqueue({ kind: GROUP_KIND, method: 'POST', path: '/api/test', target, meta: { docs, sent: 0 } satisfies GroupMeta }, t.database, null);

const docOfTest = (s: Sent) => Number(/\/api\/test\/(\d+)/.exec(s.url)?.[1]);

afterEach(() => {
  followUps.length = 0;
  failFollowUp = false;
  vi.unstubAllGlobals();
});

describe('a kind with its own send', () => {
  it('runs without a window, sends each call with the current token, keeps its progress and answer, then its follow-up runs', async () => {
    expect(typeof window).toBe('undefined');
    const t = setup();
    t.setAnswer(() => jsonResponse({ ok: true }));
    const id = await group(t, [11, 12, 13]);
    const r = await t.drain();
    expect(r).toMatchObject({ sent: 1, done: 1 });
    expect(t.sent.map(docOfTest)).toEqual([11, 12, 13]);
    expect(t.sent.map((s) => s.headers['Idempotency-Key'])).toEqual([`${id}:11`, `${id}:12`, `${id}:13`]);
    expect(t.sent.every((s) => s.headers['Auth-Token'] === 'tok-1')).toBe(true);
    const [e] = await t.entries();
    expect(e).toMatchObject({ state: 'done', meta: { sent: 3 }, result: [{ ok: true }, { ok: true }, { ok: true }] });
    expect(followUps).toEqual([id]);
  });

  it('resumes where it was after a crash half-way: at most the call in flight is sent again', async () => {
    const t = setup();
    t.setAnswer(() => jsonResponse({ ok: true }));
    const id = await group(t, [1, 2, 3, 4, 5]);
    // What a drainer that died after two calls (the third in flight) leaves behind.
    const [left] = await t.entries();
    await t.database.outbox.update(left!.seq!, { state: 'sending', meta: { docs: [1, 2, 3, 4, 5], sent: 2 }, result: [{ ok: true }, { ok: true }] });
    await t.drain();
    expect(t.sent.map(docOfTest)).toEqual([3, 4, 5]);
    expect(t.sent[0]!.headers['Idempotency-Key']).toBe(`${id}:3`);
    expect((await t.entries())[0]).toMatchObject({ state: 'done', meta: { sent: 5 } });
    expect(((await t.entries())[0]!.result as unknown[]).length).toBe(5);
  });

  it('a failure half-way keeps the progress: the next drain goes on from there, not from the start', async () => {
    const t = setup();
    let down = true;
    t.setAnswer((req) => {
      if (docOfTest(req) === 3 && down) throw new TypeError('Failed to fetch');
      return jsonResponse({ ok: true });
    });
    await group(t, [1, 2, 3, 4]);
    const r = await t.drain();
    expect(r.retry).toBe(1);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', meta: { sent: 2 }, attempts: 1 });
    down = false;
    await t.drain({ force: true });
    expect(t.sent.map(docOfTest)).toEqual([1, 2, 3, 3, 4]);
    expect((await t.entries())[0]).toMatchObject({ state: 'done', meta: { sent: 4 } });
  });

  it(`gets the same failure policy: the same 5xx ${MAX_SAME_FAILURES} times in a row ends it as failed with its reason`, async () => {
    const t = setup();
    t.setAnswer(() => jsonResponse({ Message: 'disk full' }, { status: 500 }));
    await group(t, [1, 2]);
    for (let i = 0; i < MAX_SAME_FAILURES; i++) await t.drain({ force: true });
    const [e] = await t.entries();
    expect(e).toMatchObject({ state: 'failed', error: 'disk full', reason: { code: 'serverError', status: 500, count: MAX_SAME_FAILURES } });
    const sent = t.sent.length;
    await t.drain({ force: true });
    expect(t.sent).toHaveLength(sent);
    expect(followUps).toEqual([]);
  });

  it('a refusal (4xx) fails it at once and holds back its target; other targets go on', async () => {
    const t = setup();
    t.setAnswer((req) => (docOfTest(req) === 1 ? jsonResponse({ Message: 'no right to delete' }, { status: 403 }) : jsonResponse({ ok: true })));
    await group(t, [1], 'a');
    await group(t, [2], 'a');
    await group(t, [3], 'b');
    const r = await t.drain();
    expect(r).toMatchObject({ failed: 1, done: 1 });
    expect((await t.entries()).map((e) => e.state)).toEqual(['failed', 'queued', 'done']);
    expect((await t.entries())[0]!.reason).toEqual({ code: 'refused', status: 403, message: 'no right to delete' });
  });

  it("a 409 with the kind's conflict key is a conflict; the field-edit key means nothing to it", async () => {
    const t = setup();
    t.setAnswer((req) =>
      docOfTest(req) === 1
        ? jsonResponse({ Message: 'group changed', Key: 'GROUP_CONFLICT' }, { status: 409 })
        : jsonResponse({ Message: 'changed', Key: 'CONFLICT' }, { status: 409 }),
    );
    await group(t, [1], 'a');
    await group(t, [2], 'b');
    await t.drain();
    expect((await t.entries()).map((e) => e.state)).toEqual(['conflict', 'failed']);
  });

  it('a follow-up that fails leaves the entry done (it was applied)', async () => {
    const t = setup();
    failFollowUp = true;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    t.setAnswer(() => jsonResponse({ ok: true }));
    await group(t, [1]);
    const r = await t.drain();
    expect(r.done).toBe(1);
    expect((await t.entries())[0]!.state).toBe('done');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('an entry of a kind this app does not know (a newer app wrote it)', () => {
  it('is sent with the defaults: one request, its id as the key, done with the answer as it came', async () => {
    expect(kindOf('fromTheFuture')).toEqual({ kind: 'fromTheFuture' });
    const t = setup();
    t.setAnswer(() => jsonResponse({ Anything: [1, 2] }));
    const id = await enqueue({ kind: 'fromTheFuture', method: 'POST', path: '/api/future', query: { a: '1' }, headers: { 'X-Extra': 'y' }, body: { B: 2 }, target: 'f' }, t.database, null);
    await t.drain();
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ method: 'POST', body: { B: 2 } });
    expect(t.sent[0]!.url).toBe('/api/future?a=1');
    expect(t.sent[0]!.headers).toMatchObject({ 'Idempotency-Key': id, 'X-Extra': 'y', 'Auth-Token': 'tok-1' });
    expect((await t.entries())[0]).toMatchObject({ state: 'done', result: { Anything: [1, 2] } });
  });

  it('a 409 CONFLICT is a refusal for it (no conflict handling without a handler)', async () => {
    const t = setup();
    t.setAnswer(() => jsonResponse({ Message: 'changed', Key: 'CONFLICT' }, { status: 409 }));
    await enqueue({ kind: 'fromTheFuture', method: 'PUT', path: '/api/future', target: 'f' }, t.database, null);
    await t.drain();
    expect((await t.entries())[0]).toMatchObject({ state: 'failed', reason: { code: 'refused', status: 409 } });
  });
});

describe('two contexts draining at once', () => {
  it('each entry of every kind is sent once when two separately loaded drains (page and service worker) share the lock and the database', async () => {
    // A Web Locks stand-in shared by both contexts, as the browser's is.
    const chains = new Map<string, Promise<unknown>>();
    vi.stubGlobal('navigator', {
      locks: {
        request<T>(name: string, cb: () => Promise<T>): Promise<T> {
          const run = (chains.get(name) ?? Promise.resolve()).then(cb);
          chains.set(name, run.catch(() => undefined));
          return run;
        },
      },
    });
    const t = setup();
    for (let i = 0; i < 6; i++) await t.edit(i % 2, [{ ID: 19, VAL: `v${i}` }]);
    for (let i = 0; i < 4; i++) await group(t, [100 + i, 200 + i], `g${i % 2}`);
    await enqueue({ kind: 'fromTheFuture', method: 'POST', path: '/api/future', target: 'f' }, t.database, null);
    const calls: string[] = [];
    const answer = async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method} ${url} ${(init?.headers as Record<string, string>)['Idempotency-Key']}`);
      await new Promise((r) => setTimeout(r, 1));
      return url.includes('/api/test/') ? jsonResponse({ ok: true }) : jsonResponse({ Rev: 2, Fields: [] });
    };
    // The second context: its own copy of every module (http config, registry, local lock), its own
    // handle on the same IndexedDB database.
    vi.resetModules();
    const other = {
      http: await import('../../src/api/http'),
      db: await import('../../src/db/db'),
      drain: await import('../../src/sync/drain'),
      kinds: await import('../../src/sync/kinds'),
    };
    const groupHandler = kindOf(GROUP_KIND);
    other.kinds.registerKind(groupHandler);
    other.http.configureHttp({ baseUrl: () => '', token: () => 'tok-1', fetchFn: answer });
    const otherDb = new other.db.ArchiveDb(t.database.name);
    t.setAnswer((req) => answer(req.url, { method: req.method, headers: req.headers }));
    const otherOpts = { database: otherDb, token: () => 'tok-1', onSessionError: () => undefined };
    const both = await Promise.all([other.drain.drainOnce(otherOpts), t.drain(), other.drain.drain(otherOpts), t.drain()]);
    // The first holder of the lock sent everything; the others found nothing left to send.
    expect(both.map((r) => r.done)).toEqual([11, 0, 0, 0]);
    expect(calls).toHaveLength(6 + 8 + 1);
    expect(new Set(calls).size).toBe(calls.length);
    expect((await t.entries()).every((e: OutboxEntry) => e.state === 'done')).toBe(true);
  });
});

describe('a kind that is not ready yet (OutboxWait)', () => {
  const WAIT_KIND = 'test-wait';
  let ready = false;
  registerKind({
    kind: WAIT_KIND,
    async send(entry) {
      if (!ready) throw new OutboxWait('TEST_WAITING', 2_000);
      return sendEntry(entry, z.object({ ok: z.boolean() }));
    },
  });

  it('waits its short delay without counting an attempt or holding back another target, then goes', async () => {
    const t = setup();
    t.setAnswer(() => jsonResponse({ ok: true }));
    ready = false;
    await enqueue({ kind: WAIT_KIND, method: 'POST', path: '/api/wait', target: 'import:1' }, t.database, null);
    await group(t, [7], 'other');
    const before = Date.now();
    const r = await t.drain();
    const entries = await t.entries();
    const waiting = entries.find((e) => e.kind === WAIT_KIND)!;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 0, error: 'TEST_WAITING' });
    expect(waiting.failureCount).toBeUndefined();
    expect(waiting.nextAttemptAt! - before).toBeGreaterThanOrEqual(2_000);
    expect(waiting.nextAttemptAt! - before).toBeLessThan(4_000);
    expect(r.nextAttemptAt).toBe(waiting.nextAttemptAt);
    // The other target was not held back.
    expect(entries.find((e) => e.kind === GROUP_KIND)).toMatchObject({ state: 'done' });
    expect(t.sent.map((s) => s.url)).toEqual(['/api/test/7']);
    // Many waits never fail it.
    for (let i = 0; i < MAX_SAME_FAILURES + 2; i++) await t.drain({ force: true });
    expect((await t.entries()).find((e) => e.kind === WAIT_KIND)).toMatchObject({ state: 'queued', attempts: 0 });
    ready = true;
    await t.drain({ force: true });
    expect((await t.entries()).find((e) => e.kind === WAIT_KIND)).toMatchObject({ state: 'done', result: { ok: true } });
  });
});
