/**
 * Key-free extraction's words (the archive-ops spec §3 "Key-free word", §7; contract src/api/words.ts):
 * real OCR (tesseract.js, packaged English data) of a seeded PDF page (text drawn by pdf-lib) and a
 * seeded TIFF page (a heading of real text) gives words holding that text, placed inside the page as
 * fractions; the second call is served from page_words; the view right and the Hash are enforced;
 * a server without the language data says DATA_EXTRACTION_NOT_REGISTERED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { PageWords, wordsPaths } from '../../src/api/words';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
const tokens: Record<string, string> = {};

interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
  file_type: string;
  text: string | null;
  title: string;
}

async function docOf(fileType: string, archiveId?: number): Promise<Doc> {
  const r = await s.store.query<Doc>(
    `SELECT d.id, d.archive_id, d.secure_hash, f.file_type, p.text, coalesce(d.fields->>'${F.title}', d.fields->>'${F.recTitle}') AS title FROM documents d
       JOIN document_files f ON f.document_id = d.id JOIN document_pages p ON p.document_id = d.id AND p.page_no = 1
      WHERE NOT d.deleted AND f.file_type = $1 AND ($2::int IS NULL OR d.archive_id = $2) AND d.archive_id <> $3 ORDER BY d.id LIMIT 1`,
    // Not in HR Files, where `user` has no rights.
    [fileType, archiveId ?? null, SEED_IDS.archive.hrFiles],
  );
  const d = r.rows[0];
  if (!d) throw new Error(`no seeded ${fileType} document`);
  return { ...d, id: Number(d.id) };
}

const words = (d: Doc, query: Record<string, string | number>, user = 'user', server: TestServer = s, token = tokens[user]) =>
  server.app.inject({
    method: 'GET',
    url: wordsPaths.words(1, d.archive_id, d.id) + '?' + new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    headers: token ? { 'auth-token': token } : {},
  });

beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  for (const u of ['user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

function expectInsidePage(w: PageWords['Words'][number]) {
  expect(w.Left).toBeGreaterThanOrEqual(0);
  expect(w.Top).toBeGreaterThanOrEqual(0);
  expect(w.Width).toBeGreaterThan(0);
  expect(w.Height).toBeGreaterThan(0);
  expect(w.Left + w.Width).toBeLessThanOrEqual(1);
  expect(w.Top + w.Height).toBeLessThanOrEqual(1);
}

describe('GET .../documents/{id}/words', () => {
  it('reads the seeded text of a PDF page, placed inside the page, line by line', async () => {
    const d = await docOf('PDF');
    const r = await words(d, { SecureId: d.secure_hash, Page: 1 });
    expect(r.statusCode, r.body).toBe(200);
    const page = PageWords.parse(r.json());
    expect(page.Page).toBe(1);
    expect(page.ImageWidth).toBe(1600);
    // The words pdf-lib drew on the page (document_pages.text), as OCR reads them.
    const seeded = [...new Set((d.text ?? '').split(/[^A-Za-z0-9]+/).filter((w) => w.length >= 4))];
    expect(seeded.length).toBeGreaterThan(10);
    const values = new Set(page.Words.map((w) => w.Value.replace(/[^A-Za-z0-9-]/g, '')));
    const found = seeded.filter((w) => values.has(w));
    expect(found.length / seeded.length).toBeGreaterThan(0.9);
    for (const w of page.Words) expectInsidePage(w);
    // The title is the first line, at the top of the page; the page's footer is the last line.
    const first = page.Words.filter((w) => w.Line === 1);
    expect(first[0]!.Top).toBeLessThan(0.15);
    // The document's title, drawn as the page's first line.
    expect((d.text ?? '').split('\n')[0]).toBe(d.title);
    expect(first.map((w) => w.Value).join(' ')).toBe(d.title);
    const lines = page.Words.map((w) => w.Line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    // A field's label ("Document Date") is read as words of its own.
    expect(page.Words.find((w) => w.Value === 'Date')).toBeTruthy();
    expect(page.Words.every((w) => w.Confidence >= 0 && w.Confidence <= 100)).toBe(true);
  });

  it('reads the heading of a seeded TIFF page (a scan)', async () => {
    const d = await docOf('TIF');
    const r = await words(d, { SecureId: d.secure_hash, Page: 1 });
    expect(r.statusCode, r.body).toBe(200);
    const page = PageWords.parse(r.json());
    expect([page.ImageWidth, page.ImageHeight]).toEqual([850, 1100]);
    const line1 = page.Words.filter((w) => w.Line === 1);
    // The scan's heading is its document's title.
    expect(line1.map((w) => w.Value).join(' ')).toBe(d.title);
    expect(line1.every((w) => w.Confidence > 80)).toBe(true);
    // Drawn at x=60, baseline y=60 of 850x1100.
    expect(line1[0]!.Left).toBeCloseTo(60 / 850, 1);
    expect(line1[0]!.Top).toBeGreaterThan(30 / 1100);
    expect(line1[0]!.Top + line1[0]!.Height).toBeLessThan(70 / 1100);
    for (const w of page.Words) expectInsidePage(w);
  });

  it('recognises a page once: the second call is answered from page_words', async () => {
    const d = await docOf('PDF');
    const first = PageWords.parse((await words(d, { SecureId: d.secure_hash, Page: 1 })).json());
    const stored = await s.store.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM page_words w JOIN document_files f ON f.sha256 = w.sha256 WHERE f.document_id = $1 AND w.page_in_file = 0`,
      [d.id],
    );
    expect(Number(stored.rows[0]!.n)).toBe(1);
    // Mark the stored words: the next answer carries the mark, so it came from the table, not OCR.
    await s.store.query(
      `UPDATE page_words SET words = jsonb_set(words, '{0,Value}', '"FROM-CACHE"') WHERE sha256 IN (SELECT sha256 FROM document_files WHERE document_id = $1) AND page_in_file = 0`,
      [d.id],
    );
    const again = PageWords.parse((await words(d, { SecureId: d.secure_hash, Page: 1 })).json());
    expect(again.Words[0]!.Value).toBe('FROM-CACHE');
    expect(again.Words.slice(1)).toEqual(first.Words.slice(1));
  });

  it('enforces the view right and the Hash; a missing page is 404; bad input 400', async () => {
    const c = await docOf('PDF', SEED_IDS.archive.contracts);
    const noRight = await words(c, { SecureId: c.secure_hash, Page: 1 }, 'viewer');
    expect(noRight.statusCode).toBe(403);
    expect(ErrorBody.parse(noRight.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const wrongHash = await words(c, { SecureId: 'nope', Page: 1 });
    expect(wrongHash.statusCode).toBe(403);
    const missingPage = await words(c, { SecureId: c.secure_hash, Page: 99 });
    expect(missingPage.statusCode).toBe(404);
    expect(ErrorBody.parse(missingPage.json()).Key).toBe('FILE_DOES_NOT_EXIST');
    expect((await words(c, { SecureId: c.secure_hash, Page: 0 })).statusCode).toBe(400);
    expect((await words(c, { Page: 1 })).statusCode).toBe(400);
    expect((await words(c, { SecureId: c.secure_hash, Page: 1 }, 'user', s, '')).statusCode).toBe(401);
  });
});

describe('without OCR language data', () => {
  it('answers 503 DATA_EXTRACTION_NOT_REGISTERED', async () => {
    const bare = await startServer({ seed: { docs: 5 }, ocrLangPath: null });
    try {
      const token = await signIn(bare, 'user');
      const d = (await bare.store.query<Doc>(`SELECT d.id, d.archive_id, d.secure_hash FROM documents d WHERE NOT d.deleted ORDER BY id LIMIT 1`)).rows[0]!;
      const r = await words({ ...d, id: Number(d.id) }, { SecureId: d.secure_hash, Page: 1 }, 'user', bare, token);
      expect(r.statusCode).toBe(503);
      expect(ErrorBody.parse(r.json()).Key).toBe('DATA_EXTRACTION_NOT_REGISTERED');
    } finally {
      await bare.close();
    }
  });
});
