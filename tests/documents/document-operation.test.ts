import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENT_GROUP_MAX } from '../../src/api/documents';
import { configureHttp } from '../../src/api/http';
import { ArchiveDb } from '../../src/db/db';
import { drainOnce } from '../../src/sync/drain';
import '../../src/sync/all-kinds';
import {
  DOCUMENT_OPERATION_CONCURRENCY, enqueueDocumentOperation, isDocumentOperationMeta, type DocumentOperationMeta, type OperationDoc,
} from '../../src/sync/kinds/document-operation';
import { jsonResponse } from '../api/fake-fetch';

interface Call {
  url: URL;
  docId: number;
}
type Answer = (c: Call) => Response | Promise<Response>;

const accepted = (jobId = 77, count = 10) => jsonResponse({ JobId: jobId, Job: 'k', State: 'queued', Count: count, Received: 1 });
const docsOf = (n: number): OperationDoc[] => Array.from({ length: n }, (_, i) => ({ id: 100 + i, hash: `h${100 + i}`, title: `Doc ${100 + i}` }));

function setup() {
  const database = new ArchiveDb(`docop-${Math.random()}`);
  const calls: Call[] = [];
  let answer: Answer = () => accepted();
  configureHttp({
    baseUrl: () => 'http://test',
    token: () => 'tok-1',
    fetchFn: async (url) => {
      const u = new URL(String(url));
      const docId = Number(/documents\/(\d+)\//.exec(u.pathname)?.[1] ?? 0);
      const c = { url: u, docId };
      calls.push(c);
      return answer(c);
    },
  });
  const drain = (force = true) => drainOnce({ database, token: () => 'tok-1', user: () => 'user', force, onSessionError: () => undefined });
  const entry = async () => (await database.outbox.orderBy('seq').toArray())[0]!;
  const meta = async () => (await entry()).meta as DocumentOperationMeta;
  const move = (n: number) =>
    enqueueDocumentOperation({ op: 'Move', dbId: 1, archiveId: 7, destinationArchive: 6, destinationName: 'Incoming', docs: docsOf(n), title: `Move ${n} documents to Incoming` }, database, 'user');
  return { database, calls, drain, entry, meta, move, setAnswer: (a: Answer) => (answer = a) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('document operation outbox kind', () => {
  it('is ONE entry per action; sends one call per document with SecureId, Job, Count and DestinationArchive; done with the job, which the jobs table then follows', async () => {
    const t = setup();
    await t.move(10);
    const e = await t.entry();
    expect(await t.database.outbox.count()).toBe(1);
    expect(e).toMatchObject({ kind: 'documentOperation', state: 'queued', owner: 'user' });
    expect(isDocumentOperationMeta(e.meta)).toBe(true);
    const jobKey = (e.meta as DocumentOperationMeta).jobKey;
    expect(jobKey).toMatch(/^[A-Za-z0-9_-]{1,100}$/);

    const r = await t.drain();
    expect(r).toMatchObject({ done: 1 });
    expect(t.calls.map((c) => c.docId).sort()).toEqual(docsOf(10).map((d) => d.id));
    const first = t.calls.find((c) => c.docId === 100)!;
    expect(first.url.pathname).toBe('/api/dbs/1/archives/7/documents/100/Move');
    expect(Object.fromEntries(first.url.searchParams)).toMatchObject({ SecureId: 'h100', Job: jobKey, Count: '10', DestinationArchive: '6', token: 'tok-1' });
    const done = await t.entry();
    expect(done.state).toBe('done');
    expect(done.result).toEqual({ JobId: 77, Count: 10, Answered: 10 });
    expect((done.meta as DocumentOperationMeta).sent).toBe(10);
    const job = await t.database.jobs.get('77');
    expect(job).toMatchObject({ dbId: 1, kind: 'move', total: 10, owner: 'user', title: 'Move 10 documents to Incoming', archiveId: 7, destinationArchiveId: 6, entryId: done.id, state: 'queued' });
  });

  it('refuses an action of no documents or of more than the server takes in one group', async () => {
    const t = setup();
    await expect(enqueueDocumentOperation({ op: 'delete', dbId: 1, archiveId: 7, docs: [], title: 'x' }, t.database, 'user')).rejects.toThrow();
    await expect(enqueueDocumentOperation({ op: 'delete', dbId: 1, archiveId: 7, docs: docsOf(DOCUMENT_GROUP_MAX + 1), title: 'x' }, t.database, 'user')).rejects.toThrow();
    expect(await t.database.outbox.count()).toBe(0);
  });

  it('delete sends no DestinationArchive', async () => {
    const t = setup();
    await enqueueDocumentOperation({ op: 'delete', dbId: 1, archiveId: 7, destinationArchive: 6, docs: docsOf(2), title: 'Delete 2 documents' }, t.database, 'user');
    await t.drain();
    expect(t.calls[0]!.url.pathname).toMatch(/\/documents\/10\d\/delete$/);
    expect(t.calls[0]!.url.searchParams.has('DestinationArchive')).toBe(false);
    expect((await t.database.jobs.get('77'))?.kind).toBe('delete');
  });

  it('never has more than DOCUMENT_OPERATION_CONCURRENCY calls in flight', async () => {
    const t = setup();
    let inFlight = 0;
    let most = 0;
    t.setAnswer(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      return accepted();
    });
    await t.move(20);
    await t.drain();
    expect(t.calls).toHaveLength(20);
    expect(most).toBe(DOCUMENT_OPERATION_CONCURRENCY);
  });

  it('resumes after a drain died half-way: answered documents are not sent again', async () => {
    const t = setup();
    await t.move(10);
    // The drainer died after 6 answers: the entry was left 'sending' with its progress saved.
    const e = await t.entry();
    await t.database.outbox.update(e.seq!, { state: 'sending', meta: { ...(e.meta as DocumentOperationMeta), sent: 6, jobId: 77 } });
    await t.drain(false);
    expect(t.calls.map((c) => c.docId).sort()).toEqual([106, 107, 108, 109]);
    expect((await t.entry()).state).toBe('done');
    expect(await t.database.jobs.get('77')).toBeTruthy();
  });

  it('a connection lost half-way: progress is kept, the entry waits (not failed), and the next drain re-sends at most the calls that were in flight', async () => {
    const t = setup();
    await t.move(12);
    let up = true;
    t.setAnswer(async (c) => {
      if (!up || c.docId >= 105) {
        up = false;
        throw new TypeError('Failed to fetch');
      }
      return accepted();
    });
    const r = await t.drain();
    expect(r).toMatchObject({ retry: 1, failed: 0, done: 0 });
    const waiting = await t.entry();
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    const sent = (waiting.meta as DocumentOperationMeta).sent;
    expect(sent).toBeGreaterThanOrEqual(5 - DOCUMENT_OPERATION_CONCURRENCY + 1);
    expect(sent).toBeLessThanOrEqual(5);
    const before = t.calls.length;
    t.setAnswer(() => accepted());
    await t.drain();
    const again = t.calls.slice(before).map((c) => c.docId);
    expect(again.filter((id) => id < 105).length).toBeLessThanOrEqual(DOCUMENT_OPERATION_CONCURRENCY);
    expect(again.every((id) => id >= 100 + sent)).toBe(true);
    expect(new Set([...t.calls.map((c) => c.docId)]).size).toBe(12);
    expect((await t.entry()).state).toBe('done');
  });

  it('offline: nothing answered, the entry stays queued with its documents, never failed', async () => {
    const t = setup();
    await t.move(5);
    t.setAnswer(() => {
      throw new TypeError('Failed to fetch');
    });
    for (let i = 0; i < 8; i++) await t.drain();
    const e = await t.entry();
    expect(e.state).toBe('queued');
    expect((e.meta as DocumentOperationMeta).sent).toBe(0);
    expect(await t.database.jobs.count()).toBe(0);
  });

  it('a refused document (403, 404, 409) is recorded by the server in the job: the entry still ends done', async () => {
    const t = setup();
    await t.move(6);
    t.setAnswer((c) => {
      if (c.docId === 101) return jsonResponse({ Message: 'No permission', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', JobId: 78 }, { status: 403 });
      if (c.docId === 102) return jsonResponse({ Message: 'Not found', Key: 'ERROR_NOT_FOUND', JobId: 78 }, { status: 404 });
      if (c.docId === 103) return jsonResponse({ Message: 'Checked out', Key: 'ERROR_DOCUMENT_CHECKED_OUT', JobId: 78 }, { status: 409 });
      return accepted(78, 6);
    });
    const r = await t.drain();
    expect(r).toMatchObject({ done: 1, failed: 0 });
    const e = await t.entry();
    expect(e.result).toEqual({ JobId: 78, Count: 6, Answered: 6 });
    expect(t.calls).toHaveLength(6);
  });

  it('a refusal naming no job is a problem of the call (no job counts it): the entry ends refused with the server reason', async () => {
    const t = setup();
    await t.move(3);
    t.setAnswer(() => jsonResponse({ Message: 'Count differs from the job', Key: 'ERROR_INCORRECT_PARAMETERS' }, { status: 400 }));
    const r = await t.drain();
    expect(r).toMatchObject({ done: 0, failed: 1 });
    const e = await t.entry();
    expect(e.state).toBe('failed');
    expect(e.reason).toMatchObject({ code: 'refused', status: 400, message: 'Count differs from the job' });
    expect(await t.database.jobs.count()).toBe(0);
  });

  it('a 5xx is not a per-document refusal: the drain retries it (counted)', async () => {
    const t = setup();
    await t.move(3);
    t.setAnswer(() => jsonResponse({ Message: 'boom' }, { status: 500 }));
    const r = await t.drain();
    expect(r.retry).toBe(1);
    expect(await t.entry()).toMatchObject({ state: 'queued', failureCode: 'http 500', failureCount: 1 });
  });
});

describe('documents of sub-archives', () => {
  it("each call names the document's own archive (a parent archive's search lists its sub-archives' documents)", async () => {
    const t = setup();
    await enqueueDocumentOperation(
      { op: 'delete', dbId: 1, archiveId: 5, docs: [{ id: 1, hash: 'a', archiveId: 5 }, { id: 2, hash: 'b', archiveId: 6 }], title: 'Delete 2 documents' },
      t.database,
      'user',
    );
    const m = await t.meta();
    expect(m.docs).toEqual([{ id: 1, hash: 'a' }, { id: 2, hash: 'b', archiveId: 6 }]);
    await t.drain();
    expect(t.calls.map((c) => c.url.pathname).sort()).toEqual(['/api/dbs/1/archives/5/documents/1/delete', '/api/dbs/1/archives/6/documents/2/delete']);
    expect(t.calls.every((c) => c.url.searchParams.get('Job') === m.jobKey && c.url.searchParams.get('Count') === '2')).toBe(true);
  });
});
