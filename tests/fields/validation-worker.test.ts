import { expose } from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Field } from '../../src/api/archives';
import { createValidationBridge, type WorkerHandle } from '../../src/features/editing/validation-bridge';
import { validate } from '../../src/fields/validation';

const fields: Field[] = [
  { ID: 1, Name: 'Title', Type: 1, Size: 10, Prop: 2 },
  { ID: 2, Name: 'Number', Type: 2 },
  { ID: 3, Name: 'Date', Type: 3, Mask: 'MM/dd/yyyy' },
  { ID: 4, Name: 'Amount', Type: 4 },
  { ID: 5, Name: 'Department', Type: 1, Prop: 64, List: 1 },
  { ID: 6, Name: 'Tags', Type: 1, Size: 5, Prop: 32, MultiValue: true },
];
const ctx = { dbId: 1, archiveId: 7, token: 't o/k', apiBase: 'https://api.example/' };

function fakeFetch(answer: (body: { ID: number; VAL?: string; MVAL?: string[] }[]) => unknown, status = 200) {
  return vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    return new Response(JSON.stringify(answer(body)), { status, headers: { 'Content-Type': 'application/json' } });
  });
}

describe('validate (worker function)', () => {
  it('local rules only without a server context', async () => {
    const out = await validate(fields, [{ ID: 1, VAL: '' }, { ID: 2, VAL: '1x' }, { ID: 3, VAL: '4/3/25' }, { ID: 4, VAL: '1,5' }, { ID: 9, VAL: 'x' }], 'de-DE');
    expect(out.serverError).toBeUndefined();
    expect(out.results).toEqual([
      { ID: 1, code: -5, key: 'FIELD_REQUIRED', serverChecked: false },
      { ID: 2, code: -1, key: 'FIELD_INVALID_NUMBER', serverChecked: false },
      { ID: 3, code: 0, normalized: '2025-03-04', serverChecked: false },
      { ID: 4, code: 0, normalized: '1.5', serverChecked: false },
      { ID: 9, code: -4, key: 'FIELD_NOT_FOUND', serverChecked: false },
    ]);
  });

  it('sends only locally valid values, normalised, to POST api/indexes and merges the answer', async () => {
    const f = fakeFetch((body) => body.map((b) => (b.ID === 5 ? { ID: 5, Code: -1, Key: 'FIELD_NOT_IN_LIST', Message: 'no' } : { ID: b.ID, Code: 0, Normalized: b.VAL, ...(b.MVAL ? { NormalizedMVAL: b.MVAL } : {}) })));
    const out = await validate(fields, [{ ID: 2, VAL: 'bad' }, { ID: 4, VAL: '1.234,5' }, { ID: 5, VAL: 'Nope' }, { ID: 6, MVAL: ['a', ''] }], 'de-DE', ctx, f);
    expect(f).toHaveBeenCalledTimes(1);
    const [url, init] = f.mock.calls[0]!;
    expect(String(url)).toBe('https://api.example/api/indexes?dbId=1&archiveId=7&token=t+o%2Fk');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual([{ ID: 4, VAL: '1234.5' }, { ID: 5, VAL: 'Nope' }, { ID: 6, VAL: 'a', MVAL: ['a'] }]);
    expect(out.results).toEqual([
      { ID: 2, code: -1, key: 'FIELD_INVALID_NUMBER', serverChecked: false },
      { ID: 4, code: 0, normalized: '1234.5', serverChecked: true },
      { ID: 5, code: -1, key: 'FIELD_NOT_IN_LIST', message: 'no', serverChecked: true },
      { ID: 6, code: 0, normalized: 'a', normalizedMVAL: ['a'], serverChecked: true },
    ]);
  });

  it('offline or a server error keeps the local results', async () => {
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const a = await validate(fields, [{ ID: 2, VAL: '5' }], 'en-US', ctx, offline);
    expect(a).toEqual({ results: [{ ID: 2, code: 0, normalized: '5', serverChecked: false }], serverError: 'Failed to fetch' });
    const b = await validate(fields, [{ ID: 2, VAL: '5' }], 'en-US', ctx, fakeFetch(() => ({ Message: 'x' }), 403));
    expect(b.serverError).toBe('HTTP 403');
    const none = fakeFetch(() => []);
    await validate(fields, [{ ID: 2, VAL: 'x' }], 'en-US', ctx, none);
    expect(none).not.toHaveBeenCalled();
  });
});

describe('validation bridge', () => {
  afterEach(() => vi.useRealTimers());

  /** A "worker" on a MessageChannel in this thread; validate can be held to test abort. */
  function fakeWorkers(hold?: Promise<void>) {
    const started: { terminated: boolean }[] = [];
    const start = (): WorkerHandle => {
      const { port1, port2 } = new MessageChannel();
      const state = { terminated: false };
      started.push(state);
      expose({ validate: async (...a: Parameters<typeof validate>) => (await hold, validate(...a)) }, port2 as never);
      return {
        endpoint: port1 as never,
        terminate: () => {
          state.terminated = true;
          port1.close();
          port2.close();
        },
      };
    };
    return { start, started };
  }

  it('starts lazily, reuses the worker and ends it when idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const w = fakeWorkers();
    const bridge = createValidationBridge(w.start, 1000);
    expect(bridge.running).toBe(false);
    const r1 = await bridge.validate(fields, [{ ID: 2, VAL: '12' }], 'en-US');
    expect(r1.results[0]).toMatchObject({ code: 0, normalized: '12' });
    await bridge.validate(fields, [{ ID: 3, VAL: '03/04/2025' }], 'en-GB');
    expect(w.started).toHaveLength(1);
    expect(bridge.running).toBe(true);
    vi.advanceTimersByTime(999);
    expect(bridge.running).toBe(true);
    vi.advanceTimersByTime(1);
    expect(bridge.running).toBe(false);
    expect(w.started[0]?.terminated).toBe(true);
    await bridge.validate(fields, [{ ID: 2, VAL: '1' }], 'en-US');
    expect(w.started).toHaveLength(2);
    bridge.terminate();
  });

  it('an AbortSignal rejects the call and ends the busy worker', async () => {
    let release!: () => void;
    const w = fakeWorkers(new Promise<void>((r) => (release = r)));
    const bridge = createValidationBridge(w.start, 1000);
    const ac = new AbortController();
    const p = bridge.validate(fields, [{ ID: 2, VAL: '12' }], 'en-US', { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(w.started[0]?.terminated).toBe(true);
    expect(bridge.running).toBe(false);
    release();
    const already = new AbortController();
    already.abort();
    await expect(bridge.validate(fields, [], 'en-US', { signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(w.started).toHaveLength(1);
  });
});
