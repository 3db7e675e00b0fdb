/**
 * Page rotation (POST api/Processing), annotations and stamps (server/routes/annotations.ts,
 * server/services/annotations.ts) and their burn-in on export (server/services/annotation-burn.ts):
 * the stored file really turns (a PDF page's /Rotate, a TIFF page's pixels), the rights of
 * the user-app spec §6 are enforced (1024 edit, 2048 annotations, licence 4), stamps are sorted, unique and
 * changed by administrators of all databases only, and an export with WithAnnotations carries the
 * stamp's text while a plain export does not.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Annotation, DocumentAnnotations, ProcessingAnswer, STAMP_EXISTS_KEY, STAMP_FONT_SIZE, StampList, annotationPaths, stampPaths, type AnnotationInput } from '../../src/api/annotations';
import { DocumentHistory } from '../../src/api/audit';
import { DocumentPage } from '../../src/api/search';
import { ErrorBody } from '../../src/api/errors';
import { ExportAccepted, exportPaths } from '../../src/api/export';
import { JobRunner } from '../../server/jobs/runner';
import { SEED_IDS } from '../../server/seed/catalog';
import { turnPlacement } from '../../server/services/annotations';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};

interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
  page_count: number;
}
const pool: Record<'PDF' | 'TIF', Doc[]> = { PDF: [], TIF: [] };
const take = (type: 'PDF' | 'TIF') => {
  const d = pool[type].shift();
  if (!d) throw new Error(`no ${type} document left`);
  return d;
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 120 }, jobs: { run: false } });
  for (const u of ['user', 'admin', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
  const r = await s.store.query<Doc & { file_type: string; files: number }>(
    `SELECT d.id, d.archive_id, d.secure_hash, d.page_count, d.file_type, (SELECT count(*) FROM document_files f WHERE f.document_id = d.id)::int AS files
       FROM documents d WHERE d.archive_id = $1 AND NOT d.deleted AND d.page_count > 1 ORDER BY d.id`,
    [A.invoices],
  );
  for (const d of r.rows) if ((d.file_type === 'PDF' || d.file_type === 'TIF') && d.files === 1) pool[d.file_type].push({ ...d, id: Number(d.id) });
  expect(pool.PDF.length).toBeGreaterThan(5);
  expect(pool.TIF.length).toBeGreaterThan(2);
});
afterAll(async () => {
  await s?.close();
});

const rotate = (d: Doc, angle: number, page: number, user = 'user') =>
  s.app.inject({ method: 'POST', url: `${annotationPaths.processing}?token=${tokens[user]}`, payload: { db: 1, archive: d.archive_id, doc: d.id, secureId: d.secure_hash, angle, page } });
const fileOf = async (docId: number) => {
  const f = (await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1 ORDER BY position, id LIMIT 1', [docId])).rows[0]!;
  return { sha256: f.sha256, bytes: await s.files.get(f.sha256) };
};
const list = (d: Doc, user = 'user') => s.app.inject({ method: 'GET', url: `${annotationPaths.list(1, d.archive_id, d.id)}?SecureId=${d.secure_hash}&token=${tokens[user]}` });
const put = (d: Doc, id: string, body: AnnotationInput, user = 'user') =>
  s.app.inject({ method: 'PUT', url: `${annotationPaths.one(1, d.archive_id, d.id, id)}?SecureId=${d.secure_hash}&token=${tokens[user]}`, payload: body });
const del = (d: Doc, id: string, user = 'user') => s.app.inject({ method: 'DELETE', url: `${annotationPaths.one(1, d.archive_id, d.id, id)}?SecureId=${d.secure_hash}&token=${tokens[user]}` });
const note = (over: Partial<AnnotationInput> = {}): AnnotationInput => ({ Kind: 'text', Page: 1, X: 0.1, Y: 0.1, Width: 0.3, Height: 0.05, FontSize: 0.015, Text: 'Check the total', Color: '#1a237e', ...over });
const stamp = (text: string, over: Partial<AnnotationInput> = {}): AnnotationInput => ({ Kind: 'stamp', Page: 1, X: 0.2, Y: 0.3, Width: 0.5, Height: 0.08, FontSize: STAMP_FONT_SIZE, Text: text, ...over });
const keyOf = (r: { json: () => unknown }) => ErrorBody.parse(r.json()).Key;

describe('page rotation (POST api/Processing)', () => {
  it('turns a PDF page: its /Rotate changes in the stored file, a new version and a history entry', async () => {
    const d = take('PDF');
    const before = await fileOf(d.id);
    const r = await rotate(d, 90, 2);
    expect(r.statusCode, r.body).toBe(200);
    const answer = ProcessingAnswer.parse(r.json());
    expect(answer).toMatchObject({ Page: 2, Rotation: 90, Pages: d.page_count });
    const after = await fileOf(d.id);
    expect(after.sha256).not.toBe(before.sha256);
    const pdf = await PDFDocument.load(after.bytes);
    expect(pdf.getPage(1).getRotation().angle).toBe(90);
    expect(pdf.getPage(0).getRotation().angle).toBe(0);
    // Then left (-90, which is 270) and 270 again: 90 + 270 + 270 = 630, i.e. 270.
    expect((await rotate(d, -90, 2)).statusCode).toBe(200);
    expect((await rotate(d, 270, 2)).statusCode).toBe(200);
    expect((await PDFDocument.load((await fileOf(d.id)).bytes)).getPage(1).getRotation().angle).toBe(270);
    const v = await s.store.query<{ version: number }>('SELECT version FROM documents WHERE id = $1', [d.id]);
    expect(v.rows[0]!.version).toBe(answer.Version + 2);
    const versions = await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_versions WHERE document_id = $1 AND version = $2', [d.id, answer.Version]);
    expect(versions.rows[0]!.n).toBe(1);
    const history = DocumentHistory.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` })).json());
    expect(history[0]).toMatchObject({ Category: 'updated', Event: { Kind: 'page-rotated', Page: 2, Angle: 270 } });
  });

  it('turns a TIFF page: its width and height swap, the other pages stay as they were', async () => {
    const d = take('TIF');
    const before = await fileOf(d.id);
    const pages = (await sharp(before.bytes).metadata()).pages ?? 1;
    const dims = async (bytes: Buffer, k: number) => {
      const m = await sharp(bytes, { page: k }).metadata();
      return { w: m.width, h: m.pageHeight ?? m.height };
    };
    const p1 = await dims(before.bytes, 0);
    expect(p1.w).not.toBe(p1.h);
    const r = await rotate(d, 90, 1);
    expect(r.statusCode, r.body).toBe(200);
    const after = await fileOf(d.id);
    expect((await sharp(after.bytes).metadata()).pages ?? 1).toBe(pages);
    expect(await dims(after.bytes, 0)).toEqual({ w: p1.h, h: p1.w });
    if (pages > 1) expect(await dims(after.bytes, 1)).toEqual(await dims(before.bytes, 1));
    // Still bilevel: a scanned page stays a small lossless page.
    expect((await sharp(after.bytes, { page: 0 }).metadata()).bitsPerSample).toBe(1);
    // The page image the viewer gets is the turned one (landscape now).
    const thumb = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/thumb?SecureId=${d.secure_hash}&Width=400&Page=1&token=${tokens.user}` });
    expect(thumb.statusCode).toBe(200);
    const t = await sharp(thumb.rawPayload).metadata();
    expect(t.width!).toBeGreaterThan(t.height!);
  });

  it("a turned first page gives the document a new ThumbVersion in the grid's rows and the indexer's, so thumbnail addresses change", async () => {
    const d = take('TIF');
    const thumbVersion = async () => {
      const page = DocumentPage.parse(
        (await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?page=1&RecordsPerPage=500&token=${tokens.user}` })).json(),
      );
      const row = page.Docs.find((x) => x.Id === d.id);
      const index = DocumentPage.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/fields?SecureId=${d.secure_hash}&token=${tokens.user}` })).json());
      expect(row, 'the document on the first 500 rows').toBeTruthy();
      expect(index.Docs[0]!.ThumbVersion).toBe(row!.ThumbVersion);
      return row!.ThumbVersion;
    };
    const before = await thumbVersion();
    expect(before).toMatch(/^[0-9a-f]{16}\.0\.0$/);
    expect(await thumbVersion()).toBe(before);
    expect((await rotate(d, 90, 1)).statusCode).toBe(200);
    const after = await thumbVersion();
    expect(after).toMatch(/^[0-9a-f]{16}\.0\.0$/);
    expect(after).not.toBe(before);
  });

  it('refuses without edit (1024), for the read-only licence, a wrong secure id, page or angle', async () => {
    const d = take('PDF');
    const records = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash, page_count FROM documents WHERE archive_id = $1 AND NOT deleted AND page_count > 0 LIMIT 1', [A.records])).rows[0]!;
    const noEdit = await s.app.inject({ method: 'POST', url: `${annotationPaths.processing}?token=${tokens.user}`, payload: { db: 2, archive: records.archive_id, doc: Number(records.id), secureId: records.secure_hash, angle: 90, page: 1 } });
    expect(noEdit.statusCode).toBe(403);
    expect(keyOf(noEdit)).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const readOnly = await rotate(d, 90, 1, 'viewer');
    expect(readOnly.statusCode).toBe(403);
    expect((await rotate({ ...d, secure_hash: 'wrong' }, 90, 1)).statusCode).toBe(403);
    expect((await rotate(d, 90, 99)).statusCode).toBe(400);
    const badAngle = await rotate(d, 45, 1);
    expect(badAngle.statusCode).toBe(400);
    expect(keyOf(badAngle)).toBe('ERROR_INCORRECT_PARAMETERS');
    // clerk has edit but not annotations: rotating is editing, so it is allowed.
    expect((await rotate(d, 180, 1, 'clerk')).statusCode).toBe(200);
  });

  it('turns the page\'s annotations with it', () => {
    // A box at the top left of a portrait page (600 x 800) comes to the top right after 90 degrees.
    const p = turnPlacement({ x: 0, y: 0, width: 0.5, height: 0.1, fontSize: 0.05 }, 90, { width: 600, height: 800 });
    expect(p.x + p.width).toBeCloseTo(1, 5);
    // Its centre was a quarter across the page: now a quarter down.
    expect(p.y + p.height / 2).toBeCloseTo(0.25, 5);
    // Its size on the page is kept: 300 px wide on a page now 800 wide.
    expect(p.width).toBeCloseTo(300 / 800, 5);
    expect(p.fontSize).toBeCloseTo((0.05 * 600) / 800, 5);
  });
});

describe('annotations', () => {
  it('round trip: added, listed with the rights, moved, removed; history entries of category annotation', async () => {
    const d = take('PDF');
    const empty = DocumentAnnotations.parse((await list(d)).json());
    expect(empty.Annotations).toEqual([]);
    expect(empty.Permissions & 2048).toBe(2048);
    const id = crypto.randomUUID();
    const added = await put(d, id, note());
    expect(added.statusCode, added.body).toBe(200);
    expect(Annotation.parse(added.json())).toMatchObject({ Id: id, Kind: 'text', Text: 'Check the total', CreatedBy: 'user', Mine: true });
    const moved = await put(d, id, note({ X: 0.5, Y: 0.6 }));
    expect(moved.statusCode).toBe(200);
    const sid = crypto.randomUUID();
    expect((await put(d, sid, stamp('RECEIVED 11/27/2026 9:05 PM'))).statusCode).toBe(200);
    const now = DocumentAnnotations.parse((await list(d)).json()).Annotations;
    expect(now.map((a) => [a.Id, a.X, a.Y])).toEqual(expect.arrayContaining([[id, 0.5, 0.6], [sid, 0.2, 0.3]]));
    // Others see them, but not as theirs; they cannot move or remove them.
    const theirs = DocumentAnnotations.parse((await list(d, 'admin')).json()).Annotations;
    expect(theirs.every((a) => !a.Mine)).toBe(true);
    expect((await put(d, id, note({ X: 0 }), 'admin')).statusCode).toBe(403);
    expect((await del(d, id, 'admin')).statusCode).toBe(403);
    // A stamp's text is read-only.
    expect((await put(d, sid, stamp('PAID'))).statusCode).toBe(400);
    expect((await del(d, id)).json()).toEqual({ Deleted: true });
    expect((await del(d, id)).json()).toEqual({ Deleted: false });
    expect(DocumentAnnotations.parse((await list(d)).json()).Annotations.map((a) => a.Id)).toEqual([sid]);
    const history = DocumentHistory.parse((await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` })).json());
    const kinds = history.filter((h) => h.Category === 'annotation').map((h) => h.Event?.Kind);
    expect(kinds).toEqual(['annotation-deleted', 'stamp-applied', 'annotation-changed', 'annotation-added']);
    expect(history.find((h) => h.Event?.Kind === 'stamp-applied')?.Event?.Stamp).toBe('RECEIVED 11/27/2026 9:05 PM');
  });

  it('needs 2048 and a licence that may write; reading needs view only', async () => {
    const d = take('PDF');
    const noRight = await put(d, crypto.randomUUID(), note(), 'clerk');
    expect(noRight.statusCode).toBe(403);
    expect(keyOf(noRight)).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect((await put(d, crypto.randomUUID(), note(), 'viewer')).statusCode).toBe(403);
    const id = crypto.randomUUID();
    expect((await put(d, id, note())).statusCode).toBe(200);
    expect((await del(d, id, 'clerk')).statusCode).toBe(403);
    const seen = DocumentAnnotations.parse((await list(d, 'clerk')).json());
    expect(seen.Annotations).toHaveLength(1);
    expect(seen.Permissions & 2048).toBe(0);
    expect((await list(d, 'viewer')).statusCode).toBe(200);
  });

  it('bad input: 400 with a key, never a 500', async () => {
    const d = take('PDF');
    for (const body of [note({ X: 2 }), note({ Page: 99 }), note({ Text: '' }), { ...note(), Kind: 'circle' }, note({ Color: 'red' })]) {
      const r = await put(d, crypto.randomUUID(), body as AnnotationInput);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(keyOf(r)).toBe('ERROR_INCORRECT_PARAMETERS');
    }
    expect((await put(d, 'bad id!', note())).statusCode).toBe(400);
  });
});

describe('the read-only licence in the viewer', () => {
  it('may open a viewer session (POST api/session changes no document), and sees annotations, but not change them', async () => {
    const d = take('PDF');
    const r = await s.app.inject({ method: 'POST', url: `/api/session?token=${tokens.viewer}`, payload: { Database: 1, Documents: [{ Archive: d.archive_id, Id: d.id, Hash: d.secure_hash }] } });
    expect(r.statusCode, r.body).toBe(200);
    expect((await list(d, 'viewer')).statusCode).toBe(200);
    const refused = await put(d, crypto.randomUUID(), note(), 'viewer');
    expect(refused.statusCode).toBe(403);
  });
});

describe('stamps (GET, POST, DELETE api/admin/stamps)', () => {
  const stamps = async (user = 'user') => StampList.parse((await s.app.inject({ method: 'GET', url: `${stampPaths.list}?token=${tokens[user]}` })).json());
  const add = (text: string, user = 'admin') => s.app.inject({ method: 'POST', url: `${stampPaths.list}?token=${tokens[user]}`, payload: { Text: text } });

  it('lists every stamp, sorted alphabetically, for any signed-in user', async () => {
    const texts = (await stamps('viewer')).map((x) => x.Text);
    expect(texts.length).toBeGreaterThan(2);
    expect(texts).toEqual([...texts].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(texts).toContain('RECEIVED @Today');
    expect((await s.app.inject({ method: 'GET', url: stampPaths.list })).statusCode).toBe(401);
  });

  it('an administrator of all databases adds and removes them; a text is unique; others get 403', async () => {
    const r = await add('APPROVED BY @User');
    expect(r.statusCode, r.body).toBe(200);
    const id = (r.json() as { Id: number }).Id;
    expect((await stamps()).map((x) => x.Text)).toContain('APPROVED BY @User');
    const twice = await add('approved by @user');
    expect(twice.statusCode).toBe(409);
    expect(ErrorBody.parse(twice.json())).toMatchObject({ Key: STAMP_EXISTS_KEY, Message: 'Stamp already exists.' });
    expect((await add('Other', 'user')).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'DELETE', url: `${stampPaths.one(id)}?token=${tokens.user}` })).statusCode).toBe(403);
    expect((await add('', 'admin')).statusCode).toBe(400);
    expect((await s.app.inject({ method: 'DELETE', url: `${stampPaths.one(id)}?token=${tokens.admin}` })).statusCode).toBe(200);
    expect((await stamps()).map((x) => x.Text)).not.toContain('APPROVED BY @User');
    expect((await s.app.inject({ method: 'DELETE', url: `${stampPaths.one(id)}?token=${tokens.admin}` })).statusCode).toBe(404);
  });
});

describe('burn-in on export (WithAnnotations)', () => {
  const require = createRequire(import.meta.url);
  async function pdfText(bytes: Uint8Array): Promise<string> {
    const root = dirname(require.resolve('pdfjs-dist/package.json'));
    const pdfjs = (await import(pathToFileURL(join(root, 'legacy/build/pdf.mjs')).href)) as typeof import('pdfjs-dist');
    pdfjs.GlobalWorkerOptions.workerSrc = pathToFileURL(join(root, 'legacy/build/pdf.worker.mjs')).href;
    const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: `${join(root, 'standard_fonts')}/`, verbosity: 0 }).promise;
    const out: string[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const c = await (await doc.getPage(i)).getTextContent();
      out.push(c.items.map((it) => ('str' in it ? it.str : '')).join(' '));
    }
    await doc.destroy();
    return out.join('\n');
  }
  async function exportOne(d: Doc, withAnnotations: boolean): Promise<Buffer> {
    const r = await s.app.inject({
      method: 'POST',
      url: `${exportPaths.job(1)}?token=${tokens.user}&alwaysExportZip=false&auditEntry=false`,
      payload: { DatabaseID: 1, ArchiveID: d.archive_id, Docs: [{ ArchiveID: d.archive_id, DocID: d.id }], ExportWithCSV: false, ...(withAnnotations ? { WithAnnotations: true } : {}) },
    });
    expect(r.statusCode, r.body).toBe(200);
    const jobId = ExportAccepted.parse(r.json()).JobId;
    await new JobRunner({ store: s.store, now: () => s.clock.t, bootId: crypto.randomUUID(), leaseMs: 15_000, exports: { files: s.files, dir: s.exportDir } }).runOnce();
    const file = await s.app.inject({ method: 'GET', url: `${exportPaths.job(1)}?jobid=${jobId}&token=${tokens.user}` });
    expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
    return file.rawPayload;
  }

  it('a PDF exported with annotations holds the stamp\'s text on its page; without, the file is as stored', async () => {
    const d = take('PDF');
    expect((await put(d, crypto.randomUUID(), stamp('RECEIVED 11/27/2026 9:05 PM', { Page: 2 }))).statusCode).toBe(200);
    expect((await put(d, crypto.randomUUID(), note({ Text: 'Ask Jane' }))).statusCode).toBe(200);
    const plain = await exportOne(d, false);
    expect(plain.equals((await fileOf(d.id)).bytes)).toBe(true);
    expect(await pdfText(plain)).not.toContain('RECEIVED');
    const burned = await exportOne(d, true);
    const text = await pdfText(burned);
    const pages = text.split('\n');
    expect(pages[1]).toContain('RECEIVED 11/27/2026 9:05 PM');
    expect(pages[0]).toContain('Ask Jane');
    expect(pages[0]).not.toContain('RECEIVED');
  });

  it('a TIFF exported with annotations has the red stamp drawn on its page', async () => {
    const d = take('TIF');
    expect((await put(d, crypto.randomUUID(), stamp('PAID', { X: 0.1, Y: 0.1, Width: 0.4, Height: 0.1 }))).statusCode).toBe(200);
    const plain = await exportOne(d, false);
    expect(plain.equals((await fileOf(d.id)).bytes)).toBe(true);
    const burned = await exportOne(d, true);
    const meta = await sharp(burned).metadata();
    expect(meta.pages ?? 1).toBe((await sharp(plain).metadata()).pages ?? 1);
    // Red pixels inside the stamp's box: its outline and text.
    const { data, info } = await sharp(burned, { page: 0 }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let y = Math.floor(info.height * 0.1); y < info.height * 0.2; y++) {
      for (let x = Math.floor(info.width * 0.1); x < info.width * 0.5; x++) {
        const o = (y * info.width + x) * info.channels;
        if (data[o]! > 150 && data[o + 1]! < 100 && data[o + 2]! < 100) red++;
      }
    }
    expect(red).toBeGreaterThan(100);
  });
});
