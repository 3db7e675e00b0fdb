import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveHistory, DocumentHistory, HISTORY_CATEGORIES } from '../../src/api/audit';
import { ErrorBody } from '../../src/api/errors';
import { SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
  file_type: string;
  page_count: number;
}
let pdf: Doc;
let tiff: Doc;
let contract: Doc;
let hr: Doc;
beforeAll(async () => {
  s = await startServer({ seed: { docs: 60 } });
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
  const docs = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash, file_type, page_count FROM documents ORDER BY id')).rows;
  pdf = docs.find((d) => d.file_type === 'PDF' && d.archive_id === A.invoices) as Doc;
  tiff = docs.find((d) => d.file_type === 'TIF' && d.page_count >= 2 && ([A.invoices, A.paidInvoices, A.correspondence] as number[]).includes(d.archive_id)) as Doc;
  contract = docs.find((d) => d.archive_id === A.contracts) as Doc;
  hr = docs.find((d) => d.archive_id === A.hrFiles) as Doc;
  for (const d of [pdf, tiff, contract, hr]) expect(d).toBeDefined();
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, user = 'user') => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${tokens[user]}` });
const thumbUrl = (d: Doc, q = '', hash = d.secure_hash) => `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/thumb?SecureId=${hash}${q}`;

async function png(url: string, user = 'user') {
  const r = await get(url, user);
  expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
  expect(r.headers['content-type']).toBe('image/png');
  const meta = await sharp(r.rawPayload).metadata();
  expect(meta.format).toBe('png');
  const stats = await sharp(r.rawPayload).stats();
  return { meta, stats, bytes: r.rawPayload };
}

describe('thumbnails', () => {
  it('renders a PDF page to a PNG of the requested size, white with ink', async () => {
    const { meta, stats } = await png(thumbUrl(pdf, '&Width=150&Height=150&Page=1'));
    expect([meta.width, meta.height]).toEqual([150, 150]);
    expect(stats.channels[0]?.max).toBe(255);
    expect(stats.channels[0]?.min).toBeLessThan(200);
  });

  it('renders page 2 of a TIFF to a PNG of the requested size', async () => {
    const { meta, stats, bytes } = await png(thumbUrl(tiff, '&Width=100&Height=140&Page=2'));
    expect([meta.width, meta.height]).toEqual([100, 140]);
    expect(stats.channels[0]?.min).toBeLessThan(100);
    const page1 = await png(thumbUrl(tiff, '&Width=100&Height=140&Page=1'));
    expect(Buffer.compare(page1.bytes, bytes)).not.toBe(0);
  });

  it('defaults to 120 px high, follows the page aspect for one side, caps at 1600', async () => {
    const d = await png(thumbUrl(pdf));
    expect(d.meta.height).toBe(120);
    expect(d.meta.width).toBe(Math.round((612 * 120) / 792));
    const w = await png(thumbUrl(tiff, '&Width=85'));
    expect(w.meta.width).toBe(85);
    expect(w.meta.height).toBe(110);
    const big = await png(thumbUrl(pdf, '&Height=5000&Width=5000'));
    expect([big.meta.width, big.meta.height]).toEqual([1600, 1600]);
  });

  it('renders the 600x800 preview at twice its size from the page itself, not an enlarged smaller render', async () => {
    const x2 = await png(thumbUrl(pdf, '&Width=1200&Height=1600'));
    expect([x2.meta.width, x2.meta.height]).toEqual([1200, 1600]);
    const x1 = await png(thumbUrl(pdf, '&Width=600&Height=800'));
    expect([x1.meta.width, x1.meta.height]).toEqual([600, 800]);
    // Glyph edges: drawn at 1200 px, few of the inked pixels are the grey of a soft edge; the 600 px
    // render enlarged to the same size has a blurred rim around every stroke.
    const softness = async (img: ReturnType<typeof sharp>) => {
      const { data } = await img.greyscale().raw().toBuffer({ resolveWithObject: true });
      let ink = 0;
      let grey = 0;
      for (const v of data) {
        if (v < 235) ink++;
        if (v >= 64 && v < 192) grey++;
      }
      return grey / ink;
    };
    const drawn = await softness(sharp(x2.bytes));
    const enlarged = await softness(sharp(x1.bytes).resize(1200, 1600));
    expect(drawn).toBeLessThan(enlarged * 0.8);
  });

  it('caches renders on disk: the same bytes again', async () => {
    const a = await png(thumbUrl(pdf, '&Width=64&Height=64'));
    const b = await png(thumbUrl(pdf, '&Width=64&Height=64'));
    expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
  });

  it('a page or file that does not exist -> 404 FILE_DOES_NOT_EXIST', async () => {
    const r = await get(thumbUrl(pdf, `&Page=${pdf.page_count + 1}`));
    expect(r.statusCode).toBe(404);
    expect(ErrorBody.parse(r.json()).Key).toBe('FILE_DOES_NOT_EXIST');
    const fake = 'f'.repeat(64);
    await s.store.query("INSERT INTO blobs (sha256, size, mime) VALUES ($1, 1, 'application/pdf')", [fake]);
    await s.store.query('UPDATE document_files SET sha256 = $1 WHERE document_id = $2', [fake, contract.id]);
    const missing = await get(thumbUrl(contract));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ Key: 'FILE_DOES_NOT_EXIST' });
  });

  it('needs the right SecureId, view rights and sane sizes', async () => {
    expect((await get(thumbUrl(pdf, '', 'nothash'))).statusCode).toBe(403);
    expect((await get(`/api/dbs/1/archives/${pdf.archive_id}/documents/${pdf.id}/thumb`)).statusCode).toBe(400);
    expect((await get(thumbUrl(pdf, '&Height=abc'))).statusCode).toBe(400);
    expect((await get(thumbUrl(pdf, '&Page=0'))).statusCode).toBe(400);
    const noRights = await get(thumbUrl(hr));
    expect(noRights.statusCode).toBe(403);
    expect(noRights.headers['content-type']).toContain('application/json');
    expect((await get(thumbUrl(contract), 'viewer')).statusCode).toBe(403);
    // The document must be in the archive named in the path.
    expect((await get(`/api/dbs/1/archives/${A.contracts}/documents/${pdf.id}/thumb?SecureId=${pdf.secure_hash}`)).statusCode).toBe(404);
  });
});

describe('document history', () => {
  it('lists the entries newest first, each with a spec category', async () => {
    const r = await get(`/api/dbs/1/archives/${pdf.archive_id}/documents/${pdf.id}/audit?SecureId=${pdf.secure_hash}`);
    expect(r.statusCode).toBe(200);
    const h = DocumentHistory.parse(r.json());
    expect(h.length).toBeGreaterThanOrEqual(3);
    expect(h.every((e) => e.DocumentID === pdf.id && e.ArchiveID === pdf.archive_id && e.DatabaseID === 1)).toBe(true);
    expect(h.map((e) => e.Time)).toEqual([...h.map((e) => e.Time)].sort().reverse());
    expect(h.at(-1)?.Category).toBe('indexed');
  });

  it('the seed covers many categories', async () => {
    const r = await s.store.query<{ category: string }>('SELECT DISTINCT category FROM audit_entries');
    const cats = r.rows.map((x) => x.category);
    for (const c of cats) expect(HISTORY_CATEGORIES).toContain(c);
    expect(cats.length).toBeGreaterThanOrEqual(10);
  });

  it('needs the SecureId and history rights', async () => {
    expect((await get(`/api/dbs/1/archives/${pdf.archive_id}/documents/${pdf.id}/audit?SecureId=wrong`)).statusCode).toBe(403);
    expect((await get(`/api/dbs/1/archives/${pdf.archive_id}/documents/${pdf.id}/audit`)).statusCode).toBe(400);
    const r = await get(`/api/dbs/1/archives/${hr.archive_id}/documents/${hr.id}/audit?SecureId=${hr.secure_hash}`);
    expect(r.statusCode).toBe(403);
    expect(r.body).not.toContain('Time');
    // View without the history bit is not enough.
    await s.store.query('UPDATE archive_permissions SET rights = 1 WHERE archive_id = $1 AND user_id = $2', [A.paidInvoices, SEED_IDS.user.viewer]);
    const paid = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 LIMIT 1', [A.paidInvoices])).rows[0] as Doc;
    expect((await get(`/api/dbs/1/archives/${A.paidInvoices}/documents/${paid.id}/audit?SecureId=${paid.secure_hash}`, 'viewer')).statusCode).toBe(403);
    expect((await get(`/api/dbs/1/archives/${A.paidInvoices}/audit`, 'viewer')).statusCode).toBe(403);
    expect((await get(thumbUrl(paid, '&Height=20'), 'viewer')).statusCode).toBe(200);
  });
});

describe('archive history', () => {
  it('pages at 25 by default, DocLimit sets the page size, Total stays', async () => {
    const total = Number((await s.store.query<{ n: number }>('SELECT count(*) AS n FROM audit_entries WHERE archive_id = $1', [A.invoices])).rows[0]?.n);
    expect(total).toBeGreaterThan(60);
    const p1 = ArchiveHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/audit?Page=1`)).json());
    expect(p1.Total).toBe(total);
    expect(p1.Items).toHaveLength(25);
    expect(p1.Items.map((i) => i.Date)).toEqual([...p1.Items.map((i) => i.Date)].sort().reverse());
    const size = 10;
    const last = Math.ceil(total / size);
    const seen: string[] = [];
    for (let p = 1; p <= last; p++) {
      const page = ArchiveHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/audit?Page=${p}&DocLimit=${size}`)).json());
      expect(page.Total).toBe(total);
      expect(page.Items.length).toBe(p < last ? size : total - size * (last - 1));
      seen.push(...page.Items.map((i) => `${i.Date} ${i.DocumentID} ${i.Message}`));
    }
    expect(seen).toHaveLength(total);
    const beyond = ArchiveHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/audit?Page=${last + 1}&DocLimit=${size}`)).json());
    expect(beyond).toEqual({ Total: total, Items: [] });
  });

  it('bad parameters -> 400, no rights -> 403', async () => {
    expect((await get(`/api/dbs/1/archives/${A.invoices}/audit?Page=0`)).statusCode).toBe(400);
    expect((await get(`/api/dbs/1/archives/${A.invoices}/audit?DocLimit=x`)).statusCode).toBe(400);
    expect((await get(`/api/dbs/1/archives/${A.hrFiles}/audit`)).statusCode).toBe(403);
    expect((await get('/api/dbs/1/archives/999/audit')).statusCode).toBe(404);
  });
});
