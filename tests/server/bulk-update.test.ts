/**
 * Bulk update (src/api/bulk-update.ts): the Count calls are a dry run, the Update calls write one
 * 'bulk-update' job that the runner (driven by hand here) works document by document. The dry run's
 * changes are compared with the history entries the job writes and the values it leaves.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BULK_UPDATE_ROWS_MISSING_KEY,
  BulkUpdateAccepted,
  BulkUpdateCount,
  CsvRowsReceived,
  UPDATE_REVISION_ARCHIVE_KEY,
  bulkUpdatePaths,
  type BasicBulkUpdate,
  type BulkChange,
  type CsvRow,
} from '../../src/api/bulk-update';
import { JOB_REASON_KEYS, Job, jobPaths } from '../../src/api/jobs';
import { SearchDetail } from '../../src/api/search';
import { JobRunner } from '../../server/jobs/runner';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const S = SEED_IDS.search;
let s: TestServer;
const tokens: Record<string, string> = {};
let invoices: (n: number) => PoolDoc[];
let contracts: (n: number) => PoolDoc[];

beforeAll(async () => {
  s = await startServer({ seed: { docs: 160 }, jobs: { run: false } });
  for (const u of ['user', 'admin', 'viewer']) tokens[u] = await signIn(s, u);
  invoices = (await documentPool(s, A.invoices)).take;
  contracts = (await documentPool(s, A.contracts)).take;
});
afterAll(async () => {
  await s?.close();
});

const call = (path: string, payload: unknown, user = 'user', key?: string) =>
  s.app.inject({ method: 'POST', url: `${path}?token=${tokens[user]}`, headers: key ? { 'idempotency-key': key } : {}, payload: payload as Record<string, unknown> });
const job = async (id: number) => Job.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens.user}` })).json());
async function finished(id: number): Promise<Job> {
  for (let i = 0; i < 10; i++) {
    await new JobRunner({ store: s.store, now: () => s.clock.t, bootId: randomUUID() }).runOnce();
    const j = await job(id);
    if (!['queued', 'running'].includes(j.State)) return j;
  }
  return job(id);
}
async function stored(docId: number): Promise<{ fields: Record<string, string>; rev: number }> {
  const r = await s.store.query<{ fields: Record<string, string>; rev: number }>('SELECT fields, rev FROM documents WHERE id = $1', [docId]);
  return { fields: r.rows[0]!.fields, rev: Number(r.rows[0]!.rev) };
}
async function setField(docId: number, fieldId: number, value: string) {
  await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, $2::text[], to_jsonb($3::text)) WHERE id = $1`, [docId, `{${fieldId}}`, value]);
}
/** The changes the job's history entries name, as the dry run lists them (without the documents' names). */
async function historyChanges(jobId: number): Promise<BulkChange[]> {
  const r = await s.store.query<{ document_id: number; archive_id: number; details: { Fields: { ID: number; Old: string; New: string }[] } }>(
    `SELECT document_id, archive_id, details FROM audit_entries WHERE category = 'updated' AND (details->>'JobId')::int = $1 ORDER BY id`,
    [jobId],
  );
  return r.rows.flatMap((e) => e.details.Fields.map((f) => ({ DocID: Number(e.document_id), ArchiveID: e.archive_id, FieldID: f.ID, Old: f.Old, New: f.New })));
}
const unnamed = (changes: readonly BulkChange[]): BulkChange[] => changes.map(({ Name: _name, ...c }) => c);
const basic = (docs: PoolDoc[], values: BasicBulkUpdate['Values'], extra: Partial<BasicBulkUpdate> = {}): BasicBulkUpdate => ({
  DatabaseID: 1,
  ArchiveID: A.invoices,
  SearchID: S.allInvoices,
  SearchInfo: { SearchCriteria: '' },
  UpdateType: 'documentSelectUpdate',
  Docs: docs.map((d) => ({ ArchiveID: d.archive_id, DocID: d.id })),
  Values: values,
  ...extra,
});

describe('basic bulk update', () => {
  it('counts the documents that would change, lists the first changes, and the job makes exactly those', async () => {
    const docs = invoices(6);
    // Two already hold the new status: they count as unchanged and get no history entry.
    await setField(docs[0]!.id, F.status, 'Approved');
    await setField(docs[1]!.id, F.status, 'Approved');
    for (const d of docs.slice(2)) await setField(d.id, F.status, 'New');
    const revs = await Promise.all(docs.map((d) => stored(d.id).then((x) => x.rev)));
    const body = basic(docs, [{ ID: F.status, VAL: 'Approved' }], { Limit: 100 });

    const c = await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body);
    expect(c.statusCode, c.body).toBe(200);
    const count = BulkUpdateCount.parse(c.json());
    expect(count).toMatchObject({ Count: 4, Documents: 6, Unchanged: 2, RefusedCount: 0 });
    expect(count.Changes.map((x) => x.DocID)).toEqual(docs.slice(2).map((d) => d.id));
    expect(count.Changes.every((x) => x.Old === 'New' && x.New === 'Approved' && x.FieldID === F.status)).toBe(true);
    // Each named as the grid names it: its first character field with a value (the title), not "Document 7".
    const titles = await Promise.all(docs.slice(2).map((d) => stored(d.id).then((x) => String(x.fields[String(F.title)]))));
    expect(titles.every((x) => x.length > 0)).toBe(true);
    expect(count.Changes.map((x) => x.Name)).toEqual(titles);
    // Nothing changed yet.
    expect((await stored(docs[2]!.id)).fields[String(F.status)]).toBe('New');

    const u = await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), body, 'user', randomUUID());
    expect(u.statusCode, u.body).toBe(200);
    const accepted = BulkUpdateAccepted.parse(u.json());
    // The job is for the documents the confirmation counted ("4 documents will be updated"), not
    // for the 2 that already hold the value: the tray then says "4 of 4 done".
    expect(accepted.Count).toBe(count.Count);
    const j = await finished(accepted.JobId);
    expect(j).toMatchObject({ State: 'done', Kind: 'bulk-update', Count: 4, Processed: 4, Succeeded: 4, Failed: 0 });

    expect(await historyChanges(accepted.JobId)).toEqual(unnamed(count.Changes));
    for (const [i, d] of docs.entries()) {
      const after = await stored(d.id);
      expect(after.fields[String(F.status)]).toBe('Approved');
      // Rev moves only for a document that changed (open grids and queued edits see it).
      expect(after.rev > revs[i]!).toBe(i >= 2);
      if (i >= 2) expect(after.fields[String(F.lastModifiedBy)]).toBe('user');
    }
  });

  it('over a whole search: the count and the job take the search results with their criteria', async () => {
    const docs = invoices(3);
    const marker = `Bulk search ${randomUUID().slice(0, 8)}`;
    for (const d of docs) await setField(d.id, F.title, marker);
    const detail = SearchDetail.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${S.allInvoices}?token=${tokens.user}` })).json());
    const titlePrompt = detail.Detail.find((p) => p.Prompt === 'Title')!;
    const body = basic([], [{ ID: F.status, VAL: 'Paid' }], { UpdateType: 'simple', Docs: undefined, SearchInfo: { SearchCriteria: JSON.stringify([{ ID: titlePrompt.ID, VAL: marker }]) } });
    const count = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body)).json());
    expect(count.Documents).toBe(3);
    const wrongType = await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), body);
    expect(wrongType.statusCode).toBe(400);
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'UserPassedBulkUpdateSearch'), body, 'user', randomUUID())).json());
    await finished(accepted.JobId);
    expect((await historyChanges(accepted.JobId)).length).toBe(count.Count);
    for (const d of docs) expect((await stored(d.id)).fields[String(F.status)]).toBe('Paid');
  });

  it('a value the field rules refuse refuses each document with its reason; the job takes none of them', async () => {
    const docs = invoices(2);
    const body = basic(docs, [{ ID: F.invoiceNumber, VAL: '12ab' }]);
    const count = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body)).json());
    expect(count).toMatchObject({ Count: 0, RefusedCount: 2 });
    expect(count.Refused[0]!.Message).toMatch(new RegExp(`^DocID ${docs[0]!.id}: `));
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), body, 'user', randomUUID())).json());
    expect(accepted).toMatchObject({ Count: 0, State: 'done' });
  });

  it('one document will be updated, one already holds the value: the job is of 1 document and says 1 of 1 done', async () => {
    const docs = invoices(2);
    await setField(docs[0]!.id, F.status, 'Paid');
    await setField(docs[1]!.id, F.status, 'New');
    const body = basic(docs, [{ ID: F.status, VAL: 'Paid' }]);
    const count = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body)).json());
    expect(count).toMatchObject({ Count: 1, Documents: 2, Unchanged: 1 });
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), body, 'user', randomUUID())).json());
    expect(accepted.Count).toBe(1);
    expect(await finished(accepted.JobId)).toMatchObject({ State: 'done', Count: 1, Processed: 1, Succeeded: 1, Failed: 0 });
    expect((await historyChanges(accepted.JobId)).map((c) => c.DocID)).toEqual([docs[1]!.id]);
  });

  it('a document checked out by someone else after the confirmation fails in the job as DocID {id}: reason, with its key and parts', async () => {
    const docs = invoices(2);
    for (const d of docs) await setField(d.id, F.status, 'New');
    const body = basic(docs, [{ ID: F.status, VAL: 'Approved' }]);
    expect(BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body)).json())).toMatchObject({ Count: 2 });
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), body, 'user', randomUUID())).json());
    await s.store.query('UPDATE documents SET checked_out_by = $2 WHERE id = $1', [docs[0]!.id, SEED_IDS.user.admin]);
    try {
      const j = await finished(accepted.JobId);
      expect(j).toMatchObject({ State: 'done', Succeeded: 1, Failed: 1 });
      expect(j.Failures).toHaveLength(1);
      expect(j.Failures![0]).toMatchObject({
        DocID: docs[0]!.id,
        Key: 'ERROR_DOCUMENT_CHECKED_OUT',
        Message: `DocID ${docs[0]!.id}: The document is checked out by another user`,
        ReasonWords: { Key: JOB_REASON_KEYS.checkedOut },
      });
    } finally {
      await s.store.query('UPDATE documents SET checked_out_by = NULL WHERE id = $1', [docs[0]!.id]);
    }
  });

  it('a dynamic-list value is judged against the list its parents allow, on the document as it will be', async () => {
    const docs = (await documentPool(s, A.outgoing)).take(2);
    for (const d of docs) {
      await setField(d.id, F.country, 'USA');
      await setField(d.id, F.region, 'East');
      await setField(d.id, F.city, 'Boston');
    }
    const body = (values: BasicBulkUpdate['Values']) => basic(docs, values, { ArchiveID: A.outgoing, SearchID: S.correspondence });
    // Paris is no city of USA/East; with its country and region changed too it is.
    const refused = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), body([{ ID: F.city, VAL: 'Paris' }]))).json());
    expect(refused).toMatchObject({ Count: 0, RefusedCount: 2 });
    expect(refused.Refused[0]!.Key).toBe('FIELD_NOT_IN_LIST');
    const allowed = body([{ ID: F.country, VAL: 'France' }, { ID: F.region, VAL: 'North' }, { ID: F.city, VAL: 'Paris' }]);
    expect(BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), allowed)).json())).toMatchObject({ Count: 2, RefusedCount: 0 });
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'UserPassedUpdateSearch'), allowed, 'user', randomUUID())).json());
    expect(await finished(accepted.JobId)).toMatchObject({ State: 'done', Succeeded: 2 });
    expect((await stored(docs[0]!.id)).fields[String(F.city)]).toBe('Paris');
  });

  it('a revision-control archive is refused (ERROR_UPDATE_REVISION_ARCHIVE); the read-only licence gets 403', async () => {
    const docs = contracts(1);
    const body = basic(docs, [{ ID: F.notes, VAL: 'x' }], { ArchiveID: A.contracts, SearchID: S.contracts });
    for (const path of [bulkUpdatePaths.call(1, 'BasicSearchCount'), bulkUpdatePaths.call(1, 'UserPassedUpdateSearch')]) {
      const r = await call(path, body);
      expect(r.statusCode).toBe(400);
      expect(r.json().Key).toBe(UPDATE_REVISION_ARCHIVE_KEY);
    }
    const viewer = await call(bulkUpdatePaths.call(1, 'BasicSearchCount'), basic(invoices(1), [{ ID: F.status, VAL: 'Paid' }]), 'viewer');
    expect(viewer.statusCode).toBe(403);
  });
});

describe('CSV bulk update', () => {
  const rows = (key: string, index: number, total: number, list: CsvRow[]) => call(bulkUpdatePaths.call(1, 'rows'), { Key: key, Index: index, Total: total, Rows: list });

  it('rows arrive in batches; the count waits for all of them; the dry run equals what the job changes', async () => {
    const docs = invoices(5);
    const [contract] = contracts(1);
    for (const d of docs) await setField(d.id, F.status, 'New');
    const key = randomUUID();
    const list: CsvRow[] = [
      ...docs.slice(0, 4).map((d, i) => ({ DocID: d.id, ArchiveID: A.invoices, Values: [{ ID: F.status, VAL: 'Approved' }, { ID: F.title, VAL: `Row, "quoted" ${i}` }], Line: i + 2 })),
      // A bad date, a revision-control archive, a document that is not there, a repeat (the first row wins).
      { DocID: docs[4]!.id, ArchiveID: A.invoices, Values: [{ ID: F.documentDate, VAL: '2026-02-31' }], Line: 6 },
      { DocID: contract!.id, ArchiveID: A.contracts, Values: [{ ID: F.notes, VAL: 'x' }], Line: 7 },
      { DocID: 99_999_999, ArchiveID: A.invoices, Values: [{ ID: F.status, VAL: 'Paid' }], Line: 8 },
      { DocID: docs[0]!.id, ArchiveID: A.invoices, Values: [{ ID: F.status, VAL: 'Paid' }], Line: 9 },
    ];
    const first = await rows(key, 0, list.length, list.slice(0, 4));
    expect(CsvRowsReceived.parse(first.json())).toEqual({ Received: 4, Total: 8 });
    const early = await call(bulkUpdatePaths.call(1, 'CSVUpdateCount'), { DatabaseID: 1, Key: key, Total: 8 });
    expect(early.statusCode).toBe(409);
    expect(early.json().Key).toBe(BULK_UPDATE_ROWS_MISSING_KEY);
    // A batch sent again (a lost answer) adds nothing; the whole batch again adds only the rows that were missing.
    expect((await rows(key, 0, 8, list.slice(0, 4))).json().Received).toBe(4);
    const rest = await rows(key, 0, 8, list);
    expect(CsvRowsReceived.parse(rest.json()).Received).toBe(8);

    const count = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'CSVUpdateCount'), { DatabaseID: 1, Key: key, Total: 8, Limit: 100 })).json());
    expect(count).toMatchObject({ Count: 4, RefusedCount: 3 });
    const refused = new Map(count.Refused.map((r) => [r.DocID, r]));
    expect(refused.get(docs[4]!.id)?.Line).toBe(6);
    expect(refused.get(contract!.id)?.Key).toBe(UPDATE_REVISION_ARCHIVE_KEY);
    expect(refused.get(99_999_999)?.Key).toBe('ERROR_NOT_FOUND');

    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'BulkUpdateDirect'), { DatabaseID: 1, Key: key, Total: 8 })).json());
    // Only the 4 documents the count said change: the 3 refused rows take no item.
    expect(accepted.Count).toBe(count.Count);
    // The same rows never start a second job.
    const again = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'BulkUpdateDirect'), { DatabaseID: 1, Key: key, Total: 8 })).json());
    expect(again.JobId).toBe(accepted.JobId);
    const j = await finished(accepted.JobId);
    expect(j).toMatchObject({ State: 'done', Succeeded: 4, Failed: 0 });
    const changed = await historyChanges(accepted.JobId);
    expect(changed).toEqual(unnamed(count.Changes));
    expect(new Set(changed.map((c) => c.DocID)).size).toBe(count.Count);
    expect((await stored(docs[0]!.id)).fields[String(F.status)]).toBe('Approved');
    expect((await stored(docs[1]!.id)).fields[String(F.title)]).toBe('Row, "quoted" 1');
    expect(j.Failures).toEqual([]);
  });

  it('a search update runs each row\'s search and gives its documents the row\'s values', async () => {
    const docs = invoices(4);
    const a = `CSV search A ${randomUUID().slice(0, 6)}`;
    const b = `CSV search B ${randomUUID().slice(0, 6)}`;
    for (const [i, d] of docs.entries()) await setField(d.id, F.title, i < 2 ? a : b);
    const detail = SearchDetail.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${S.allInvoices}?token=${tokens.user}` })).json());
    const titlePrompt = detail.Detail.find((p) => p.Prompt === 'Title')!;
    const key = randomUUID();
    const list: CsvRow[] = [
      { Criteria: JSON.stringify([{ ID: titlePrompt.ID, VAL: a }]), Values: [{ ID: F.status, VAL: 'Paid' }], Line: 2 },
      { Criteria: JSON.stringify([{ ID: titlePrompt.ID, VAL: b }]), Values: [{ ID: F.status, VAL: 'Approved' }], Line: 3 },
    ];
    await rows(key, 0, 2, list);
    const noSearch = await call(bulkUpdatePaths.call(1, 'BulkUpdateSearchCount'), { DatabaseID: 1, Key: key, Total: 2 });
    expect(noSearch.statusCode).toBe(400);
    const body = { DatabaseID: 1, Key: key, Total: 2, SearchID: S.allInvoices, ArchiveID: A.invoices, Limit: 100 };
    const count = BulkUpdateCount.parse((await call(bulkUpdatePaths.call(1, 'BulkUpdateSearchCount'), body)).json());
    expect(count.Documents).toBe(4);
    const accepted = BulkUpdateAccepted.parse((await call(bulkUpdatePaths.call(1, 'BulkUpdateSearch'), body)).json());
    await finished(accepted.JobId);
    expect(await historyChanges(accepted.JobId)).toEqual(unnamed(count.Changes));
    expect((await stored(docs[0]!.id)).fields[String(F.status)]).toBe('Paid');
    expect((await stored(docs[3]!.id)).fields[String(F.status)]).toBe('Approved');
  });
});
