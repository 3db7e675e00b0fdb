/**
 * Burst through GET/POST/DELETE api/files (server/routes/burst.ts, server/services/burst.ts): the
 * import document really holds the chosen pages (PDF pages as they were, TIFF pages pixel for pixel),
 * every refusal of the archive-ops spec §5 answers 400 with its key, the rights are enforced, and
 * indexing with deleteBurstedPages leaves the source with the other pages, a new version and history.
 */
import { PDFArray, PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { BURST_KEYS, BurstAnswer, BurstIndexed } from '../../src/api/burst';
import { UPLOAD_KEEP_MS } from '../../src/api/upload';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { purgeUploads } from '../../server/services/upload';
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
const pool: Record<'PDF' | 'TIF', SeedDoc[]> = { PDF: [], TIF: [] };
const take = (type: 'PDF' | 'TIF') => {
  const d = pool[type].shift();
  if (!d) throw new Error(`no ${type} document left`);
  return d;
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 120 } });
  for (const u of ['user', 'viewer', 'clerk', 'kiosk']) tokens[u] = await signIn(s, u);
  const r = await s.store.query<SeedDoc & { file_type: string; files: number }>(
    `SELECT d.id, d.archive_id, d.secure_hash, d.page_count, d.file_type, (SELECT count(*) FROM document_files f WHERE f.document_id = d.id)::int AS files
       FROM documents d WHERE d.archive_id = $1 AND NOT d.deleted AND d.page_count >= 3 ORDER BY d.id`,
    [A.invoices],
  );
  for (const d of r.rows) if ((d.file_type === 'PDF' || d.file_type === 'TIF') && d.files === 1) pool[d.file_type].push({ ...d, id: Number(d.id) });
  expect(pool.PDF.length).toBeGreaterThan(4);
  expect(pool.TIF.length).toBeGreaterThan(2);
  // Seeding takes ~50 s on a busy two-core machine.
}, 180_000);
afterAll(async () => {
  await s?.close();
});

const burstUrl = (d: SeedDoc, pages: number[], user = 'user', extra = '') =>
  `/api/files?action=burst&db=1&archive=${d.archive_id}&Id=${d.id}&SecureId=${d.secure_hash}${pages.map((p) => `&RequestedPages=${p}`).join('')}${extra}&token=${tokens[user]}`;
const burst = (d: SeedDoc, pages: number[], user = 'user', extra = '') => s.app.inject({ method: 'GET', url: burstUrl(d, pages, user, extra) });
const fileOf = async (docId: number) => {
  const f = await s.store.query<{ sha256: string; file_type: string }>('SELECT sha256, file_type FROM document_files WHERE document_id = $1 ORDER BY position', [docId]);
  expect(f.rows).toHaveLength(1);
  return { type: f.rows[0]!.file_type, bytes: await s.files.get(f.rows[0]!.sha256) };
};
const importBytes = async (name: string, user = 'user') => {
  const r = await s.app.inject({ method: 'GET', url: `/api/files?fileName=${name}&token=${tokens[user]}` });
  return r;
};
const contentOf = (page: PDFPage) => {
  const c = page.node.Contents();
  const streams = c instanceof PDFArray ? c.asArray().map((x) => page.doc.context.lookup(x) as PDFRawStream) : [c as PDFRawStream];
  return streams.map((st) => Buffer.from(st.getContents()).toString('latin1')).join('\n');
};
const tiffPixels = async (bytes: Buffer, page: number) => (await sharp(bytes, { page }).extractChannel(0).raw().toBuffer()).toString('base64');
const index = (name: string, archiveId: number, deletePages: boolean, fields: { ID: number; VAL: string }[], user = 'user') =>
  s.app.inject({
    method: 'POST',
    url: `/api/files?fileName=${name}&destinationDatabaseId=1&destinationArchiveId=${archiveId}&deleteBurstedPages=${deletePages}&token=${tokens[user]}`,
    payload: { Fields: fields },
  });

describe('burst', () => {
  it('copies the chosen PDF pages into an import document, text and drawing as they were', async () => {
    const d = take('PDF');
    const r = await burst(d, [3, 1]);
    expect(r.statusCode, r.body).toBe(200);
    const a = BurstAnswer.parse(r.json());
    expect(a).toMatchObject({ FileType: 'PDF', Pages: 2, RequestedPages: [1, 3] });
    expect(a.FileName).toMatch(/\(1, 3\)\.pdf$/);
    const got = await importBytes(a.ImportDoc);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    const out = await PDFDocument.load(got.rawPayload);
    expect(out.getPageCount()).toBe(2);
    const src = (await PDFDocument.load((await fileOf(d.id)).bytes)).getPages();
    expect(out.getPages().map(contentOf)).toEqual([src[0]!, src[2]!].map(contentOf));
    // Its pages as images, as the view route shows them.
    const thumb = await s.app.inject({ method: 'GET', url: `/api/files?fileName=${a.ImportDoc}&action=thumb&Page=2&Width=150&Height=150&token=${tokens.user}` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    // The source is untouched until the import document is indexed.
    expect((await fileOf(d.id)).bytes.equals((await fileOf(d.id)).bytes)).toBe(true);
    expect((await s.store.query('SELECT page_count FROM documents WHERE id = $1', [d.id])).rows[0]).toEqual({ page_count: d.page_count });
  });

  it('copies the chosen TIFF pages into a multi-page TIFF, pixel for pixel', async () => {
    const d = take('TIF');
    const r = await burst(d, [2, 3]);
    expect(r.statusCode, r.body).toBe(200);
    const a = BurstAnswer.parse(r.json());
    expect(a).toMatchObject({ FileType: 'TIF', Pages: 2, RequestedPages: [2, 3] });
    const got = await importBytes(a.ImportDoc);
    expect(got.headers['content-type']).toBe('image/tiff');
    const bytes = got.rawPayload;
    expect((await sharp(bytes).metadata()).pages).toBe(2);
    const src = (await fileOf(d.id)).bytes;
    expect(await tiffPixels(bytes, 0)).toBe(await tiffPixels(src, 1));
    expect(await tiffPixels(bytes, 1)).toBe(await tiffPixels(src, 2));
    expect(await tiffPixels(bytes, 0)).not.toBe(await tiffPixels(src, 0));
  });

  it('applies a page rotation to the import document', async () => {
    const d = take('TIF');
    await s.store.query('UPDATE document_pages SET rotation = 90 WHERE document_id = $1 AND page_no = 1', [d.id]);
    const a = BurstAnswer.parse((await burst(d, [1])).json());
    const meta = await sharp((await importBytes(a.ImportDoc)).rawPayload).metadata();
    const src = await sharp((await fileOf(d.id)).bytes, { page: 0 }).metadata();
    expect([meta.width, meta.height]).toEqual([src.pageHeight ?? src.height, src.width]);
  });

  it('refuses each case of the archive-ops spec §5 with its key', async () => {
    const d = take('PDF');
    const none = await burst(d, []);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ Key: BURST_KEYS.noThumbnail });
    const all = await burst(d, Array.from({ length: d.page_count }, (_, i) => i + 1), 'user', '&deleteBurstedPages=true');
    expect(all.statusCode).toBe(400);
    expect(all.json()).toMatchObject({ Key: BURST_KEYS.removeAll });
    // Every page without deleting them is a copy, and allowed.
    expect((await burst(d, Array.from({ length: d.page_count }, (_, i) => i + 1))).statusCode).toBe(200);
    const past = await burst(d, [d.page_count + 1]);
    expect(past.statusCode).toBe(400);
    expect(past.json().Message).toContain('RequestedPages');

    const edoc = take('PDF');
    await s.store.query("UPDATE documents SET file_type = 'DOCX' WHERE id = $1", [edoc.id]);
    await s.store.query("UPDATE document_files SET file_type = 'DOCX' WHERE document_id = $1", [edoc.id]);
    const e = await burst(edoc, [1]);
    expect(e.statusCode).toBe(400);
    expect(e.json()).toMatchObject({ Key: BURST_KEYS.edoc });
  });

  it('enforces the rights: view and add on the source, the Hash, the read-only licence, add on the destination', async () => {
    const d = pool.PDF[0]!;
    expect((await burst(d, [1], 'viewer')).statusCode).toBe(403); // read-only licence
    const bad = await s.app.inject({ method: 'GET', url: burstUrl({ ...d, secure_hash: 'x'.repeat(32) }, [1]) });
    expect(bad.statusCode).toBe(403);
    // kiosk may view and add in invoices only.
    const a = BurstAnswer.parse((await burst(d, [1], 'kiosk')).json());
    // Another user's import document is unknown.
    expect((await importBytes(a.ImportDoc, 'user')).statusCode).toBe(404);
    expect((await index(a.ImportDoc, A.correspondence, false, [{ ID: F.title, VAL: 'x' }], 'user')).statusCode).toBe(404);
    // kiosk only reads Correspondence (its group's rights): no add there.
    expect((await index(a.ImportDoc, A.correspondence, false, [{ ID: F.title, VAL: 'x' }], 'kiosk')).statusCode).toBe(403);
    // Removing pages needs edit (1024): taken from clerk here.
    await s.store.query('UPDATE archive_permissions SET rights = rights & ~1024 WHERE archive_id = $1 AND user_id = $2', [A.invoices, SEED_IDS.user.clerk]);
    const cut = await burst(d, [1], 'clerk', '&deleteBurstedPages=true');
    expect(cut.statusCode).toBe(403);
    const ok = BurstAnswer.parse((await burst(d, [1], 'clerk')).json());
    const refused = await index(ok.ImportDoc, A.invoices, true, [{ ID: F.title, VAL: 'x' }], 'clerk');
    expect(refused.statusCode).toBe(403);
  });

  it('indexes the import document into an archive, checking the values by the field rules', async () => {
    const d = take('PDF');
    const a = BurstAnswer.parse((await burst(d, [2, 3])).json());
    // Title is required in Correspondence.
    const missing = await index(a.ImportDoc, A.correspondence, false, []);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().Fields).toEqual(expect.arrayContaining([expect.objectContaining({ ID: F.title, Code: -5 })]));
    const r = await index(a.ImportDoc, A.correspondence, false, [{ ID: F.title, VAL: 'Burst pages' }]);
    expect(r.statusCode, r.body).toBe(200);
    const done = BurstIndexed.parse(r.json());
    expect(done).toMatchObject({ ArchiveID: A.correspondence, Pages: 2 });
    expect(done.SourcePages).toBeUndefined();
    const row = (await s.store.query<{ page_count: number; fields: Record<string, string> }>('SELECT page_count, fields FROM documents WHERE id = $1', [done.DocID])).rows[0]!;
    expect(row.page_count).toBe(2);
    expect(row.fields[String(F.title)]).toBe('Burst pages');
    expect(row.fields[String(F.pageCount)]).toBe('2');
    expect((await PDFDocument.load((await fileOf(done.DocID)).bytes)).getPageCount()).toBe(2);
    // The pages' text came along: the source's pages 2 and 3, for content search.
    const texts = async (id: number) => (await s.store.query<{ text: string | null }>('SELECT text FROM document_pages WHERE document_id = $1 ORDER BY page_no', [id])).rows.map((p) => p.text);
    const srcTexts = await texts(d.id);
    expect(srcTexts[1]).toBeTruthy();
    expect(await texts(done.DocID)).toEqual([srcTexts[1], srcTexts[2]]);
    const content = await s.store.query<{ content_text: string }>('SELECT content_text FROM documents WHERE id = $1', [done.DocID]);
    expect(content.rows[0]!.content_text).toBe(`${srcTexts[1]}\n${srcTexts[2]}`);
    // Indexed once: the import document is gone.
    expect((await index(a.ImportDoc, A.correspondence, false, [{ ID: F.title, VAL: 'again' }])).statusCode).toBe(404);
    expect((await s.store.query('SELECT page_count FROM documents WHERE id = $1', [d.id])).rows[0]).toEqual({ page_count: d.page_count });
  });

  it('with deleteBurstedPages leaves the source with the remaining pages, a new version and history on both', async () => {
    const d = take('TIF');
    const src = (await fileOf(d.id)).bytes;
    const before = await tiffPixels(src, 1);
    const a = BurstAnswer.parse((await burst(d, [1, 3], 'user', '&deleteBurstedPages=true')).json());
    const r = await index(a.ImportDoc, A.invoices, true, [{ ID: F.title, VAL: 'Split off' }]);
    expect(r.statusCode, r.body).toBe(200);
    const done = BurstIndexed.parse(r.json());
    expect(done.SourcePages).toBe(d.page_count - 2);
    const left = await fileOf(d.id);
    expect(left.type).toBe('TIF');
    expect((await sharp(left.bytes).metadata()).pages).toBe(d.page_count - 2);
    // The source's page 2 is now its page 1.
    expect(await tiffPixels(left.bytes, 0)).toBe(before);
    const row = (await s.store.query<{ page_count: number; version: number; fields: Record<string, string> }>('SELECT page_count, version, fields FROM documents WHERE id = $1', [d.id])).rows[0]!;
    expect(row.page_count).toBe(d.page_count - 2);
    expect(row.fields[String(F.pageCount)]).toBe(String(d.page_count - 2));
    const versions = await s.store.query<{ version: number; comment: string }>('SELECT version, comment FROM document_versions WHERE document_id = $1 ORDER BY version DESC', [d.id]);
    expect(versions.rows[0]).toMatchObject({ version: row.version, comment: `Pages 1, 3 burst into document ${done.DocID}` });
    const pages = await s.store.query<{ page_no: number }>('SELECT page_no FROM document_pages WHERE document_id = $1 ORDER BY page_no', [d.id]);
    expect(pages.rows.map((p) => p.page_no)).toEqual(Array.from({ length: d.page_count - 2 }, (_, i) => i + 1));

    const hist = async (archive: number, id: number, hash: string) => {
      const h = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${archive}/documents/${id}/audit?SecureId=${hash}&token=${tokens.user}` });
      expect(h.statusCode).toBe(200);
      return DocumentHistory.parse(h.json());
    };
    const sh = await hist(A.invoices, d.id, d.secure_hash);
    expect(sh.slice(0, 2).map((e) => e.Event)).toEqual([expect.objectContaining({ Kind: 'page-deleted', Page: 1 }), expect.objectContaining({ Kind: 'page-deleted', Page: 3 })]);
    const nh = await hist(A.invoices, done.DocID, done.Hash);
    expect(nh[0]!.Message).toBe(`Burst from document ${d.id} (pages 1, 3)`);
  });

  it('refuses to cut a source changed since the burst, and the last pages at indexing time', async () => {
    const d = take('PDF');
    const a = BurstAnswer.parse((await burst(d, [1])).json());
    await s.store.query('UPDATE documents SET page_count = page_count + 1 WHERE id = $1', [d.id]);
    await s.store.query("INSERT INTO document_pages (document_id, page_no, file_id, page_in_file) SELECT document_id, page_no + 1000, file_id, 0 FROM document_pages WHERE document_id = $1 AND page_no = 1", [d.id]);
    const r = await index(a.ImportDoc, A.invoices, true, [{ ID: F.title, VAL: 'x' }]);
    expect(r.statusCode).toBe(409);

    const e = take('PDF');
    const every = BurstAnswer.parse((await burst(e, Array.from({ length: e.page_count }, (_, i) => i + 1))).json());
    const cut = await index(every.ImportDoc, A.invoices, true, [{ ID: F.title, VAL: 'x' }]);
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ Key: BURST_KEYS.removeAll });
  });

  it('forgets an import document left unindexed after a day (the uploads purge)', async () => {
    const d = pool.PDF[0]!;
    const a = BurstAnswer.parse((await burst(d, [1])).json());
    await purgeUploads(s.store, s.files, s.clock.t + UPLOAD_KEEP_MS - 1000);
    expect((await importBytes(a.ImportDoc)).statusCode).toBe(200);
    await purgeUploads(s.store, s.files, s.clock.t + UPLOAD_KEEP_MS + 1000);
    expect((await importBytes(a.ImportDoc)).statusCode).toBe(404);
  });

  it('drops an import document on DELETE', async () => {
    const d = pool.PDF[0]!;
    const a = BurstAnswer.parse((await burst(d, [1])).json());
    const del = await s.app.inject({ method: 'DELETE', url: `/api/files?fileName=${a.ImportDoc}&token=${tokens.user}` });
    expect(del.statusCode).toBe(204);
    expect((await importBytes(a.ImportDoc)).statusCode).toBe(404);
  });
});
