/**
 * Import documents with index data (src/api/import.ts): rows staged, files uploaded to the archive's
 * import staging, ImportDocuments writes ONE 'import' job that the runner (driven by hand here) works
 * row by row: good rows become documents with their values, file and pages exactly once; bad rows
 * fail with 'Line {n}: reason' and the spec's keys; the call's refusals.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvRowsReceived, type CsvRow } from '../../src/api/bulk-update';
import { IMPORT_KEYS, ImportAccepted, importPaths, type ImportRequestInput } from '../../src/api/import';
import { JOB_REASON_KEYS, Job, JobList, jobPaths } from '../../src/api/jobs';
import { UploadState, uploadPaths } from '../../src/api/upload';
import { JobRunner } from '../../server/jobs/runner';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 20 }, jobs: { run: false } });
  for (const u of ['user', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const post = (url: string, payload: unknown, user = 'user', key = randomUUID()) =>
  s.app.inject({ method: 'POST', url, headers: { 'auth-token': tokens[user]!, 'idempotency-key': key }, payload: payload as Record<string, unknown> });

async function pdf(pages: number, label: string): Promise<Uint8Array> {
  const d = await PDFDocument.create();
  d.setTitle(label);
  for (let i = 0; i < pages; i++) d.addPage([200, 200]);
  return d.save();
}

/** A file uploaded (one chunk) to the archive's import staging; its upload JobID. */
async function upload(name: string, bytes: Uint8Array, archiveId: number = A.correspondence, user = 'user'): Promise<string> {
  const r = await post(uploadPaths.upload, { FileName: name, Size: bytes.byteLength, Sha256: sha(bytes), Target: { DatabaseID: 1, ArchiveID: archiveId } }, user);
  expect(r.statusCode, r.body).toBe(200);
  const st = UploadState.parse(r.json());
  const c = await s.app.inject({ method: 'POST', url: uploadPaths.chunk, query: { JobID: st.JobID, Index: '0' }, headers: { 'auth-token': tokens[user]!, 'content-type': 'application/octet-stream' }, payload: Buffer.from(bytes) });
  expect(c.statusCode, c.body).toBe(200);
  expect(UploadState.parse(c.json()).State).toBe('done');
  return st.JobID;
}

async function stage(rows: CsvRow[], user = 'user'): Promise<string> {
  const key = `import-${randomUUID()}`;
  const r = await post(importPaths.rows(1), { Key: key, Index: 0, Total: rows.length, Rows: rows }, user);
  expect(r.statusCode, r.body).toBe(200);
  expect(CsvRowsReceived.parse(r.json()).Received).toBe(rows.length);
  return key;
}

const options = (key: string, total: number, extra: Partial<ImportRequestInput> = {}): ImportRequestInput => ({
  Database: 1,
  Archive: A.correspondence,
  csvPath: 'letters.csv',
  errorPath: 'letters-errors.csv',
  FieldMapping: [
    { FieldID: F.title, RowID: 0, Checked: true },
    { FieldID: F.documentDate, RowID: 1, Checked: true },
    { FieldID: F.notes, RowID: 2, Checked: true },
  ],
  Key: key,
  Total: total,
  Files: [],
  ...extra,
});

const job = async (id: number) => Job.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens.user}` })).json());
async function finished(id: number): Promise<Job> {
  for (let i = 0; i < 10; i++) {
    await new JobRunner({ store: s.store, now: () => s.clock.t, bootId: randomUUID(), exports: { files: s.files, dir: s.files.root } }).runOnce();
    const j = await job(id);
    if (!['queued', 'running'].includes(j.State)) return j;
  }
  return job(id);
}

interface DocRow {
  id: number;
  fields: Record<string, string>;
  file_name: string | null;
  page_count: number;
}
async function importedBy(jobId: number): Promise<DocRow[]> {
  const r = await s.store.query<DocRow>(
    `SELECT d.id, d.fields, d.file_name, d.page_count FROM documents d JOIN audit_entries a ON a.document_id = d.id
      WHERE a.category = 'indexed' AND (a.details->>'JobId')::int = $1 ORDER BY (a.details->>'Line')::int`,
    [jobId],
  );
  return r.rows.map((d) => ({ ...d, id: Number(d.id), page_count: Number(d.page_count) }));
}

describe('ImportDocuments', () => {
  it('imports good rows once with their values, files and pages, and fails bad rows by line with the spec keys', async () => {
    const three = await pdf(3, 'three');
    const one = await pdf(1, 'one');
    const files = [
      { Name: 'three.pdf', Upload: await upload('three.pdf', three) },
      { Name: 'one.pdf', Upload: await upload('one.pdf', one) },
      // Named by a row, never uploaded.
      { Name: 'lost.pdf' },
    ];
    const rows: CsvRow[] = [
      { Line: 2, File: 0, Values: [{ ID: F.title, VAL: 'Letter, with comma' }, { ID: F.documentDate, VAL: '2026-03-01' }, { ID: F.notes, VAL: 'first\nsecond line' }] },
      { Line: 4, File: 1, Values: [{ ID: F.title, VAL: 'Bad date' }, { ID: F.documentDate, VAL: '2026-02-31' }] },
      { Line: 5, File: 1, Values: [{ ID: F.title, VAL: '' }, { ID: F.documentDate, VAL: '2026-03-02' }] },
      { Line: 6, File: 2, Values: [{ ID: F.title, VAL: 'Lost file' }] },
      { Line: 7, Values: [{ ID: F.title, VAL: 'Index data only' }, { ID: F.notes, VAL: 'x'.repeat(501) }] },
      { Line: 8, Values: [{ ID: F.title, VAL: 'Index only, fine' }] },
      { Line: 9, File: 1, Values: [{ ID: F.title, VAL: 'Second use of one.pdf' }] },
    ];
    const key = await stage(rows);
    const started = await post(importPaths.start(1), options(key, rows.length, { Files: files }));
    expect(started.statusCode, started.body).toBe(200);
    const accepted = ImportAccepted.parse(started.json());
    expect(accepted.Count).toBe(rows.length);
    // A repeat of the call (its answer lost) finds the same job.
    const again = await post(importPaths.start(1), options(key, rows.length, { Files: files }));
    expect(ImportAccepted.parse(again.json()).JobId).toBe(accepted.JobId);

    const j = await finished(accepted.JobId);
    expect(j).toMatchObject({ Kind: 'import', State: 'done', Count: 7, Succeeded: 3, Failed: 4 });
    const failures = (j.Failures ?? []).map((f) => ({ Line: f.Line, Key: f.Key, Message: f.Message }));
    expect(failures.map((f) => f.Line)).toEqual([4, 5, 6, 7]);
    expect(failures.map((f) => f.Key)).toEqual([IMPORT_KEYS.datatypeMismatch, IMPORT_KEYS.missingFields, IMPORT_KEYS.fileMissing, IMPORT_KEYS.datatypeMismatch]);
    for (const f of failures) expect(f.Message).toMatch(new RegExp(`^Line ${f.Line}: `));
    // Each reason also as a key and its parts, so the tray says it in the user's language.
    expect((j.Failures ?? []).map((f) => f.ReasonWords)).toEqual([
      { Key: JOB_REASON_KEYS.fieldRule, Params: { field: 'Document Date', rule: 'FIELD_INVALID_DATE' } },
      { Key: JOB_REASON_KEYS.fieldRule, Params: { field: 'Title', rule: 'FIELD_REQUIRED' } },
      { Key: JOB_REASON_KEYS.fileMissing },
      { Key: JOB_REASON_KEYS.fieldRule, Params: { field: 'Notes', rule: 'FIELD_TOO_LONG' } },
    ]);
    // The job list names the CSV, so another device titles it "Import of 7 documents from letters.csv".
    const list = JobList.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.list}?token=${tokens.user}` })).json());
    expect(list.find((x) => x.Id === accepted.JobId)).toMatchObject({ Kind: 'import', Name: 'letters.csv' });

    const docs = await importedBy(accepted.JobId);
    expect(docs.map((d) => d.fields[String(F.title)])).toEqual(['Letter, with comma', 'Index only, fine', 'Second use of one.pdf']);
    const [letter, indexOnly, second] = docs;
    expect(letter!.fields[String(F.documentDate)]).toBe('2026-03-01');
    expect(letter!.fields[String(F.notes)]).toBe('first\nsecond line');
    expect(letter).toMatchObject({ file_name: 'three.pdf', page_count: 3 });
    // The system fields are the server's: page count, file type, indexed by, date entered.
    expect(letter!.fields).toMatchObject({ [String(F.pageCount)]: '3', [String(F.fileType)]: 'PDF', [String(F.indexedBy)]: 'user' });
    expect(indexOnly).toMatchObject({ file_name: null, page_count: 0 });
    expect(second).toMatchObject({ file_name: 'one.pdf', page_count: 1 });
    // The stored file is the uploaded one, byte for byte, with one page row a page.
    const f = await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1', [letter!.id]);
    expect(f.rows.map((r) => r.sha256)).toEqual([sha(three)]);
    const pages = await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_pages WHERE document_id = $1', [letter!.id]);
    expect(pages.rows[0]!.n).toBe(3);
    // Working the job again imports nothing twice.
    await finished(accepted.JobId);
    expect((await importedBy(accepted.JobId)).length).toBe(3);
  });

  it('keeps mapped system values only with OverwriteSystem', async () => {
    const rows: CsvRow[] = [{ Line: 2, Values: [{ ID: F.title, VAL: 'Overwritten' }, { ID: F.indexedBy, VAL: 'legacy-clerk' }] }];
    const mapping = [
      { FieldID: F.title, RowID: 0, Checked: true },
      { FieldID: F.indexedBy, RowID: 1, Checked: true },
    ];
    const on = ImportAccepted.parse((await post(importPaths.start(1), options(await stage(rows), 1, { FieldMapping: mapping, OverwriteSystem: true }))).json());
    expect(await finished(on.JobId)).toMatchObject({ Succeeded: 1 });
    expect((await importedBy(on.JobId))[0]!.fields[String(F.indexedBy)]).toBe('legacy-clerk');
    const off = ImportAccepted.parse((await post(importPaths.start(1), options(await stage(rows), 1, { FieldMapping: mapping }))).json());
    const j = await finished(off.JobId);
    expect(j).toMatchObject({ Succeeded: 0, Failed: 1 });
    expect(j.Failures?.[0]?.Message).toMatch(/^Line 2: Field Indexed By is read-only/);
  });

  it('refuses a mapping that leaves a required field out (ERROR_IMPORT_MISSING_FIELDS), an unknown field, missing rows', async () => {
    const key = await stage([{ Line: 2, Values: [{ ID: F.notes, VAL: 'no title' }] }]);
    const noTitle = await post(importPaths.start(1), options(key, 1, { FieldMapping: [{ FieldID: F.notes, RowID: 0, Checked: true }] }));
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json()).toMatchObject({ Key: IMPORT_KEYS.missingFields });
    expect(noTitle.json().Message).toContain('Title');
    const unknown = await post(importPaths.start(1), options(key, 1, { FieldMapping: [{ FieldID: F.title, RowID: 0, Checked: true }, { FieldID: F.invoiceNumber, RowID: 1, Checked: true }] }));
    expect(unknown.statusCode).toBe(400);
    const missing = await post(importPaths.start(1), options(key, 5));
    expect(missing.statusCode).toBe(409);
    expect(missing.json()).toMatchObject({ Key: 'BULK_UPDATE_ROWS_MISSING' });
  });

  it('refuses the read-only licence, a user without add right, and a file uploaded to another archive', async () => {
    const rows: CsvRow[] = [{ Line: 2, Values: [{ ID: F.title, VAL: 'x' }] }];
    expect((await post(importPaths.rows(1), { Key: `k-${randomUUID()}`, Index: 0, Total: 1, Rows: rows }, 'viewer')).statusCode).toBe(403);
    expect((await post(importPaths.start(1), options(`k-${randomUUID()}`, 1), 'viewer')).statusCode).toBe(403);
    // The clerk has no rights on Contracts.
    const clerkKey = await stage(rows, 'clerk');
    const clerk = await post(importPaths.start(1), options(clerkKey, 1, { Archive: A.contracts }), 'clerk');
    expect([403, 404]).toContain(clerk.statusCode);
    // A file staged for Invoices does not go into Correspondence: its row fails, the others go on.
    const elsewhere = await upload('elsewhere.pdf', await pdf(1, 'elsewhere'), A.invoices);
    const key = await stage([{ Line: 2, File: 0, Values: [{ ID: F.title, VAL: 'wrong archive' }] }]);
    const a = ImportAccepted.parse((await post(importPaths.start(1), options(key, 1, { Files: [{ Name: 'elsewhere.pdf', Upload: elsewhere }] }))).json());
    const j = await finished(a.JobId);
    expect(j.Failures?.map((f) => f.Key)).toEqual([IMPORT_KEYS.fileMissing]);
  });
});
