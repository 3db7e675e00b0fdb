/**
 * Single export (the user-app spec §7 `GET .../documents/{id}/file`; contract src/api/export.ts): the
 * document's file byte for byte with its type, length and name (stored, or from a field's value made
 * safe), a document of several files as one PDF of all its pages, the refusals (no export right 128,
 * a wrong SecureId, unknown and deleted documents) and the 'exported' history entry on request.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { ErrorBody } from '../../src/api/errors';
import { exportPaths } from '../../src/api/export';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { contentDisposition, safeBaseName } from '../../server/services/document-file';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
let invoices: Awaited<ReturnType<typeof documentPool>>;
let correspondence: Awaited<ReturnType<typeof documentPool>>;

beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
  invoices = await documentPool(s, A.invoices);
  correspondence = await documentPool(s, A.correspondence);
});
afterAll(async () => {
  await s?.close();
});

/** The call as the app makes it: the token in the Auth-Token header, never in the address. */
const download = (d: PoolDoc, q: Record<string, string> = {}, user = 'user') =>
  s.app.inject({
    method: 'GET',
    url: `${exportPaths.file(1, d.archive_id, d.id)}?${new URLSearchParams({ SecureId: d.secure_hash, ...q })}`,
    headers: { 'auth-token': tokens[user] as string },
  });

/** The name a browser takes from Content-Disposition: the RFC 5987 filename* when there is one. */
function dispositionName(header: string | undefined): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (star) return decodeURIComponent(star[1]!);
  return /filename="([^"]*)"/.exec(header ?? '')?.[1] ?? '';
}

const filesOf = async (docId: number) =>
  (await s.store.query<{ sha256: string; file_name: string; file_type: string }>('SELECT sha256, file_name, file_type FROM document_files WHERE document_id = $1 ORDER BY position, id', [docId])).rows;

const exportedEntries = async (d: PoolDoc) => {
  const h = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` });
  expect(h.statusCode, h.body).toBe(200);
  return DocumentHistory.parse(h.json()).filter((e) => e.Category === 'exported');
};

describe('GET .../documents/{id}/file', () => {
  it("gives the document's file byte for byte, with its type, length and stored name, to a token in the header", async () => {
    const [d] = invoices.take(1);
    const r = await download(d!);
    expect(r.statusCode, r.body).toBe(200);
    const [f] = await filesOf(d!.id);
    const stored = await s.files.get(f!.sha256);
    expect(r.rawPayload.equals(stored)).toBe(true);
    expect(r.headers['content-length']).toBe(String(stored.byteLength));
    expect(r.headers['content-type']).toBe(f!.file_type === 'PDF' ? 'application/pdf' : 'image/tiff');
    expect(r.headers['content-disposition']).toMatch(/^attachment; /);
    expect(dispositionName(r.headers['content-disposition'] as string)).toBe(f!.file_name);
    // Never compressed, whatever the client accepts: the bytes are the file's.
    const gz = await s.app.inject({
      method: 'GET',
      url: `${exportPaths.file(1, d!.archive_id, d!.id)}?SecureId=${d!.secure_hash}`,
      headers: { 'auth-token': tokens.user as string, 'accept-encoding': 'gzip, br' },
    });
    expect(gz.headers['content-encoding']).toBeUndefined();
    expect(gz.rawPayload.equals(stored)).toBe(true);
  });

  it("names the file by the value of fileNameFieldId, made safe, with the file's extension; an empty value gives the stored name", async () => {
    const [d, empty] = invoices.take(2);
    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.title}}', to_jsonb($2::text)) WHERE id = $1`, [d!.id, ' Q3: "Müller" / Größe? <draft>. ']);
    const [f] = await filesOf(d!.id);
    const ext = f!.file_name.slice(f!.file_name.lastIndexOf('.'));
    const r = await download(d!, { fileNameFieldId: String(F.title) });
    expect(r.statusCode, r.body).toBe(200);
    expect(dispositionName(r.headers['content-disposition'] as string)).toBe(`Q3_ _Müller_ _ Größe_ _draft_${ext}`);
    // The ASCII fallback for old clients holds no quote and no byte above 0x7e.
    expect(/filename="([^"]*)"/.exec(r.headers['content-disposition'] as string)?.[1]).toBe(`Q3_ _M_ller_ _ Gr__e_ _draft_${ext}`);

    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.title}}', '""'::jsonb) WHERE id = $1`, [empty!.id]);
    const r2 = await download(empty!, { fileNameFieldId: String(F.title) });
    expect(dispositionName(r2.headers['content-disposition'] as string)).toBe((await filesOf(empty!.id))[0]!.file_name);
  });

  it('gives a document of several files as ONE PDF of all its pages, in order', async () => {
    // A PDF document takes a TIFF document's file as its second file (pages after its own).
    const typed: Record<string, { id: number; page_count: number }> = {};
    while (!(typed.PDF && typed.TIF)) {
      const [d] = invoices.take(1);
      const r = await s.store.query<{ file_type: string; page_count: number }>('SELECT file_type, page_count FROM documents WHERE id = $1', [d!.id]);
      typed[r.rows[0]!.file_type] ??= { id: d!.id, page_count: r.rows[0]!.page_count };
    }
    const pdfDoc = typed.PDF;
    const tifDoc = typed.TIF;
    const [tif] = await filesOf(Number(tifDoc!.id));
    const f = await s.store.query<{ id: number }>(
      `INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count) VALUES ($1, 1, $2, 'scan.tif', 'TIF', $3) RETURNING id`,
      [pdfDoc!.id, tif!.sha256, tifDoc!.page_count],
    );
    for (let i = 0; i < tifDoc!.page_count; i++) {
      await s.store.query('INSERT INTO document_pages (document_id, page_no, file_id, page_in_file) VALUES ($1, $2, $3, $4)', [pdfDoc!.id, pdfDoc!.page_count + i + 1, f.rows[0]!.id, i]);
    }
    const hash = (await s.store.query<{ secure_hash: string }>('SELECT secure_hash FROM documents WHERE id = $1', [pdfDoc!.id])).rows[0]!.secure_hash;
    const d = { id: Number(pdfDoc!.id), archive_id: A.invoices, secure_hash: hash };
    const r = await download(d);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-length']).toBe(String(r.rawPayload.byteLength));
    expect(dispositionName(r.headers['content-disposition'] as string)).toBe(`document-${d.id}.pdf`);
    const pdf = await PDFDocument.load(r.rawPayload);
    expect(pdf.getPageCount()).toBe(pdfDoc!.page_count + tifDoc!.page_count);
    // The first pages are the PDF's own, as they were (same size as in the stored file).
    const own = await PDFDocument.load(await s.files.get((await filesOf(d.id))[0]!.sha256));
    expect(pdf.getPage(0).getSize()).toEqual(own.getPage(0).getSize());
  });

  it('writes an exported history entry with auditEntry=true, and none without it or for a HEAD', async () => {
    const [d] = invoices.take(1);
    expect((await download(d!)).statusCode).toBe(200);
    expect((await download(d!, { auditEntry: 'false' })).statusCode).toBe(200);
    const head = await s.app.inject({
      method: 'HEAD',
      url: `${exportPaths.file(1, d!.archive_id, d!.id)}?SecureId=${d!.secure_hash}&auditEntry=true`,
      headers: { 'auth-token': tokens.user as string },
    });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(await exportedEntries(d!)).toHaveLength(0);
    expect((await download(d!, { auditEntry: 'true' })).statusCode).toBe(200);
    const entries = await exportedEntries(d!);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ Category: 'exported', UserName: 'user', DocumentID: d!.id, Event: { Kind: 'exported' } });
  });

  it('refuses a user without the export right (128) and a wrong SecureId with 403; the read-only licence may export where it holds 128', async () => {
    const [d] = invoices.take(1);
    // The viewer may view Invoices but holds no 128 there (seed).
    const viewer = await download(d!, { auditEntry: 'true' }, 'viewer');
    expect(viewer.statusCode).toBe(403);
    expect(ErrorBody.parse(viewer.json())).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: expect.stringMatching(/export/) });
    expect(await exportedEntries(d!)).toHaveLength(0);
    // In Correspondence the staff group gives it 128: export is reading, not a change.
    const [c] = correspondence.take(1);
    expect((await download(c!, {}, 'viewer')).statusCode).toBe(200);

    const wrong = await download({ ...d!, secure_hash: 'not-its-hash' });
    expect(wrong.statusCode).toBe(403);
    expect(ErrorBody.parse(wrong.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const noToken = await s.app.inject({ method: 'GET', url: `${exportPaths.file(1, d!.archive_id, d!.id)}?SecureId=${d!.secure_hash}` });
    expect(noToken.statusCode).not.toBe(200);
  });

  it('View=true (the viewer, keep offline) needs only the view right and writes no history; without view it is still 403', async () => {
    const [d] = invoices.take(1);
    // The viewer user holds view but not export (128) on Invoices: it may see the document, not export it.
    const shown = await download(d!, { View: 'true', auditEntry: 'true' }, 'viewer');
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await exportedEntries(d!)).toHaveLength(0);
    expect((await download(d!, {}, 'viewer')).statusCode).toBe(403);
    const wrong = await download({ ...d!, secure_hash: 'not-its-hash' }, { View: 'true' }, 'viewer');
    expect(wrong.statusCode).toBe(403);
  });

  it('answers 404 for an unknown or deleted document, and 400 without a SecureId', async () => {
    const [d] = invoices.take(1);
    expect((await download({ ...d!, id: 987_654 })).statusCode).toBe(404);
    await s.store.query('UPDATE documents SET deleted = true, deleted_at = now() WHERE id = $1', [d!.id]);
    const gone = await download(d!);
    expect(gone.statusCode).toBe(404);
    expect(ErrorBody.parse(gone.json()).Key).toBe('ERROR_NOT_FOUND');
    const bad = await s.app.inject({ method: 'GET', url: exportPaths.file(1, d!.archive_id, d!.id), headers: { 'auth-token': tokens.user as string } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('file names', () => {
  it('safeBaseName keeps letters of any script and removes what a file system refuses', () => {
    expect(safeBaseName('Rechnung 2026/03 für Müller')).toBe('Rechnung 2026_03 für Müller');
    expect(safeBaseName('a\u0000b\tc\r\nd')).toBe('a b c d');
    expect(safeBaseName('...hidden. ')).toBe('hidden');
    expect(safeBaseName('CON')).toBe('_CON');
    expect(safeBaseName('   ')).toBe('');
    expect([...safeBaseName('x'.repeat(500))]).toHaveLength(120);
  });

  it('contentDisposition gives an ASCII fallback and the exact name as RFC 5987 filename*', () => {
    expect(contentDisposition("l'été (1).pdf")).toBe(`attachment; filename="l'_t_ (1).pdf"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29.pdf`);
  });
});
