/**
 * Export as a server job (src/api/export.ts): POST api/dbs/{db}/export starts a job, the runner
 * (driven by hand here: jobs.run false) writes the zip, GET api/dbs/{db}/export?jobid streams it.
 * The zips are read back with fflate and compared with the blob store's bytes and the index data
 * in the database.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentOperationAccepted, documentPaths } from '../../src/api/documents';
import { ErrorBody } from '../../src/api/errors';
import {
  EXPORT_EXPIRED_KEY,
  EXPORT_IN_WORKFLOW_KEY,
  EXPORT_KEEP_HOURS,
  EXPORT_NO_RESULTS_KEY,
  EXPORT_NOT_READY_KEY,
  EXPORT_PDF_PENDING_KEY,
  EXPORT_PDF_WORKFLOW_PENDING_KEY,
  ExportAccepted,
  ExportNote,
  XLSX_MIME,
  exportPaths,
  type ExportSettings,
} from '../../src/api/export';
import { Job, JobList, jobPaths } from '../../src/api/jobs';
import { SearchDetail } from '../../src/api/search';
import type { Store } from '../../server/db/store';
import { JobRunner } from '../../server/jobs/runner';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { EXPORT_HELD_ARCHIVE } from '../../server/seed/seed';
import { purgeExports, StreamGuard } from '../../server/services/export';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const S = SEED_IDS.search;
const LEASE_MS = 15_000;
let s: TestServer;
const tokens: Record<string, string> = {};
let invoices: (n: number) => PoolDoc[];
let correspondence: (n: number) => PoolDoc[];

/** Fresh licences: after the clock jumps a day, the earlier ones have lapsed. */
async function signInAll() {
  for (const u of ['user', 'admin', 'viewer']) tokens[u] = await signIn(s, u);
}

beforeAll(async () => {
  s = await startServer({ seed: { docs: 600 }, jobs: { run: false } });
  await signInAll();
  invoices = (await documentPool(s, A.invoices)).take;
  correspondence = (await documentPool(s, A.correspondence)).take;
});
afterAll(async () => {
  await s?.close();
});

const runner = (bootId: string = randomUUID(), store: Store = s.store) =>
  new JobRunner({ store, now: () => s.clock.t, bootId, leaseMs: LEASE_MS, exports: { files: s.files, dir: s.exportDir } });

type Body = Partial<ExportSettings>;
function post(body: Body, opts: { user?: string; query?: string; key?: string } = {}) {
  return s.app.inject({
    method: 'POST',
    url: `${exportPaths.job(1)}?token=${tokens[opts.user ?? 'user']}${opts.query ? `&${opts.query}` : ''}`,
    headers: opts.key ? { 'idempotency-key': opts.key } : {},
    payload: { DatabaseID: 1, ArchiveID: A.invoices, ...body },
  });
}
const docsOf = (docs: PoolDoc[]) => docs.map((d) => ({ ArchiveID: d.archive_id, DocID: d.id }));
async function start(body: Body, opts: { user?: string; query?: string; key?: string } = {}): Promise<number> {
  const r = await post(body, opts);
  expect(r.statusCode, r.body).toBe(200);
  return ExportAccepted.parse(r.json()).JobId;
}
const download = (id: number, user = 'user') => s.app.inject({ method: 'GET', url: `${exportPaths.job(1)}?jobid=${id}&token=${tokens[user]}` });
const job = async (id: number) => Job.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens.user}` })).json());
/** Runs jobs until this one has ended (an older job of another test may be claimed first). */
async function finished(id: number): Promise<Job> {
  for (let i = 0; i < 5; i++) {
    await runner().runOnce();
    const j = await job(id);
    if (!['queued', 'running'].includes(j.State)) return j;
  }
  return job(id);
}
const unzip = (body: Buffer) => unzipSync(new Uint8Array(body));
const text = (b: Uint8Array | undefined) => Buffer.from(b ?? new Uint8Array()).toString('utf8');

async function storedFiles(docId: number): Promise<{ name: string; bytes: Buffer }[]> {
  const r = await s.store.query<{ sha256: string; file_name: string }>('SELECT sha256, file_name FROM document_files WHERE document_id = $1 ORDER BY position, id', [docId]);
  return Promise.all(r.rows.map(async (f) => ({ name: f.file_name, bytes: await s.files.get(f.sha256) })));
}
async function indexRow(docId: number, fieldIds: number[]): Promise<string[]> {
  const r = await s.store.query<{ archive_id: number; fields: Record<string, string>; mvals: Record<string, string[]> }>('SELECT archive_id, fields, mvals FROM documents WHERE id = $1', [docId]);
  const d = r.rows[0]!;
  return fieldIds.map((f) => (d.mvals[String(f)] ? d.mvals[String(f)]!.join('; ') : (d.fields[String(f)] ?? '')));
}
async function setField(docId: number, fieldId: number, value: string) {
  await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, $2::text[], to_jsonb($3::text)) WHERE id = $1`, [docId, `{${fieldId}}`, value]);
}

/** RFC 4180 reading with any one-character delimiter and quote. */
function parseCsv(src: string, delim: string, quote: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === quote && src[i + 1] === quote) {
        cell += quote;
        i++;
      } else if (c === quote) quoted = false;
      else cell += c;
    } else if (c === quote) quoted = true;
    else if (c === delim) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && src[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('export job: the zip', () => {
  it('an export of N documents unzips with every file (the stored bytes) and a CSV whose rows are the index data', async () => {
    const docs = invoices(8);
    // A value with the delimiter, the quote and a line break, and one with none.
    await setField(docs[0]!.id, F.title, 'Semi;colon "quoted"\nsecond line');
    await setField(docs[1]!.id, F.title, 'plain');
    const fieldIds = [F.title, F.invoiceNumber, F.amount, F.item];
    const t0 = Date.now();
    const id = await start({ Docs: docsOf(docs), ExportWithCSV: true, FieldDelimiter: ';', StringDelimiter: '"', FieldIDs: fieldIds, FilePath: 'Invoices 2026', Filename: 'my export' });
    expect((await job(id)).State).toBe('queued');
    const done = await finished(id);
    expect(done).toMatchObject({ Kind: 'export', State: 'done', Count: 8, Processed: 8, Succeeded: 8, Failed: 0 });
    const note = ExportNote.parse(done.Notes[0]![1]);
    expect(done.Notes[0]![0]).toBe(1);
    expect(note).toMatchObject({ JobId: id, FileName: 'my export.zip', Format: 'zip' });
    expect(Date.parse(note.Expires)).toBe(s.clock.t + EXPORT_KEEP_HOURS * 3_600_000);

    const r = await download(id);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
    expect(r.rawPayload.length).toBe(note.Size);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="my export.zip"; filename*=UTF-8''my%20export.zip`);
    const mb = r.rawPayload.length / 1_048_576;
    console.log(`export of 8 documents: ${mb.toFixed(2)} MB in ${Date.now() - t0} ms`);

    const zip = unzip(r.rawPayload);
    const names = Object.keys(zip);
    // Every document's file in the folder, in order, then the CSV last.
    const expected: string[] = [];
    for (const d of docs) {
      for (const f of await storedFiles(d.id)) {
        expect(Buffer.from(zip[`Invoices 2026/${f.name}`]!).equals(f.bytes), `${f.name} bytes`).toBe(true);
        expected.push(`Invoices 2026/${f.name}`);
      }
    }
    expect(names).toEqual([...expected, 'Invoices 2026/index.csv']);

    const rows = parseCsv(text(zip['Invoices 2026/index.csv']), ';', '"');
    expect(rows[0]).toEqual(['ArchiveID', 'DocID', 'File', 'Title', 'Invoice Number', 'Amount', 'Item']);
    expect(rows).toHaveLength(docs.length + 1);
    for (const [i, d] of docs.entries()) {
      const files = (await storedFiles(d.id)).map((f) => f.name).join('; ');
      expect(rows[i + 1]).toEqual([String(A.invoices), String(d.id), files, ...(await indexRow(d.id, fieldIds))]);
    }
    expect(rows[1]![3]).toBe('Semi;colon "quoted"\nsecond line');
    // Quoted only where needed: the odd value, and a table field's joined values when they hold '; '.
    const raw = text(zip['Invoices 2026/index.csv']);
    expect(raw).toContain('"Semi;colon ""quoted""\nsecond line"');
    expect(raw).toContain(`;plain;`);

    // One 'exported' history entry per document (auditEntry defaults to true).
    const hist = await s.store.query<{ document_id: number; details: { JobId: number; Event: { Kind: string } } }>(
      "SELECT document_id, details FROM audit_entries WHERE category = 'exported' AND details->>'JobId' = $1 ORDER BY id",
      [String(id)],
    );
    expect(hist.rows.map((h) => Number(h.document_id))).toEqual(docs.map((d) => d.id));
    expect(hist.rows[0]!.details.Event.Kind).toBe('exported-csv');
    // Nothing left but the result.
    expect(readdirSync(s.exportDir).filter((n) => n.startsWith(`job-${id}-`))).toEqual([]);
  });

  it("UseString quotes every value with the StringDelimiter (doubled inside); another delimiter; no history with auditEntry=false", async () => {
    const docs = invoices(2);
    await setField(docs[0]!.id, F.title, "O'Brien, tab\there");
    const id = await start({ Docs: docsOf(docs), ExportWithCSV: true, FieldDelimiter: '\t', StringDelimiter: "'", UseString: true, FieldIDs: [F.title], CsvFile: 'data' }, { query: 'auditEntry=false' });
    await finished(id);
    const zip = unzip((await download(id)).rawPayload);
    const csv = text(zip['data.csv']);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe("'ArchiveID'\t'DocID'\t'File'\t'Title'");
    expect(lines[1]).toBe(`'${A.invoices}'\t'${docs[0]!.id}'\t'${(await storedFiles(docs[0]!.id))[0]!.name}'\t'O''Brien, tab\there'`);
    expect(parseCsv(csv, '\t', "'")[1]![3]).toBe("O'Brien, tab\there");
    const hist = await s.store.query("SELECT 1 FROM audit_entries WHERE category = 'exported' AND details->>'JobId' = $1", [String(id)]);
    expect(hist.rowCount).toBe(0);
  });

  it('field= names each file by that field, made safe and unique; alwaysExportZip=false with one document gives its file itself', async () => {
    // Two PDF documents (same extension, so their names collide) and one left unnamed.
    const pdfs: PoolDoc[] = [];
    for (const d of invoices(8)) if ((await storedFiles(d.id))[0]!.name.endsWith('.pdf')) pdfs.push(d);
    const docs = pdfs.slice(0, 3);
    expect(docs).toHaveLength(3);
    await setField(docs[0]!.id, F.reference, 'A/B: "x"');
    await setField(docs[1]!.id, F.reference, 'a/b: "X"');
    await setField(docs[2]!.id, F.reference, '');
    const id = await start({ Docs: docsOf(docs) }, { query: `field=${F.reference}` });
    await finished(id);
    const names = Object.keys(unzip((await download(id)).rawPayload));
    expect(names).toEqual(['A_B_ _x_.pdf', 'a_b_ _X_ (2).pdf', (await storedFiles(docs[2]!.id))[0]!.name]);

    const one = invoices(1)[0]!;
    const single = await start({ Docs: docsOf([one]), Filename: 'Straße' }, { query: 'alwaysExportZip=false' });
    await finished(single);
    const r = await download(single);
    const file = (await storedFiles(one.id))[0]!;
    const fext = file.name.split('.').pop()!;
    expect(r.headers['content-type']).toBe(fext === 'pdf' ? 'application/pdf' : 'image/tiff');
    // An ASCII stand-in for old clients, the exact name (RFC 5987) for the rest.
    expect(r.headers['content-disposition']).toBe(`attachment; filename="Stra_e.${fext}"; filename*=UTF-8''Stra%C3%9Fe.${fext}`);
    expect(r.rawPayload.equals(file.bytes)).toBe(true);

    // A document of two files is still a zip of both.
    const two = invoices(1)[0]!;
    const first = (await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1', [two.id])).rows[0]!;
    await s.store.query(`INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count) VALUES ($1, 1, $2, 'second page.pdf', 'PDF', 1)`, [two.id, first.sha256]);
    const zipped = await start({ Docs: docsOf([two]) }, { query: 'alwaysExportZip=false' });
    await finished(zipped);
    const z = await download(zipped);
    expect(z.headers['content-type']).toBe('application/zip');
    expect(Object.keys(unzip(z.rawPayload))).toEqual((await storedFiles(two.id)).map((f) => f.name));
  });

  it('ConvertToPDF: a TIFF document goes into the zip as a PDF of its pages; a PDF as it is', async () => {
    const tiffs: PoolDoc[] = [];
    const pdfs: PoolDoc[] = [];
    for (const d of correspondence(10)) ((await storedFiles(d.id))[0]!.name.endsWith('.tif') ? tiffs : pdfs).push(d);
    expect(tiffs.length && pdfs.length).toBeTruthy();
    const [tif, pdf] = [tiffs[0]!, pdfs[0]!];
    const id = await start({ ArchiveID: A.correspondence, Docs: docsOf([tif, pdf]), ConvertToPDF: true });
    expect((await finished(id)).State).toBe('done');
    const zip = unzip((await download(id)).rawPayload);
    const tifName = (await storedFiles(tif.id))[0]!.name.replace(/\.tif$/, '.pdf');
    const pdfFile = (await storedFiles(pdf.id))[0]!;
    expect(Object.keys(zip)).toEqual([tifName, pdfFile.name]);
    const converted = await PDFDocument.load(zip[tifName]!);
    const pages = await s.store.query<{ page_count: number }>('SELECT page_count FROM documents WHERE id = $1', [tif.id]);
    expect(converted.getPageCount()).toBe(pages.rows[0]!.page_count);
    expect(Buffer.from(zip[pdfFile.name]!).equals(pdfFile.bytes)).toBe(true);
    const hist = await s.store.query<{ details: { Event: { Kind: string } } }>("SELECT details FROM audit_entries WHERE category = 'exported' AND details->>'JobId' = $1", [String(id)]);
    expect(hist.rows.map((h) => h.details.Event.Kind)).toEqual(['exported-pdf', 'exported-pdf']);
  });

  it('by saved search: every document the search finds in the archive, in the grid order; criteria that match nothing: 400 ERROR_EXPORT_NO_RESULTS', async () => {
    const page = await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${S.allInvoices}/archive/${A.paidInvoices}/documents?token=${tokens.user}&SearchCriteria=%5B%5D&RecordsPerPage=1000` });
    const grid = (page.json() as { Docs: { Id: number }[] }).Docs.map((d) => d.Id);
    expect(grid.length).toBeGreaterThan(3);
    const id = await start({ ArchiveID: A.paidInvoices, SearchID: S.allInvoices, SearchCriteria: '[]', ExportWithCSV: true, FieldIDs: [F.title] });
    const done = await finished(id);
    expect(done).toMatchObject({ Count: grid.length, Succeeded: grid.length });
    const rows = parseCsv(text(unzip((await download(id)).rawPayload)['index.csv']), ',', '"');
    expect(rows.slice(1).map((r) => Number(r[1]))).toEqual(grid);

    const detail = SearchDetail.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${S.allInvoices}?token=${tokens.user}` })).json());
    const title = detail.Detail.find((p) => p.Prompt === 'Title')!;
    const none = await post({ ArchiveID: A.paidInvoices, SearchID: S.allInvoices, SearchCriteria: JSON.stringify([{ ID: title.ID, VAL: 'no-such-title-anywhere' }]) });
    expect(none.statusCode).toBe(400);
    expect(ErrorBody.parse(none.json()).Key).toBe(EXPORT_NO_RESULTS_KEY);
    expect((await post({ Docs: [] })).statusCode).toBe(400);
  });
});

describe('export job: progress, crash, cancel, expiry', () => {
  it('shows its progress; GET answers 409 while it runs; a process that dies half-way: the next one makes a complete zip from scratch', async () => {
    const docs = invoices(30);
    const id = await start({ Docs: docsOf(docs), ExportWithCSV: true, FieldIDs: [F.title] });
    const a = runner('process-a');
    expect(await a.runOnce({ maxItems: 12 })).toBe(12);
    const half = await job(id);
    expect(half).toMatchObject({ State: 'running', Processed: 12, Succeeded: 12, Count: 30 });
    const r = await download(id);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ Key: EXPORT_NOT_READY_KEY, Job: { Id: id, Processed: 12 } });

    // Process A's lease holds: nobody else takes the job until it lapses.
    const b = runner('process-b');
    expect(await b.runOnce()).toBe(0);
    s.clock.advance(LEASE_MS + 1);
    expect(await b.runOnce()).toBe(30);
    const done = await job(id);
    expect(done).toMatchObject({ State: 'done', Processed: 30, Succeeded: 30 });
    const zip = unzip((await download(id)).rawPayload);
    for (const d of docs) for (const f of await storedFiles(d.id)) expect(Buffer.from(zip[f.name]!).equals(f.bytes)).toBe(true);
    expect(parseCsv(text(zip['index.csv']), ',', '"').slice(1).map((row) => Number(row[1]))).toEqual(docs.map((d) => d.id));
    // Each document's history entry once, though A handled 12 of them before it died.
    const hist = await s.store.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_entries WHERE category = 'exported' AND details->>'JobId' = $1", [String(id)]);
    expect(hist.rows[0]!.n).toBe(30);
    expect(readdirSync(s.exportDir).filter((n) => n.startsWith(`job-${id}-`))).toEqual([]);
  });

  it('a process that dies after its last document but before the file is finished: the export is taken up again (no item is pending then)', async () => {
    const docs = invoices(3);
    const id = await start({ Docs: docsOf(docs) });
    expect(await runner('process-c').runOnce({ maxItems: 3 })).toBe(3);
    expect(await job(id)).toMatchObject({ State: 'running', Processed: 3 });
    s.clock.advance(LEASE_MS + 1);
    expect(await runner('process-d').runOnce()).toBe(3);
    expect(await job(id)).toMatchObject({ State: 'done', Processed: 3, Succeeded: 3 });
    expect(Object.keys(unzip((await download(id)).rawPayload))).toHaveLength(3);
  });

  it('a document deleted or no longer permitted while the export waits is a failure DocID {id}: reason; the rest is exported', async () => {
    const docs = correspondence(3);
    const id = await start({ ArchiveID: A.correspondence, Docs: docsOf(docs), ExportWithCSV: true }, { user: 'admin' });
    await s.store.query('UPDATE documents SET deleted = true WHERE id = $1', [docs[1]!.id]);
    const adminRunner = runner();
    await adminRunner.runOnce();
    const r = await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens.admin}` });
    const done = Job.parse(r.json());
    expect(done).toMatchObject({ State: 'done', Succeeded: 2, Failed: 1 });
    expect(done.Failures?.[0]?.Message).toBe(`DocID ${docs[1]!.id}: The document no longer exists in archive Correspondence`);
    const zip = unzip((await download(id, 'admin')).rawPayload);
    const rows = parseCsv(text(zip['index.csv']), ',', '"');
    expect(rows.slice(1).map((row) => Number(row[1]))).toEqual([docs[0]!.id, docs[2]!.id]);
    await s.store.query('UPDATE documents SET deleted = false WHERE id = $1', [docs[1]!.id]);
  });

  it.each([
    ['a zip', () => ({ Docs: docsOf(invoices(50)) })],
    ['an Excel workbook', () => ({ ArchiveID: A.correspondence, Docs: docsOf(correspondence(45)), Format: 'xlsx' as const })],
  ])('cancel stops %s at its next progress write and leaves no file; its GET then answers 404', async (_kind, body) => {
    const id = await start(body());
    let transactions = 0;
    // The user cancels right after the first progress write of the running export (the runner's
    // transactions: its claim, the export's start, then a progress write every 20 documents).
    const cancelling: Store = {
      ...s.store,
      transaction: async (fn) => {
        const out = await s.store.transaction(fn);
        if (++transactions === 3) {
          const c = await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(id)}?token=${tokens.user}` });
          expect(c.statusCode).toBe(200);
        }
        return out;
      },
    };
    const handled = await runner(randomUUID(), cancelling).runOnce();
    expect(handled).toBe(40);
    const j = await job(id);
    expect(j.State).toBe('cancelled');
    expect(j.Processed).toBe(20);
    // The workbook is closed before its file goes: a moment later.
    await expect.poll(() => readdirSync(s.exportDir).filter((n) => n.startsWith(`job-${id}`))).toEqual([]);
    expect((await download(id)).statusCode).toBe(404);
  });

  it('410 once EXPORT_KEEP_HOURS have passed (the purge removes the file, the job stays); 404 for another user; 400 for a job that is not an export', async () => {
    const id = await start({ Docs: docsOf(invoices(1)) });
    await finished(id);
    expect((await download(id)).statusCode).toBe(200);
    expect((await download(id, 'admin')).statusCode).toBe(404);
    expect((await download(999_999)).statusCode).toBe(404);
    const file = join(s.exportDir, `job-${id}.zip`);
    expect(existsSync(file)).toBe(true);

    s.clock.advance(EXPORT_KEEP_HOURS * 3_600_000 + 1_000);
    await signInAll();
    expect(await purgeExports(s.store, s.exportDir, s.clock.t)).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    // A file no job keeps (its job removed with its database, say) goes too; a running export's file stays.
    const stray = join(s.exportDir, 'job-999999.zip');
    writeFileSync(stray, 'x');
    await purgeExports(s.store, s.exportDir, s.clock.t);
    expect(existsSync(stray)).toBe(false);
    const gone = await download(id);
    expect(gone.statusCode).toBe(410);
    expect(ErrorBody.parse(gone.json()).Key).toBe(EXPORT_EXPIRED_KEY);
    expect((await job(id)).State).toBe('done');

    // Expired by the clock before any purge ran: 410 too.
    const later = await start({ Docs: docsOf(invoices(1)) });
    await finished(later);
    s.clock.advance(EXPORT_KEEP_HOURS * 3_600_000 + 1_000);
    await signInAll();
    expect((await download(later)).statusCode).toBe(410);

    const doc = invoices(1)[0]!;
    const op = await s.app.inject({
      method: 'GET',
      url: `${documentPaths.operation(1, doc.archive_id, doc.id, 'Copy')}?token=${tokens.user}&SecureId=${doc.secure_hash}&Job=${randomUUID()}&Count=1&DestinationArchive=${A.paidInvoices}`,
    });
    const copyJob = DocumentOperationAccepted.parse(op.json()).JobId;
    expect((await download(copyJob)).statusCode).toBe(400);
  });
});

describe('export job: a disk that refuses the file', () => {
  it('fails the job with the error code (no path), leaves the process running and the documents untouched', async () => {
    const id = await start({ Docs: docsOf(invoices(2)), ExportWithCSV: true });
    const broken = new JobRunner({ store: s.store, now: () => s.clock.t, bootId: randomUUID(), leaseMs: LEASE_MS, exports: { files: s.files, dir: join(s.exportDir, 'no-such-folder') } });
    // Older jobs of other tests may be claimed first.
    for (let i = 0; i < 5 && ['queued', 'running'].includes((await job(id)).State); i++) await broken.runOnce();
    const j = await job(id);
    expect(j.State).toBe('failed');
    expect(j.Reason).toBe('The export file could not be written (ENOENT)');
    expect((await download(id)).statusCode).toBe(404);
  });
});

describe('export job: refusals (nothing started)', () => {
  const jobsNow = async () => (await s.store.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'export'")).rows[0]!.n;

  it('the viewer (read-only licence) has no export right (128) in Invoices: 403; in Correspondence it has and exports a zip, but never to Excel: 403', async () => {
    const before = await jobsNow();
    const r = await post({ Docs: docsOf(invoices(1)) }, { user: 'viewer' });
    expect(r.statusCode).toBe(403);
    expect(ErrorBody.parse(r.json())).toEqual({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: 'You do not have permission to export documents of archive Invoices' });
    const doc = correspondence(1);
    const x = await post({ ArchiveID: A.correspondence, Docs: docsOf(doc), Format: 'xlsx' }, { user: 'viewer' });
    expect(x.statusCode).toBe(403);
    expect(ErrorBody.parse(x.json())).toEqual({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: 'A read-only licence cannot export to Excel' });
    expect(await jobsNow()).toBe(before);

    // An export changes nothing: the read-only licence may take files it may read and export (bit 128 through its group).
    const id = await start({ ArchiveID: A.correspondence, Docs: docsOf(doc) }, { user: 'viewer' });
    await runner().runOnce();
    const ok = await download(id, 'viewer');
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(unzip(ok.rawPayload))).toEqual((await storedFiles(doc[0]!.id)).map((f) => f.name));
  });

  it('a user without bit 64 cannot export to Excel (403), and with it can', async () => {
    const doc = correspondence(1);
    const body = { ArchiveID: A.correspondence, Docs: docsOf(doc), Format: 'xlsx' as const, FieldIDs: [F.title] };
    await s.store.query('UPDATE archive_permissions SET rights = rights & ~64 WHERE archive_id = $1 AND user_id = $2', [A.correspondence, SEED_IDS.user.user]);
    try {
      const r = await post(body);
      expect(r.statusCode).toBe(403);
      expect(ErrorBody.parse(r.json()).Message).toMatch(/Excel/);
    } finally {
      await s.store.query('UPDATE archive_permissions SET rights = rights | 64 WHERE archive_id = $1 AND user_id = $2', [A.correspondence, SEED_IDS.user.user]);
    }
    const id = await start(body);
    const done = await finished(id);
    expect(done.State).toBe('done');
    // The job list says what the export is, so a device that did not start it names it ("Excel export of 1 document").
    const list = JobList.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.list}?token=${tokens.user}` })).json());
    expect(list.find((j) => j.Id === id)).toMatchObject({ Kind: 'export', Format: 'xlsx', Count: 1 });
    const r = await download(id);
    expect(r.headers['content-type']).toBe(XLSX_MIME);
    expect(r.headers['content-disposition']).toContain(`export-${id}.xlsx`);
    // An xlsx is a zip of XML parts; the sheet holds the header and the document's title.
    const parts = unzip(r.rawPayload);
    const sheet = Object.entries(parts).find(([n]) => /^xl\/worksheets\/sheet\d*\.xml$/.test(n))?.[1];
    const xml = text(sheet);
    expect(xml).toContain('ArchiveID');
    expect(xml).toContain((await indexRow(doc[0]!.id, [F.title]))[0]!.replace(/&/g, '&amp;'));
  });

  it('documents waiting for PDF conversion, in a workflow, or both: 409 with the three keys (the seed marks the last Contracts documents)', async () => {
    const held = (
      await s.store.query<{ id: number; pdf_pending: boolean; in_workflow: boolean }>(
        'SELECT id, pdf_pending, in_workflow FROM documents WHERE archive_id = $1 AND (pdf_pending OR in_workflow) ORDER BY id DESC',
        [EXPORT_HELD_ARCHIVE],
      )
    ).rows.map((d) => ({ ...d, id: Number(d.id) }));
    expect(held.map((d) => [d.pdf_pending, d.in_workflow])).toEqual([
      [true, false],
      [false, true],
      [true, true],
    ]);
    const [pending, workflow, both] = held as [(typeof held)[0], (typeof held)[0], (typeof held)[0]];
    const body = (...ds: { id: number }[]) => ({ ArchiveID: EXPORT_HELD_ARCHIVE, Docs: ds.map((d) => ({ ArchiveID: EXPORT_HELD_ARCHIVE, DocID: d.id })) });
    const before = await jobsNow();
    const cases: [ReturnType<typeof body>, string, RegExp][] = [
      [body(pending), EXPORT_PDF_PENDING_KEY, /PDF conversion/],
      [body(workflow), EXPORT_IN_WORKFLOW_KEY, /workflow/],
      [body(both), EXPORT_PDF_WORKFLOW_PENDING_KEY, /PDF conversion.*workflow/],
      [body(pending, workflow), EXPORT_PDF_WORKFLOW_PENDING_KEY, /PDF conversion.*workflow/],
    ];
    for (const [b, key, message] of cases) {
      const r = await post(b);
      expect(r.statusCode).toBe(409);
      const e = ErrorBody.parse(r.json());
      expect(e.Key).toBe(key);
      expect(e.Message).toMatch(message);
      if (key === EXPORT_PDF_PENDING_KEY) expect(e.Message).not.toMatch(/workflow/);
      if (key === EXPORT_IN_WORKFLOW_KEY) expect(e.Message).not.toMatch(/PDF conversion/);
    }
    expect(await jobsNow()).toBe(before);
  });

  it.each([
    ['Filename with /', { Filename: 'a/b' }],
    ['Filename with "', { Filename: 'say "hi"' }],
    ['FilePath with :', { FilePath: 'C:temp' }],
    ['FilePath with |', { FilePath: 'a|b' }],
    ['CsvFile with *', { CsvFile: 'index*.csv' }],
    ['the same delimiters', { FieldDelimiter: ';', StringDelimiter: ';' }],
    ['another DatabaseID', { DatabaseID: 2 }],
    ['an unknown field', { FieldIDs: [9999] }],
  ])('%s: 400', async (_name, extra) => {
    const r = await post({ Docs: docsOf(invoices(1)), ...extra });
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });

  it('only deleted documents: 400 ERROR_EXPORT_NO_RESULTS', async () => {
    const doc = invoices(1)[0]!;
    await s.store.query('UPDATE documents SET deleted = true WHERE id = $1', [doc.id]);
    const r = await post({ Docs: docsOf([doc]) });
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe(EXPORT_NO_RESULTS_KEY);
    await s.store.query('UPDATE documents SET deleted = false WHERE id = $1', [doc.id]);
  });
});

describe('export job: repeats', () => {
  it('the same Idempotency-Key gives the same JobId, also when the first answer was lost (the key names the job)', async () => {
    const docs = invoices(2);
    const key = randomUUID();
    const first = await start({ Docs: docsOf(docs) }, { key });
    expect(await start({ Docs: docsOf(docs) }, { key })).toBe(first);
    // The server crashed after writing the job but before keeping its answer.
    await s.store.query('DELETE FROM idempotency_keys WHERE key = $1', [key]);
    expect(await start({ Docs: docsOf(docs) }, { key })).toBe(first);
    const n = await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE key = $1', [`export:${key}`]);
    expect(n.rows[0]!.n).toBe(1);
  });
});

/** The zip's central directory: each entry's name and compression method (0 stored, 8 deflate), in order, and sizes. */
function centralDirectory(zip: Buffer): { name: string; method: number; compressed: number; size: number }[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    out.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), method: zip.readUInt16LE(at + 10), compressed: zip.readUInt32LE(at + 20), size: zip.readUInt32LE(at + 24) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

describe('export job: memory and the zip format', () => {
  it('PDFs and TIFFs are stored as they are (deflate gains nothing on them), the CSV is deflated and last', async () => {
    // Correspondence holds both PDFs and G4 TIFFs.
    const docs = correspondence(10);
    const id = await start({ ArchiveID: A.correspondence, Docs: docsOf(docs), ExportWithCSV: true });
    expect((await finished(id)).State).toBe('done');
    const r = await download(id);
    const entries = centralDirectory(r.rawPayload);
    const files = [];
    for (const d of docs) files.push(...(await storedFiles(d.id)));
    expect(entries.map((e) => e.name)).toEqual([...files.map((f) => f.name), 'index.csv']);
    expect(new Set(files.map((f) => f.name.split('.').pop()!.toLowerCase()))).toEqual(new Set(['pdf', 'tif']));
    for (const [i, f] of files.entries()) expect(entries[i], f.name).toMatchObject({ method: 0, compressed: f.bytes.length, size: f.bytes.length });
    const csv = entries.at(-1)!;
    expect(csv.method).toBe(8);
    expect(csv.compressed).toBeLessThan(csv.size);
    expect(Object.keys(unzip(r.rawPayload))).toEqual(entries.map((e) => e.name));
  });

  it('waits on the stream guard leave nothing behind once they settle (each raced a never-settled promise: ~0.3 KB a wait, kept for the whole export)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const guard = new StreamGuard();
    const stream = new EventEmitter();
    guard.watch(stream);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) await guard.wait(Promise.resolve(i));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Racing kept ~30 MiB here.
    expect(grown / 1_048_576).toBeLessThan(3);
    // The guard still works: a stream's error ends a wait that would never end by itself.
    const waiting = guard.wait(new Promise(() => undefined));
    stream.emit('error', Object.assign(new Error('no space'), { code: 'ENOSPC' }));
    await expect(waiting).rejects.toThrow('The export file could not be written (ENOSPC)');
    await expect(guard.wait(Promise.resolve(1))).rejects.toThrow('(ENOSPC)');
  });
});
