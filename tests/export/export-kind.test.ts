import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { ArchiveDb } from '../../src/db/db';
import { drainOnce } from '../../src/sync/drain';
import '../../src/sync/all-kinds';
import { EXPORT_REQUEST_KIND, enqueueExportRequest, exportQueryStrings, type ExportRequestMeta } from '../../src/sync/kinds/export-request';
import { jsonResponse } from '../api/fake-fetch';

interface Call {
  url: URL;
  init: RequestInit;
}

function setup(answer: (c: Call) => Response = () => jsonResponse({ JobId: 91, State: 'queued', Count: 3 })) {
  const database = new ArchiveDb(`export-${Math.random()}`);
  const calls: Call[] = [];
  let online = true;
  configureHttp({
    baseUrl: () => 'http://test',
    token: () => 'tok-1',
    fetchFn: async (url, init) => {
      if (!online) throw new TypeError('Failed to fetch');
      const c = { url: new URL(String(url)), init: init ?? {} };
      calls.push(c);
      return answer(c);
    },
  });
  const drain = () => drainOnce({ database, token: () => 'tok-1', user: () => 'user', force: true, onSessionError: () => undefined });
  const entry = async () => (await database.outbox.orderBy('seq').toArray())[0]!;
  const start = () =>
    enqueueExportRequest(
      { settings: { DatabaseID: 1, ArchiveID: 7, SearchID: 3, FieldDelimiter: ',', StringDelimiter: '"', ExportWithCSV: true, FieldIDs: [5], Docs: [{ ArchiveID: 7, DocID: 11 }, { ArchiveID: 7, DocID: 12 }, { ArchiveID: 8, DocID: 13 }], Format: 'zip' }, count: 3, title: 'Export 3 documents' },
      database,
      'user',
    );
  return { database, calls, drain, entry, start, setOnline: (v: boolean) => (online = v) };
}

describe('export-request outbox kind', () => {
  it('is ONE POST of the settings with the Idempotency-Key and the token in a header; its JobId becomes a tracked export job', async () => {
    const t = setup();
    const id = await t.start();
    expect(await t.database.outbox.count()).toBe(1);
    expect(await t.entry()).toMatchObject({ kind: EXPORT_REQUEST_KIND, method: 'POST', path: '/api/dbs/1/export', state: 'queued', owner: 'user' });
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect(t.calls).toHaveLength(1);
    const c = t.calls[0]!;
    expect(c.url.pathname).toBe('/api/dbs/1/export');
    expect(c.url.searchParams.has('token')).toBe(false);
    const headers = c.init.headers as Record<string, string>;
    expect(headers['Idempotency-Key']).toBe(id);
    expect(headers['Auth-Token']).toBe('tok-1');
    expect(JSON.parse(String(c.init.body))).toMatchObject({ DatabaseID: 1, ArchiveID: 7, Docs: [{ ArchiveID: 7, DocID: 11 }, { ArchiveID: 7, DocID: 12 }, { ArchiveID: 8, DocID: 13 }], Format: 'zip' });
    expect((await t.entry()).state).toBe('done');
    const job = await t.database.jobs.get('91');
    expect(job).toMatchObject({ kind: 'export', dbId: 1, total: 3, owner: 'user', format: 'zip', archiveId: 7, entryId: id, state: 'queued', nextPollAt: 0 });
  });

  it('offline it waits in the outbox (not counted as a failure) and is sent with the same key when the connection returns', async () => {
    const t = setup();
    const id = await t.start();
    t.setOnline(false);
    expect(await t.drain()).toMatchObject({ retry: 1, done: 0 });
    expect(await t.entry()).toMatchObject({ state: 'queued', id });
    expect(await t.database.jobs.count()).toBe(0);
    t.setOnline(true);
    expect(await t.drain()).toMatchObject({ done: 1 });
    expect((t.calls[0]!.init.headers as Record<string, string>)['Idempotency-Key']).toBe(id);
    expect(await t.database.jobs.get('91')).toBeDefined();
  });

  it('a refusal ends the entry as refused and keeps the server key for the tray to translate', async () => {
    const t = setup(() => jsonResponse({ Message: 'Documents wait for PDF conversion', Key: 'ERROR_EXPORT_PDF_PENDING' }, { status: 409 }));
    await t.start();
    expect(await t.drain()).toMatchObject({ failed: 1 });
    const e = await t.entry();
    expect(e.state).toBe('failed');
    expect(e.reason).toMatchObject({ code: 'refused', status: 409 });
    expect((e.meta as ExportRequestMeta).refusedKey).toBe('ERROR_EXPORT_PDF_PENDING');
    expect(await t.database.jobs.count()).toBe(0);
  });

  it('a 400 without results and a 403 keep their keys too', async () => {
    for (const [status, key] of [[400, 'ERROR_EXPORT_NO_RESULTS'], [403, 'ERROR_FAILED_DUE_TO_PERMISSIONS']] as const) {
      const t = setup(() => jsonResponse({ Message: 'no', Key: key }, { status }));
      await t.start();
      await t.drain();
      expect(((await t.entry()).meta as ExportRequestMeta).refusedKey).toBe(key);
    }
  });

  it('the query names only what differs from the server defaults', () => {
    expect(exportQueryStrings({})).toEqual({});
    expect(exportQueryStrings({ field: 5, auditEntry: false, alwaysExportZip: true })).toEqual({ field: '5', auditEntry: 'false', alwaysExportZip: 'true' });
  });
});
