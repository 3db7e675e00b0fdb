/**
 * Merge and append with inbox files (server/services/merge.ts; contract src/api/documents.ts
 * MergeRequest): an inbox file appended to or merged with archive documents, an inbox file as the base
 * (the combined PDF replaces it), AppendType Remove taking a file out of its inbox, and the inbox
 * rights (1 view, 4 edit) on top of the archive bits.
 */
import { PDFDict, PDFDocument, PDFName, type PDFPage } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { MergeAnswer, documentPaths, type MergeRequest } from '../../src/api/documents';
import { InboxFiles, inboxPaths } from '../../src/api/inboxes';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const I = SEED_IDS.inbox;
let s: TestServer;
const tokens: Record<string, string> = {};

interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
  page_count: number;
}
interface InboxFile {
  inbox_id: number;
  file_name: string;
  file_type: string;
  page_count: number;
}
const docs: Record<'PDF' | 'TIF', Doc[]> = { PDF: [], TIF: [] };
const takeDoc = (t: 'PDF' | 'TIF') => docs[t].shift() ?? expect.fail(`no ${t} document left`);
/** Stored files of each type (from seeded documents) that the test's own inbox files reuse. */
const blobs: Record<'PDF' | 'TIF', { sha256: string; size: number; pages: number }[]> = { PDF: [], TIF: [] };
let made = 0;
/** A new file of the given type in an inbox (Scans unless named), so no other test sees it. */
const takeFile = async (t: 'PDF' | 'TIF', inbox: number = I.scans): Promise<InboxFile> => {
  const b = blobs[t][made % blobs[t].length]!;
  const f: InboxFile = { inbox_id: inbox, file_name: `merge-inbox-${++made}.${t === 'PDF' ? 'pdf' : 'tif'}`, file_type: t, page_count: b.pages };
  await s.store.query('INSERT INTO inbox_files (inbox_id, file_name, file_type, sha256, size, page_count) VALUES ($1, $2, $3, $4, $5, $6)', [inbox, f.file_name, t, b.sha256, b.size, b.pages]);
  return f;
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 60 } });
  for (const u of ['user', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
  const r = await s.store.query<Doc & { file_type: string; files: number }>(
    `SELECT d.id, d.archive_id, d.secure_hash, d.page_count, d.file_type, (SELECT count(*) FROM document_files f WHERE f.document_id = d.id)::int AS files
       FROM documents d WHERE d.archive_id = $1 AND NOT d.deleted AND d.page_count > 1 ORDER BY d.id`,
    [A.invoices],
  );
  for (const d of r.rows) if ((d.file_type === 'PDF' || d.file_type === 'TIF') && d.files === 1) docs[d.file_type].push({ ...d, id: Number(d.id) });
  const b = await s.store.query<{ sha256: string; size: number; file_type: string; page_count: number }>(
    `SELECT f.sha256, b.size, f.file_type, f.page_count FROM document_files f JOIN blobs b ON b.sha256 = f.sha256
      WHERE f.file_type IN ('PDF', 'TIF') AND f.page_count > 1 ORDER BY f.id LIMIT 20`,
  );
  for (const x of b.rows) blobs[x.file_type as 'PDF' | 'TIF'].push({ sha256: x.sha256, size: Number(x.size), pages: x.page_count });
  expect(blobs.TIF.length).toBeGreaterThan(0);
  expect(blobs.PDF.length).toBeGreaterThan(0);
  expect(docs.PDF.length).toBeGreaterThan(3);
});
afterAll(async () => {
  await s?.close();
});

const archiveRef = (d: Doc) => ({ ArchiveID: d.archive_id, DocID: d.id });
const inboxRef = (f: InboxFile) => ({ InboxID: f.inbox_id, Path: f.file_name });
const post = (payload: MergeRequest, user = 'user') => s.app.inject({ method: 'POST', url: documentPaths.merge(1), payload, headers: { 'auth-token': tokens[user]! } });
const onArchive = (type: 'Merge' | 'Append', base: Doc, others: MergeRequest['Documents'], appendType?: 'Keep' | 'Remove'): MergeRequest => ({
  Type: type,
  Documents: others,
  BaseDocument: { Type: 'Archive', ...archiveRef(base) },
  Target: { Type: 'Archive', Id: base.archive_id, ...(appendType ? { AppendType: appendType } : {}) },
});
const inboxRow = async (inboxId: number, name: string) =>
  (await s.store.query<{ file_name: string; file_type: string; page_count: number; sha256: string; size: number }>('SELECT file_name, file_type, page_count, sha256, size FROM inbox_files WHERE inbox_id = $1 AND file_name = $2', [inboxId, name])).rows[0];
const storedPdf = async (docId: number) => {
  const f = await s.store.query<{ sha256: string; file_type: string }>('SELECT sha256, file_type FROM document_files WHERE document_id = $1', [docId]);
  expect(f.rows).toHaveLength(1);
  expect(f.rows[0]!.file_type).toBe('PDF');
  return PDFDocument.load(await s.files.get(f.rows[0]!.sha256));
};
/** A page drawn from a scan (an image and no font) or a text page (fonts). */
const kindOf = (page: PDFPage) => {
  const xo = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  return (xo?.keys().length ?? 0) > 0 && (fonts?.keys().length ?? 0) === 0 ? 'scan' : 'text';
};
const fill = (n: number, k: string) => Array<string>(n).fill(k);

describe('an inbox file into an archive document', () => {
  it('appends a scanned inbox file after the base\'s pages and, with Remove, takes it out of its inbox', async () => {
    const base = takeDoc('PDF');
    const file = await takeFile('TIF', I.scans);
    const r = await post(onArchive('Append', base, [inboxRef(file)], 'Remove'));
    expect(r.statusCode, r.body).toBe(200);
    const total = base.page_count + file.page_count;
    expect(MergeAnswer.parse(r.json())).toEqual({ DocID: base.id, ArchiveID: base.archive_id, PageCount: total });
    const merged = await storedPdf(base.id);
    expect(merged.getPages().map(kindOf)).toEqual([...fill(base.page_count, 'text'), ...fill(file.page_count, 'scan')]);
    const texts = (await s.store.query<{ text: string | null }>('SELECT text FROM document_pages WHERE document_id = $1 ORDER BY page_no', [base.id])).rows.map((p) => p.text);
    expect(texts).toHaveLength(total);
    expect(texts.slice(base.page_count)).toEqual(fill(file.page_count, '').map(() => null));
    // The stored system fields follow the new file (the grid shows them).
    const fields = (await s.store.query<{ fields: Record<string, string> }>('SELECT fields FROM documents WHERE id = $1', [base.id])).rows[0]!.fields;
    expect([fields[String(F.pageCount)], fields[String(F.fileType)], fields[String(F.lastModifiedBy)]]).toEqual([String(total), 'PDF', 'user']);
    // Gone from the inbox, for the inbox list too.
    expect(await inboxRow(file.inbox_id, file.file_name)).toBeUndefined();
    const list = InboxFiles.parse((await s.app.inject({ method: 'GET', url: inboxPaths.list, query: { Id: String(I.scans), numberOfDocuments: '100' }, headers: { 'auth-token': tokens.user! } })).json());
    expect(list.Files.map((f) => f.FileName)).not.toContain(file.file_name);
    // The history names the inbox.
    const h = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${base.archive_id}/documents/${base.id}/audit?SecureId=${base.secure_hash}`, headers: { 'auth-token': tokens.user! } });
    const entry = DocumentHistory.parse(h.json())[0]!;
    expect(entry).toMatchObject({ Category: 'appended', Event: { Kind: 'page-appended', Inbox: 'Scans', Count: total } });
    expect(entry.Message).toContain(file.file_name);
  });

  it('merges archive documents and an inbox file in the given order, keeping the file with Keep', async () => {
    const [base, tif] = [takeDoc('PDF'), takeDoc('TIF')];
    const file = await takeFile('PDF');
    const r = await post(onArchive('Merge', base, [inboxRef(file), archiveRef(tif)], 'Keep'));
    expect(r.statusCode, r.body).toBe(200);
    const total = base.page_count + file.page_count + tif.page_count;
    expect(MergeAnswer.parse(r.json()).PageCount).toBe(total);
    const merged = await storedPdf(base.id);
    expect(merged.getPages().map(kindOf)).toEqual([...fill(base.page_count + file.page_count, 'text'), ...fill(tif.page_count, 'scan')]);
    // The inbox file's own pages sit between the two documents.
    const src = await PDFDocument.load(await s.files.get((await inboxRow(file.inbox_id, file.file_name))!.sha256));
    expect(src.getPageCount()).toBe(file.page_count);
    expect(await inboxRow(file.inbox_id, file.file_name)).toMatchObject({ file_type: 'PDF', page_count: file.page_count });
    const kept = await s.store.query<{ deleted: boolean }>('SELECT deleted FROM documents WHERE id = $1', [tif.id]);
    expect(kept.rows[0]!.deleted).toBe(false);
  });
});

describe('an inbox file as the base', () => {
  it('replaces the inbox file with one PDF of its pages and then the document\'s, named .pdf', async () => {
    const file = await takeFile('TIF', I.mailroom);
    const doc = takeDoc('PDF');
    const r = await post({
      Type: 'Append',
      Documents: [archiveRef(doc)],
      BaseDocument: { Type: 'Inbox', ...inboxRef(file) },
      Target: { Type: 'Inbox', Id: file.inbox_id, AppendType: 'Remove' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const total = file.page_count + doc.page_count;
    const pdfName = file.file_name.replace(/\.tif$/, '.pdf');
    expect(MergeAnswer.parse(r.json())).toEqual({ InboxID: file.inbox_id, Path: pdfName, PageCount: total });
    expect(await inboxRow(file.inbox_id, file.file_name)).toBeUndefined();
    const row = (await inboxRow(file.inbox_id, pdfName))!;
    expect(row).toMatchObject({ file_type: 'PDF', page_count: total });
    const pdf = await PDFDocument.load(await s.files.get(row.sha256));
    expect(pdf.getPages().map(kindOf)).toEqual([...fill(file.page_count, 'scan'), ...fill(doc.page_count, 'text')]);
    expect(Number(row.size)).toBe((await s.files.get(row.sha256)).length);
    // The archive document was removed into the inbox file, and says so.
    const gone = await s.store.query<{ deleted: boolean }>('SELECT deleted FROM documents WHERE id = $1', [doc.id]);
    expect(gone.rows[0]!.deleted).toBe(true);
    const audit = await s.store.query<{ category: string; message: string }>('SELECT category, message FROM audit_entries WHERE document_id = $1 ORDER BY id DESC LIMIT 1', [doc.id]);
    expect(audit.rows[0]).toMatchObject({ category: 'deleted', message: `Appended into inbox file ${pdfName} of Mailroom` });
  });

  it('needs the target to be the base\'s inbox, and an archive base an archive target (400)', async () => {
    const file = await takeFile('PDF');
    const doc = takeDoc('PDF');
    const wrongInbox = await post({ Documents: [archiveRef(doc)], BaseDocument: { Type: 'Inbox', ...inboxRef(file) }, Target: { Type: 'Inbox', Id: file.inbox_id === I.scans ? I.mailroom : I.scans } });
    expect(wrongInbox.statusCode).toBe(400);
    const archiveTarget = await post({ Documents: [archiveRef(doc)], BaseDocument: { Type: 'Inbox', ...inboxRef(file) }, Target: { Type: 'Archive', Id: doc.archive_id } });
    expect(archiveTarget.statusCode).toBe(400);
    const inboxTarget = await post({ Documents: [inboxRef(file)], BaseDocument: { Type: 'Archive', ...archiveRef(doc) }, Target: { Type: 'Inbox', Id: file.inbox_id } });
    expect(inboxTarget.statusCode).toBe(400);
    expect(await inboxRow(file.inbox_id, file.file_name)).toMatchObject({ page_count: file.page_count });
    docs.PDF.push(doc);
  });
});

describe('inbox rights and unknown files', () => {
  it('answers 404 for an unknown inbox file or inbox, changing nothing', async () => {
    const base = takeDoc('PDF');
    const noFile = await post(onArchive('Append', base, [{ InboxID: I.scans, Path: 'no-such-file.pdf' }]));
    expect(noFile.statusCode).toBe(404);
    expect(noFile.json().Key).toBe('ERROR_NOT_FOUND');
    const noInbox = await post(onArchive('Append', base, [{ InboxID: 999, Path: 'scan-001.pdf' }]));
    expect(noInbox.statusCode).toBe(404);
    const row = await s.store.query<{ page_count: number }>('SELECT page_count FROM documents WHERE id = $1', [base.id]);
    expect(row.rows[0]!.page_count).toBe(base.page_count);
    docs.PDF.push(base);
  });

  it('needs view on the inbox, edit (4) to remove a file or to change the base; the read-only licence never', async () => {
    const base = takeDoc('PDF');
    const file = await takeFile('PDF', I.mailroom);
    // clerk may append in Invoices but has no right on any inbox.
    const noView = await post(onArchive('Append', base, [inboxRef(file)], 'Keep'), 'clerk');
    expect(noView.statusCode).toBe(403);
    expect(noView.json()).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: 'You do not have permission to view inbox Mailroom' });
    await s.store.query('INSERT INTO inbox_permissions (inbox_id, user_id, rights) VALUES ($1, $2, 1)', [I.mailroom, SEED_IDS.user.clerk]);
    try {
      const remove = await post(onArchive('Append', base, [inboxRef(file)], 'Remove'), 'clerk');
      expect(remove.statusCode).toBe(403);
      expect(remove.json().Message).toBe('You do not have permission to change inbox Mailroom');
      const asBase = await post({ Type: 'Append', Documents: [archiveRef(base)], BaseDocument: { Type: 'Inbox', ...inboxRef(file) }, Target: { Type: 'Inbox', Id: file.inbox_id, AppendType: 'Keep' } }, 'clerk');
      expect(asBase.statusCode).toBe(403);
      expect(await inboxRow(file.inbox_id, file.file_name)).toMatchObject({ page_count: file.page_count });
      // Viewing is enough to append a copy of its pages.
      const keep = await post(onArchive('Append', base, [inboxRef(file)], 'Keep'), 'clerk');
      expect(keep.statusCode, keep.body).toBe(200);
      expect(MergeAnswer.parse(keep.json()).PageCount).toBe(base.page_count + file.page_count);
      expect(await inboxRow(file.inbox_id, file.file_name)).toBeDefined();
    } finally {
      await s.store.query('DELETE FROM inbox_permissions WHERE inbox_id = $1 AND user_id = $2', [I.mailroom, SEED_IDS.user.clerk]);
    }
    // viewer may view Scans, but a read-only licence changes nothing.
    const other = takeDoc('PDF');
    const scan = await takeFile('TIF', I.scans);
    const viewer = await post(onArchive('Append', other, [inboxRef(scan)], 'Keep'), 'viewer');
    expect(viewer.statusCode).toBe(403);
    expect(await inboxRow(scan.inbox_id, scan.file_name)).toBeDefined();
  });

  it('refuses an inbox of another database (400)', async () => {
    const base = takeDoc('PDF');
    const file = await takeFile('TIF');
    await s.store.query('UPDATE inboxes SET database_id = $2 WHERE id = $1', [file.inbox_id, SEED_IDS.db.records]);
    try {
      const r = await post(onArchive('Append', base, [inboxRef(file)], 'Keep'));
      expect(r.statusCode).toBe(400);
      expect(r.json().Message).toMatch(/another database/);
    } finally {
      await s.store.query('UPDATE inboxes SET database_id = $2 WHERE id = $1', [file.inbox_id, SEED_IDS.db.demo]);
    }
  });
});
