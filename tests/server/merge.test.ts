/**
 * Merge and append through POST api/dbs/{db}/merge (server/routes/merge.ts, server/services/merge.ts):
 * the stored PDF really holds every page, in order, and the rights of the user-app spec §6 are enforced.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFPage } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { MergeAnswer, documentPaths, type MergeRequest } from '../../src/api/documents';
import { SEED_IDS } from '../../server/seed/catalog';
import { MERGE_MAX } from '../../server/services/merge';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};

interface SeedDoc {
  id: number;
  archive_id: number;
  secure_hash: string;
  page_count: number;
}
/** Unused seed documents of the invoices archive by file type, handed out once each. */
const pool: Record<'PDF' | 'TIF' | 'PAID', SeedDoc[]> = { PDF: [], TIF: [], PAID: [] };
const take = (type: 'PDF' | 'TIF' | 'PAID') => {
  const d = pool[type].shift();
  if (!d) throw new Error(`no ${type} document left`);
  return d;
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 160 } });
  for (const u of ['user', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
  const r = await s.store.query<SeedDoc & { file_type: string; files: number }>(
    `SELECT d.id, d.archive_id, d.secure_hash, d.page_count, d.file_type, (SELECT count(*) FROM document_files f WHERE f.document_id = d.id)::int AS files
       FROM documents d WHERE d.archive_id = $1 AND NOT d.deleted AND d.page_count > 1 ORDER BY d.id`,
    [A.invoices],
  );
  for (const d of r.rows) if ((d.file_type === 'PDF' || d.file_type === 'TIF') && d.files === 1) pool[d.file_type].push({ ...d, id: Number(d.id) });
  const paid = await s.store.query<SeedDoc>('SELECT id, archive_id, secure_hash, page_count FROM documents WHERE archive_id = $1 AND NOT deleted AND page_count > 0 ORDER BY id', [A.paidInvoices]);
  pool.PAID = paid.rows.map((d) => ({ ...d, id: Number(d.id) }));
  expect(pool.PAID.length).toBeGreaterThan(2);
  expect(pool.PDF.length).toBeGreaterThan(6);
  expect(pool.TIF.length).toBeGreaterThan(4);
});
afterAll(async () => {
  await s?.close();
});

const ref = (d: SeedDoc) => ({ ArchiveID: d.archive_id, DocID: d.id });
const body = (type: 'Merge' | 'Append', base: SeedDoc, others: SeedDoc[], extra: Partial<MergeRequest['Target']> = {}): MergeRequest => ({
  Type: type,
  Documents: others.map(ref),
  BaseDocument: { Type: 'Archive', ...ref(base) },
  Target: { Type: 'Archive', Id: base.archive_id, ...extra },
});
const post = (payload: unknown, user = 'user', headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: `${documentPaths.merge(1)}?token=${tokens[user]}`, payload: payload as object, headers });
const pageTexts = async (id: number) =>
  (await s.store.query<{ text: string | null }>('SELECT text FROM document_pages WHERE document_id = $1 ORDER BY page_no', [id])).rows.map((p) => p.text);

/** The document's one stored file, loaded with pdf-lib. */
const storedPdf = async (docId: number) => {
  const f = await s.store.query<{ sha256: string; file_type: string }>('SELECT sha256, file_type FROM document_files WHERE document_id = $1', [docId]);
  expect(f.rows).toHaveLength(1);
  expect(f.rows[0]!.file_type).toBe('PDF');
  return PDFDocument.load(await s.files.get(f.rows[0]!.sha256));
};
const sourceFile = async (d: SeedDoc) => {
  const f = await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1', [d.id]);
  return s.files.get(f.rows[0]!.sha256);
};
/** A page drawn from a scan (an image and no font) or a text page (fonts, no image). */
const kindOf = (page: PDFPage) => {
  const xo = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  return (xo?.keys().length ?? 0) > 0 && (fonts?.keys().length ?? 0) === 0 ? 'scan' : 'text';
};
/** The page's drawing instructions as stored (copyPages keeps them byte for byte). */
const contentOf = (page: PDFPage) => {
  const c = page.node.Contents();
  const streams = c instanceof PDFArray ? c.asArray().map((r) => page.doc.context.lookup(r) as PDFRawStream) : [c as PDFRawStream];
  return streams.map((st) => Buffer.from(st.getContents()).toString('latin1')).join('\n');
};

const liveRow = async (id: number) =>
  (await s.store.query<{ page_count: number; deleted: boolean; file_type: string }>('SELECT page_count, deleted, file_type FROM documents WHERE id = $1', [id])).rows[0]!;
const history = async (d: SeedDoc) => {
  const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` });
  expect(r.statusCode).toBe(200);
  return DocumentHistory.parse(r.json());
};

describe('merge', () => {
  it('combines a PDF, a TIFF and another PDF into the base document, every page in order', async () => {
    const [pdf1, tif, pdf2] = [take('PDF'), take('TIF'), take('PDF')];
    // The sources' own pages, read before the base's file is replaced.
    const src1 = (await PDFDocument.load(await sourceFile(pdf1))).getPages();
    const src2 = (await PDFDocument.load(await sourceFile(pdf2))).getPages();
    const r = await post(body('Merge', pdf1, [tif, pdf2], { AppendType: 'Remove' }));
    expect(r.statusCode, r.body).toBe(200);
    const total = pdf1.page_count + tif.page_count + pdf2.page_count;
    expect(MergeAnswer.parse(r.json())).toEqual({ DocID: pdf1.id, ArchiveID: pdf1.archive_id, PageCount: total });

    const row = await liveRow(pdf1.id);
    expect(row).toMatchObject({ page_count: total, deleted: false, file_type: 'PDF' });
    const pages = await s.store.query<{ page_no: number; page_in_file: number }>('SELECT page_no, page_in_file FROM document_pages WHERE document_id = $1 ORDER BY page_no', [pdf1.id]);
    expect(pages.rows.map((p) => [p.page_no, p.page_in_file])).toEqual(Array.from({ length: total }, (_, i) => [i + 1, i]));

    const merged = await storedPdf(pdf1.id);
    expect(merged.getPageCount()).toBe(total);
    const mp = merged.getPages();
    const expectedKinds = [...Array<string>(pdf1.page_count).fill('text'), ...Array<string>(tif.page_count).fill('scan'), ...Array<string>(pdf2.page_count).fill('text')];
    expect(mp.map(kindOf)).toEqual(expectedKinds);
    // The text pages are the sources' own pages, in their order.
    const expectedText = [...src1, ...src2].map(contentOf);
    const gotText = mp.filter((p) => kindOf(p) === 'text').map(contentOf);
    expect(gotText).toEqual(expectedText);
    // A 850 x 1100 px scan at 100 dpi is a Letter page.
    const scan = mp[pdf1.page_count]!;
    expect([Math.round(scan.getWidth()), Math.round(scan.getHeight())]).toEqual([612, 792]);

    // The others are removed (AppendType Remove) and say where they went.
    expect((await liveRow(tif.id)).deleted).toBe(true);
    expect((await liveRow(pdf2.id)).deleted).toBe(true);
    const h = await history(pdf1);
    expect(h[0]).toMatchObject({ Category: 'updated', UserName: 'user' });
    expect(h[0]!.Message).toContain(`${tif.id}, ${pdf2.id}`);
    const gone = await s.store.query<{ category: string }>('SELECT category FROM audit_entries WHERE document_id = $1 ORDER BY id DESC LIMIT 1', [tif.id]);
    expect(gone.rows[0]!.category).toBe('deleted');
  });

  it('keeps the other documents with AppendType Keep', async () => {
    const [tif, pdf] = [take('TIF'), take('PDF')];
    const r = await post(body('Merge', tif, [pdf], { AppendType: 'Keep' }));
    expect(r.statusCode, r.body).toBe(200);
    expect(MergeAnswer.parse(r.json()).PageCount).toBe(tif.page_count + pdf.page_count);
    expect((await liveRow(pdf.id)).deleted).toBe(false);
    const merged = await storedPdf(tif.id);
    expect(merged.getPages().map(kindOf)).toEqual([...Array<string>(tif.page_count).fill('scan'), ...Array<string>(pdf.page_count).fill('text')]);
  });

  it('merges documents of two archives, page texts and content text in order', async () => {
    const [base, other] = [take('PDF'), take('PAID')];
    const expected = [...(await pageTexts(base.id)), ...(await pageTexts(other.id))];
    const content = await s.store.query<{ content_text: string }>('SELECT content_text FROM documents WHERE id = $1 OR id = $2 ORDER BY id = $1 DESC', [base.id, other.id]);
    const r = await post(body('Merge', base, [other], { AppendType: 'Remove' }));
    expect(r.statusCode, r.body).toBe(200);
    expect(await pageTexts(base.id)).toEqual(expected);
    const row = await s.store.query<{ content_text: string }>('SELECT content_text FROM documents WHERE id = $1', [base.id]);
    expect(row.rows[0]!.content_text).toBe(content.rows.map((c) => c.content_text).filter(Boolean).join('\n'));
    expect((await liveRow(other.id)).deleted).toBe(true);
  });

  it('does a resent call (same Idempotency-Key) once', async () => {
    const [base, other] = [take('PDF'), take('TIF')];
    const headers = { 'idempotency-key': `merge-${base.id}` };
    const first = await post(body('Merge', base, [other]), 'user', headers);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(body('Merge', base, [other]), 'user', headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await liveRow(base.id)).page_count).toBe(base.page_count + other.page_count);
    const entries = await s.store.query("SELECT 1 FROM audit_entries WHERE document_id = $1 AND category = 'updated' AND message LIKE 'Merged with%'", [base.id]);
    expect(entries.rowCount).toBe(1);
  });

  it('needs at least 2 documents', async () => {
    const d = take('PDF');
    for (const others of [[], [d]]) {
      const r = await post(body('Merge', d, others));
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ Key: 'ERROR_INCORRECT_PARAMETERS', Message: 'Merge needs at least 2 documents' });
    }
    expect((await liveRow(d.id)).page_count).toBe(d.page_count);
  });

  it('takes at most MERGE_MAX documents and no base in a versions archive', async () => {
    const d = take('PDF');
    const many = Array.from({ length: MERGE_MAX }, (_, i) => ({ ...d, id: d.id + 100_000 + i }));
    const r = await post(body('Merge', d, many));
    expect(r.statusCode).toBe(400);
    expect(r.json().Message).toBe(`A merge takes at most ${MERGE_MAX} documents`);
    const v = await s.store.query<SeedDoc>('SELECT id, archive_id, secure_hash, page_count FROM documents WHERE archive_id = $1 AND NOT deleted LIMIT 1', [A.contractVersions]);
    const version = { ...v.rows[0]!, id: Number(v.rows[0]!.id) };
    const rv = await post(body('Merge', version, [d]));
    expect(rv.statusCode).toBe(400);
    expect(rv.json().Message).toBe('A document of a versions archive cannot be merged into');
    expect((await liveRow(d.id)).deleted).toBe(false);
  });

  it('refuses an inbox base or target with a clear message', async () => {
    const d = take('PDF');
    const r = await post({ Type: 'Merge', Documents: [ref(d)], BaseDocument: { Type: 'Inbox', InboxID: 1, Path: 'scan-001.pdf' }, Target: { Type: 'Archive', Id: d.archive_id } });
    expect(r.statusCode).toBe(400);
    expect(r.json().Message).toMatch(/inbox/i);
  });
});

describe('append', () => {
  it("appends one document's pages after the base's, the base keeping its id", async () => {
    const [pdf, tif] = [take('PDF'), take('TIF')];
    const r = await post(body('Append', pdf, [tif], { AppendType: 'Remove' }));
    expect(r.statusCode, r.body).toBe(200);
    expect(MergeAnswer.parse(r.json())).toEqual({ DocID: pdf.id, ArchiveID: pdf.archive_id, PageCount: pdf.page_count + tif.page_count });
    const merged = await storedPdf(pdf.id);
    expect(merged.getPages().map(kindOf)).toEqual([...Array<string>(pdf.page_count).fill('text'), ...Array<string>(tif.page_count).fill('scan')]);
    expect((await liveRow(tif.id)).deleted).toBe(true);
    // The viewer's page images come from the new file: the last page (a scan page now in the PDF).
    const thumb = await s.app.inject({ method: 'GET', url: `${documentPaths.thumb(1, pdf.archive_id, pdf.id)}?SecureId=${pdf.secure_hash}&Page=${pdf.page_count + tif.page_count}&token=${tokens.user}` });
    expect(thumb.statusCode, thumb.body).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    const h = await history(pdf);
    expect(h[0]).toMatchObject({ Category: 'appended', Event: { Kind: 'document-appended', Count: tif.page_count } });
  });

  it('needs exactly one document besides the base', async () => {
    const [a, b, c] = [take('PDF'), take('PDF'), take('TIF')];
    const r = await post(body('Append', a, [b, c]));
    expect(r.statusCode).toBe(400);
    expect(r.json().Message).toBe('Append needs exactly one document besides the base document');
    expect((await liveRow(b.id)).deleted).toBe(false);
  });
});

describe('rights', () => {
  it('removes the other documents only with the delete right on them, and keeps them when AppendType is left out (clerk)', async () => {
    const [a, b, c] = [take('PDF'), take('TIF'), take('PDF')];
    // The clerk may merge on Invoices (bit 2) but not delete there (bit 8): deleting the document answers 403.
    const del = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${b.archive_id}/documents/${b.id}/delete?SecureId=${b.secure_hash}&token=${tokens.clerk}` });
    expect(del.statusCode).toBe(403);
    const removed = await post(body('Merge', a, [b], { AppendType: 'Remove' }), 'clerk');
    expect(removed.statusCode).toBe(403);
    expect(removed.json()).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: 'You do not have permission to delete documents of archive Invoices' });
    expect(await liveRow(b.id)).toMatchObject({ deleted: false, page_count: b.page_count });
    expect(await liveRow(a.id)).toMatchObject({ page_count: a.page_count });
    // Left out, AppendType is Keep: the merge is done and nothing is deleted.
    const kept = await post(body('Merge', a, [b]), 'clerk');
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await liveRow(b.id)).deleted).toBe(false);
    expect((await liveRow(a.id)).page_count).toBe(a.page_count + b.page_count);
    a.page_count += b.page_count;
    // The same for append.
    const appended = await post(body('Append', a, [c], { AppendType: 'Remove' }), 'clerk');
    expect(appended.statusCode).toBe(403);
    expect((await liveRow(c.id)).deleted).toBe(false);
    // With the delete right the clerk may remove them.
    await s.store.query('UPDATE archive_permissions SET rights = rights | 8 WHERE archive_id = $1 AND user_id = $2', [A.invoices, SEED_IDS.user.clerk]);
    try {
      const ok = await post(body('Append', a, [c], { AppendType: 'Remove' }), 'clerk');
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await liveRow(c.id)).deleted).toBe(true);
    } finally {
      await s.store.query('UPDATE archive_permissions SET rights = rights & ~8 WHERE archive_id = $1 AND user_id = $2', [A.invoices, SEED_IDS.user.clerk]);
    }
  });

  it('refuses the read-only licence (viewer)', async () => {
    const [a, b] = [take('PDF'), take('TIF')];
    for (const type of ['Merge', 'Append'] as const) {
      const r = await post(body(type, a, [b]), 'viewer');
      expect(r.statusCode).toBe(403);
      expect(r.json().Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    }
    expect((await liveRow(b.id)).deleted).toBe(false);
  });

  it('refuses merge without bit 2 and append without bit 4 (clerk)', async () => {
    const [a, b] = [take('PDF'), take('TIF')];
    const clerkRights = (sql: string) => s.store.query(`UPDATE archive_permissions SET rights = ${sql} WHERE archive_id = $1 AND user_id = $2`, [A.invoices, SEED_IDS.user.clerk]);
    await clerkRights('rights & ~2');
    try {
      const r = await post(body('Merge', a, [b]), 'clerk');
      expect(r.statusCode).toBe(403);
      expect(r.json().Message).toMatch(/permission to merge/);
    } finally {
      await clerkRights('rights | 2');
    }
    await clerkRights('rights & ~4');
    try {
      const r = await post(body('Append', a, [b]), 'clerk');
      expect(r.statusCode).toBe(403);
      expect(r.json().Message).toMatch(/permission to append/);
    } finally {
      await clerkRights('rights | 4');
    }
    expect(await liveRow(a.id)).toMatchObject({ page_count: a.page_count, deleted: false });
    // A document removed by the merge needs the bit on its own archive too.
    const paid = take('PAID');
    await s.store.query('UPDATE archive_permissions SET rights = rights & ~2 WHERE archive_id = $1 AND user_id = $2', [A.paidInvoices, SEED_IDS.user.clerk]);
    try {
      const r = await post(body('Merge', a, [paid], { AppendType: 'Remove' }), 'clerk');
      expect(r.statusCode).toBe(403);
      expect(r.json().Message).toBe('You do not have permission to merge documents of archive Paid Invoices');
      // Kept, not removed: the other archive is only read.
      const kept = await post(body('Merge', a, [paid], { AppendType: 'Keep' }), 'clerk');
      expect(kept.statusCode, kept.body).toBe(200);
      expect((await liveRow(paid.id)).deleted).toBe(false);
    } finally {
      await s.store.query('UPDATE archive_permissions SET rights = rights | 2 WHERE archive_id = $1 AND user_id = $2', [A.paidInvoices, SEED_IDS.user.clerk]);
    }
    a.page_count += paid.page_count;
    // With the bits back the clerk may append.
    const ok = await post(body('Append', a, [b]), 'clerk');
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
