import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import type { CsvRow } from '../../src/api/bulk-update';
import { ArchiveDb, type UploadRecord } from '../../src/db/db';
import { drainOnce } from '../../src/sync/drain';
import '../../src/sync/all-kinds';
import { IMPORT_KIND, IMPORT_WAITING_FILES, enqueueImport, type ImportMeta } from '../../src/sync/kinds/import';
import { jsonResponse } from '../api/fake-fetch';

interface Call {
  url: URL;
  init: RequestInit;
  body: Record<string, unknown>;
}

const rowsOf = (n: number, file?: (i: number) => number | undefined): CsvRow[] =>
  Array.from({ length: n }, (_, i) => ({ Line: i + 2, Values: [{ ID: 5, VAL: `v${i}` }], ...(file?.(i) !== undefined ? { File: file(i)! } : {}) }));

function setup(opts: { fail?: (c: Call, n: number) => Response | 'network' | null } = {}) {
  const database = new ArchiveDb(`import-${Math.random()}`);
  const calls: Call[] = [];
  configureHttp({
    baseUrl: () => 'http://test',
    token: () => 'tok-1',
    fetchFn: async (url, init) => {
      const c = { url: new URL(String(url)), init: init ?? {}, body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {} };
      const failed = opts.fail?.(c, calls.length);
      if (failed === 'network') throw new TypeError('Failed to fetch');
      calls.push(c);
      if (failed) return failed;
      if (c.url.pathname.endsWith('/import/rows')) return jsonResponse({ Received: 0, Total: c.body.Total });
      return jsonResponse({ JobId: 44, State: 'queued', Count: c.body.Total });
    },
  });
  const drain = () => drainOnce({ database, token: () => 'tok-1', user: () => 'user', force: true, onSessionError: () => undefined });
  const entry = async () => (await database.outbox.orderBy('seq').toArray())[0]!;
  const upload = (id: string, state: UploadRecord['state'], jobId?: string) =>
    database.uploads.add({
      id, target: { DatabaseID: 1, ArchiveID: 7 }, fileName: `${id}.pdf`, size: 10, type: 'application/pdf', attempt: 1, nextIndex: 0, chunkSize: 1 << 20, chunkCount: 1,
      highestSent: -1, resent: 0, state, createdAt: 0, updatedAt: 0, ...(jobId ? { jobId } : {}),
    });
  const start = (rows: CsvRow[], files: string[], uploads: (string | null)[]) =>
    enqueueImport(
      {
        request: { Database: 1, Archive: 7, csvPath: 'docs.csv', errorPath: 'docs-errors.csv', fieldDelimiter: ',', stringDelimiter: '"', FieldMapping: [{ FieldID: 5, RowID: 0, Checked: true }], Files: files.map((Name) => ({ Name })) },
        rows,
        uploads,
        title: 'Import of docs.csv',
      },
      database,
      'user',
    );
  const starts = () => calls.filter((c) => c.url.pathname.endsWith('/import/ImportDocuments'));
  const batches = () => calls.filter((c) => c.url.pathname.endsWith('/import/rows'));
  return { database, calls, drain, entry, upload, start, starts, batches };
}

describe('import outbox kind', () => {
  it('waits (no attempt counted, the reason IMPORT_WAITING_FILES) while a file is still uploading, and sends nothing', async () => {
    const t = setup();
    await t.upload('u1', 'sending');
    await t.upload('u2', 'done', 'job-2');
    await t.start(rowsOf(3, (i) => i % 2), ['a.pdf', 'b.pdf'], ['u1', 'u2']);
    const r = await t.drain();
    expect(r).toMatchObject({ done: 0, failed: 0 });
    expect(t.calls).toHaveLength(0);
    const e = await t.entry();
    expect(e).toMatchObject({ kind: IMPORT_KIND, state: 'queued', error: IMPORT_WAITING_FILES, attempts: 0 });
    expect(e.nextAttemptAt).toBeGreaterThan(Date.now());
    // A paused file holds it too (the user may resume it or cancel it).
    await t.database.uploads.update('u1', { state: 'paused' });
    await t.drain();
    expect(t.calls).toHaveLength(0);
  });

  it('once the files are done sends the rows, then ImportDocuments with each file\'s Upload, the entry id as key, and tracks the import job', async () => {
    const t = setup();
    await t.upload('u1', 'sending');
    await t.upload('u2', 'done', 'job-2');
    const id = await t.start(rowsOf(3, (i) => i % 2), ['a.pdf', 'b.pdf'], ['u1', 'u2']);
    await t.drain();
    await t.database.uploads.update('u1', { state: 'done', jobId: 'job-1' });
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.batches()).toHaveLength(1);
    const key = t.batches()[0]!.body.Key as string;
    expect(t.batches()[0]!.body).toMatchObject({ Index: 0, Total: 3, Rows: [{ Line: 2, File: 0 }, { Line: 3, File: 1 }, { Line: 4, File: 0 }] });
    expect(t.starts()).toHaveLength(1);
    const s = t.starts()[0]!;
    expect((s.init.headers as Record<string, string>)['Idempotency-Key']).toBe(id);
    expect(s.body).toMatchObject({ Database: 1, Archive: 7, csvPath: 'docs.csv', Key: key, Total: 3, Files: [{ Name: 'a.pdf', Upload: 'job-1' }, { Name: 'b.pdf', Upload: 'job-2' }] });
    expect(await t.database.jobs.get('44')).toMatchObject({ kind: 'import', dbId: 1, total: 3, name: 'docs.csv', archiveId: 7, entryId: id, owner: 'user' });
  });

  it('a removed (never seen started), failed or never-queued file goes without Upload (the server fails only its rows)', async () => {
    const t = setup();
    await t.upload('u2', 'failed');
    await t.upload('u3', 'done', 'job-3');
    await t.start(rowsOf(4, (i) => i), ['gone.pdf', 'failed.pdf', 'ok.pdf', 'zero.pdf'], ['u-removed', 'u2', 'u3', null]);
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.starts()[0]!.body.Files).toEqual([{ Name: 'gone.pdf' }, { Name: 'failed.pdf' }, { Name: 'ok.pdf', Upload: 'job-3' }, { Name: 'zero.pdf' }]);
  });

  it('a done upload cleared from the tray while the import waited is still sent with its Upload (its job was kept)', async () => {
    const t = setup();
    await t.upload('u1', 'sending', 'job-1');
    await t.upload('u2', 'sending');
    await t.start(rowsOf(2, (i) => i), ['a.pdf', 'b.pdf'], ['u1', 'u2']);
    await t.drain();
    expect(((await t.entry()).meta as ImportMeta).known).toEqual(['job-1', null]);
    await t.database.uploads.update('u1', { state: 'done' });
    await t.drain();
    // The user clears the finished upload; the other one ends too.
    await t.database.uploads.delete('u1');
    await t.database.uploads.update('u2', { state: 'done', jobId: 'job-2' });
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.starts()[0]!.body.Files).toEqual([{ Name: 'a.pdf', Upload: 'job-1' }, { Name: 'b.pdf', Upload: 'job-2' }]);
  });

  it('resumes the row batches after a cut: the batches the server acknowledged are not sent again', async () => {
    let cut = true;
    const t = setup({
      fail: (c) => {
        if (cut && c.url.pathname.endsWith('/import/rows') && c.body.Index === 1) {
          cut = false;
          return 'network';
        }
        return null;
      },
    });
    await t.start(rowsOf(4_500), [], []);
    const first = await t.drain();
    expect(first.done).toBe(0);
    expect((await t.entry()).meta as ImportMeta).toMatchObject({ batches: 1 });
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.batches().map((b) => b.body.Index)).toEqual([0, 1, 2]);
    expect(t.batches().map((b) => (b.body.Rows as unknown[]).length)).toEqual([2_000, 2_000, 500]);
    expect(new Set(t.batches().map((b) => b.body.Key)).size).toBe(1);
    expect(t.starts()).toHaveLength(1);
    expect(t.starts()[0]!.body).toMatchObject({ Total: 4_500, Files: [] });
  });

  it('rows the server no longer has (409 BULK_UPDATE_ROWS_MISSING) are sent again once and the start repeated', async () => {
    let missing = true;
    const t = setup({
      fail: (c) => {
        if (missing && c.url.pathname.endsWith('/import/ImportDocuments')) {
          missing = false;
          return jsonResponse({ Message: 'rows missing', Key: 'BULK_UPDATE_ROWS_MISSING' }, { status: 409 });
        }
        return null;
      },
    });
    const id = await t.start(rowsOf(3), [], []);
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.batches()).toHaveLength(2);
    expect(t.starts()).toHaveLength(2);
    // The server replays a key's first answer, the 409 too: the second start has a key of its own.
    expect(t.starts().map((c) => (c.init.headers as Record<string, string>)['Idempotency-Key'])).toEqual([id, `${id}:rows-again`]);
  });

  it('a refusal keeps the server\'s key in meta for the tray', async () => {
    const t = setup({ fail: (c) => (c.url.pathname.endsWith('/import/ImportDocuments') ? jsonResponse({ Message: 'no', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 }) : null) });
    await t.start(rowsOf(1), [], []);
    expect(await t.drain()).toMatchObject({ failed: 1 });
    expect(((await t.entry()).meta as ImportMeta).refusedKey).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
  });
});
