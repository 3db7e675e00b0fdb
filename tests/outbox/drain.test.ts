import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldDataConflict } from '../../src/api/documents';
import { backoffMs, drain, drainOnce } from '../../src/sync/drain';
import { enqueueFieldEdit } from '../../src/sync/kinds/field-data';
import { docOf, jsonResponse, setup } from './outbox-helpers';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('enqueue', () => {
  it('keeps the edit queued with a UUID, the target and no token', async () => {
    const t = setup();
    const id = await t.edit(7, [{ ID: 19, VAL: 'Paid' }], 4);
    const [e] = await t.entries();
    expect(e).toMatchObject({ id, kind: 'fieldData', method: 'PUT', target: '1|2|7', state: 'queued', attempts: 0 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(e!.path).toBe('/api/UpdateDocument/databases/1/archive/2/document/7/FieldData');
    expect(e!.query).toEqual({ secureId: 'hash-7' });
    expect(e!.headers).toEqual({ 'Secure-Id': 'hash-7', 'If-Match': '"4"' });
    expect(JSON.stringify(e)).not.toContain('tok-1');
  });
});

describe('drain', () => {
  it('sends in order per target with the Idempotency-Key, secure id and stamp, and keeps the answer', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(2, [{ ID: 19, VAL: 'b' }]);
    await t.edit(1, [{ ID: 19, VAL: 'c' }]);
    const r = await t.drain();
    expect(r).toMatchObject({ sent: 3, done: 3, stopped: false });
    const entries = await t.entries();
    expect(t.sent.map((s) => (s.body as { VAL: string }[])[0]!.VAL)).toEqual(['a', 'b', 'c']);
    expect(t.sent[0]!.method).toBe('PUT');
    expect(t.sent[0]!.url).toContain('secureId=hash-1');
    expect(t.sent[0]!.headers['Idempotency-Key']).toBe(entries[0]!.id);
    expect(t.sent[0]!.headers['Secure-Id']).toBe('hash-1');
    expect(t.sent[0]!.headers['If-Match']).toBe('"1"');
    expect(entries.map((e) => e.state)).toEqual(['done', 'done', 'done']);
    expect(entries[0]!.result).toEqual({ Rev: 2, Fields: [] });
  });

  it('stamps the token current at send time, never the one at enqueue', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.state.token = 'tok-2';
    await t.drain();
    expect(t.sent[0]!.headers['Auth-Token']).toBe('tok-2');
    expect(t.sent[0]!.url).not.toContain('tok-1');
  });

  it("another user's queued edits wait for that user: never sent under someone else's name", async () => {
    const t = setup();
    await enqueueFieldEdit({ dbId: 1, archiveId: 2, docId: 1, hash: 'hash-1', fields: [{ ID: 19, VAL: 'by anna' }], baseStamp: 1 }, t.database, 'anna');
    await enqueueFieldEdit({ dbId: 1, archiveId: 2, docId: 2, hash: 'hash-2', fields: [{ ID: 19, VAL: 'by ben' }], baseStamp: 1 }, t.database, 'ben');
    await t.drain({ user: () => 'ben' });
    expect(t.sent.map((r) => docOf(r.url))).toEqual([2]);
    expect((await t.entries()).map((e) => [e.owner, e.state])).toEqual([['anna', 'queued'], ['ben', 'done']]);
    await t.drain({ user: () => 'anna' });
    expect(t.sent.map((r) => docOf(r.url))).toEqual([2, 1]);
  });

  it('without a token sends nothing and keeps the entries queued; after sign-in they go', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.state.token = null;
    const r = await t.drain();
    expect(r.stopped).toBe(true);
    expect(t.sent).toHaveLength(0);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', attempts: 0 });
    t.state.token = 'tok-new';
    await t.drain();
    expect(t.sent[0]!.headers['Auth-Token']).toBe('tok-new');
    expect((await t.entries())[0]!.state).toBe('done');
  });

  it('a network failure: queued again, attempts + 1, waits for its retry time (its target only)', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(1, [{ ID: 19, VAL: 'b' }]);
    await t.edit(2, [{ ID: 19, VAL: 'x' }]);
    t.setAnswer((req) => {
      if (docOf(req.url) === 1) throw new TypeError('Failed to fetch');
      return jsonResponse({ Rev: 2, Fields: [] });
    });
    const r = await t.drain();
    expect(r).toMatchObject({ sent: 2, retry: 1, done: 1 });
    expect(r.nextAttemptAt).toBeGreaterThan(Date.now());
    const [a, b, x] = await t.entries();
    expect(a).toMatchObject({ state: 'queued', attempts: 1 });
    expect(a!.error).toBeTruthy();
    expect(b).toMatchObject({ state: 'queued', attempts: 0 });
    expect(x!.state).toBe('done');
    // Before the retry time nothing is sent; `online` (force) sends at once, with the same key.
    await t.drain();
    expect(t.sent).toHaveLength(2);
    t.setAnswer(() => jsonResponse({ Rev: 3, Fields: [] }));
    await t.drain({ force: true });
    expect(t.sent.slice(2).map((s) => s.headers['Idempotency-Key'])).toEqual([a!.id, b!.id]);
  });

  it.each([
    [500, { Message: 'An unknown error occured' }],
    [503, { Message: 'busy' }],
    [409, { Message: 'The request with this Idempotency-Key is still running', Key: 'ERROR_IDEMPOTENCY_IN_PROGRESS' }],
  ])('%i: queued again with backoff', async (status, body) => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    t.setAnswer(() => jsonResponse(body, { status }));
    const r = await t.drain();
    expect(r.retry).toBe(1);
    expect((await t.entries())[0]).toMatchObject({ state: 'queued', attempts: 1 });
  });

  it('409 CONFLICT: conflict with the server values kept; later edits of that document wait', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'mine' }]);
    await t.edit(1, [{ ID: 1, VAL: 'later' }]);
    const conflict = { Message: 'changed by someone else: Status', Key: 'CONFLICT', Current: { Rev: 5, Fields: [{ ID: 19, VAL: 'theirs' }] }, Conflicts: [19] };
    t.setAnswer(() => jsonResponse(conflict, { status: 409 }));
    const r = await t.drain();
    expect(r).toMatchObject({ sent: 1, conflict: 1 });
    const [c, later] = await t.entries();
    expect(c!.state).toBe('conflict');
    expect(FieldDataConflict.parse(c!.result).Current.Fields[0]!.VAL).toBe('theirs');
    expect(c!.error).toContain('changed by someone else');
    expect(later!.state).toBe('queued');
  });

  it('403: failed with the reason, never dropped; later entries of the target blocked, other targets sent', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(1, [{ ID: 19, VAL: 'b' }]);
    await t.edit(2, [{ ID: 19, VAL: 'x' }]);
    t.setAnswer((req) =>
      docOf(req.url) === 1
        ? jsonResponse({ Message: 'You do not have permission to edit documents of this archive', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 })
        : jsonResponse({ Rev: 2, Fields: [] }),
    );
    const r = await t.drain();
    expect(r).toMatchObject({ sent: 2, failed: 1, done: 1 });
    const [a, b, x] = await t.entries();
    expect(a).toMatchObject({ state: 'failed', error: 'You do not have permission to edit documents of this archive' });
    expect(b!.state).toBe('queued');
    expect(x!.state).toBe('done');
    await t.drain({ force: true });
    expect(t.sent).toHaveLength(2);
  });

  it('400 validation: failed with the server message', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 2, VAL: '12a' }]);
    t.setAnswer(() => jsonResponse({ Message: 'Field Invoice Number: invalid value', Key: 'ERROR_INCORRECT_PARAMETERS', Fields: [{ ID: 2, Code: -1 }] }, { status: 400 }));
    await t.drain();
    expect((await t.entries())[0]).toMatchObject({ state: 'failed', error: 'Field Invoice Number: invalid value' });
  });

  it.each([401, 402, 499])('%i: the drain stops, the entry stays queued, the error goes to the error handler', async (status) => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(2, [{ ID: 19, VAL: 'b' }]);
    t.setAnswer(() => jsonResponse({ Message: status === 401 ? 'LicenseExpired' : 'Lease expired' }, { status }));
    const r = await t.drain();
    expect(r.stopped).toBe(true);
    expect(t.sent).toHaveLength(1);
    expect((await t.entries()).map((e) => [e.state, e.attempts])).toEqual([
      ['queued', 0],
      ['queued', 0],
    ]);
    expect(t.sessionErrors).toHaveLength(1);
  });

  it("an entry left 'sending' by a drainer that died is sent again with the same key", async () => {
    const t = setup();
    const id = await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    const [e] = await t.entries();
    await t.database.outbox.update(e!.seq!, { state: 'sending' });
    await t.drain();
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!.headers['Idempotency-Key']).toBe(id);
    expect((await t.entries())[0]!.state).toBe('done');
  });

  it('drains running at once (a tab, another tab, the service worker) never send an entry twice', async () => {
    const t = setup();
    for (let i = 0; i < 10; i++) await t.edit(i % 3, [{ ID: 19, VAL: `v${i}` }]);
    t.setAnswer(async () => {
      await new Promise((r) => setTimeout(r, 2));
      return jsonResponse({ Rev: 2, Fields: [] });
    });
    // A Web Locks stand-in: one holder per name, the others wait in order.
    const chains = new Map<string, Promise<unknown>>();
    let requests = 0;
    vi.stubGlobal('navigator', {
      locks: {
        request<T>(name: string, cb: () => Promise<T>): Promise<T> {
          requests++;
          const run = (chains.get(name) ?? Promise.resolve()).then(cb);
          chains.set(name, run.catch(() => undefined));
          return run;
        },
      },
    });
    await Promise.all([drainOnce(t.opts()), drainOnce(t.opts()), drain(t.opts()), drain(t.opts()), drainOnce(t.opts())]);
    expect(requests).toBe(4);
    const keys = t.sent.map((s) => s.headers['Idempotency-Key']);
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(10);
    expect((await t.entries()).every((e) => e.state === 'done')).toBe(true);
  });

  it('without navigator.locks drains of one context still take turns', async () => {
    const t = setup();
    for (let i = 0; i < 6; i++) await t.edit(i, [{ ID: 19, VAL: `v${i}` }]);
    t.setAnswer(async () => {
      await new Promise((r) => setTimeout(r, 2));
      return jsonResponse({ Rev: 2, Fields: [] });
    });
    await Promise.all([drainOnce(t.opts()), drainOnce(t.opts()), drainOnce(t.opts())]);
    expect(t.sent).toHaveLength(6);
  });

  it('a later edit of the same document moves onto the Rev of the earlier one (no conflict with oneself)', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }], 5);
    await t.edit(1, [{ ID: 19, VAL: 'b' }], 5);
    await t.edit(1, [{ ID: 4, VAL: '1.00' }], 5);
    let rev = 5;
    t.setAnswer((req) => {
      rev += 2; // someone else changed field 3 in between each time
      const ids = (req.body as { ID: number }[]).map((f) => f.ID);
      return jsonResponse({ Rev: rev, Fields: [], FieldRevs: { 3: rev - 1, ...Object.fromEntries(ids.map((id) => [id, rev])) } });
    });
    await t.drain();
    expect(t.sent.map((s) => s.headers['If-Match'])).toEqual(['"5"', '"7"', '"9"']);
  });

  it('does not move a later edit past a change someone else made to its field', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }], 5);
    await t.edit(1, [{ ID: 3, VAL: 'b' }], 5);
    t.setAnswer(() => jsonResponse({ Rev: 7, Fields: [], FieldRevs: { 3: 6, 19: 7 } }));
    await t.drain();
    expect(t.sent.map((s) => s.headers['If-Match'])).toEqual(['"5"', '"5"']);
  });
});

describe('rebase and idempotency', () => {
  it('keeps the If-Match of a later edit that was sent before: a repeat must be the same request', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }], 5);
    await t.edit(1, [{ ID: 4, VAL: '1.00' }], 5);
    const later = (await t.entries())[1]!;
    await t.database.outbox.update(later.seq!, { attempts: 1 });
    t.setAnswer(() => jsonResponse({ Rev: 6, Fields: [], FieldRevs: { 19: 6 } }));
    await t.drain();
    expect(t.sent.map((s) => s.headers['If-Match'])).toEqual(['"5"', '"5"']);
    expect(t.sent[1]!.headers['Idempotency-Key']).toBe(later.id);
  });
});

describe('backoff', () => {
  it('grows from about 2 s to at most 5 minutes', () => {
    expect(backoffMs(1, () => 0.5)).toBe(2000);
    expect(backoffMs(3, () => 0.5)).toBe(8000);
    expect(backoffMs(30, () => 0.5)).toBe(300_000);
  });
});
