/**
 * Files the server cannot read, or whose pages are too large to draw (issue 20): a text file named
 * .pdf, a truncated PDF and a 16,000 x 16,000 pixel 1-bit TIFF (a few KB on disk, 256 million pixels
 * once decoded), all made here. Their upload ends failed with ERROR_FILE_UNREADABLE or
 * ERROR_PAGE_TOO_LARGE (422), and the same files already in the archive (from before the check)
 * answer 422 with the key on every path that reads a page (thumbnail, OCR, rotate, burst, merge),
 * never a 500. While the large TIFF goes through all of them the server's memory stays within a
 * bound the unbudgeted decoding broke by gigabytes. Seeded documents keep working beside them.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotationPaths } from '../../src/api/annotations';
import { documentPaths, type MergeRequest } from '../../src/api/documents';
import { FILE_KEYS } from '../../src/api/file-check';
import { UPLOAD_CHUNK_SIZE, UploadState, uploadPaths } from '../../src/api/upload';
import { PageWords, wordsPaths } from '../../src/api/words';
import { SEED_IDS } from '../../server/seed/catalog';
import { exportFilesOf } from '../../server/services/export-convert';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const I = SEED_IDS.inbox;
const A = SEED_IDS.archive;
let s: TestServer;
let token = '';
let pool: Awaited<ReturnType<typeof documentPool>>;

const hostile: Record<'text' | 'truncated' | 'huge', { name: string; type: string; bytes: Buffer }> = {
  text: { name: 'notes.pdf', type: 'PDF', bytes: Buffer.from('These are my notes, saved with the wrong name.\n'.repeat(20)) },
  truncated: { name: 'cut.pdf', type: 'PDF', bytes: Buffer.alloc(0) },
  huge: { name: 'huge.tif', type: 'TIF', bytes: Buffer.alloc(0) },
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  token = await signIn(s, 'user');
  pool = await documentPool(s, A.invoices);
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 3; i++) pdf.addPage([595, 842]).drawText(`Page ${i + 1} of an invoice`, { x: 50, y: 780, size: 14, font });
  const whole = await pdf.save({ useObjectStreams: false });
  hostile.truncated.bytes = Buffer.from(whole.subarray(0, Math.floor(whole.byteLength / 2)));
  // 1-bit CCITT G4: a blank page this size is a few KB on disk.
  hostile.huge.bytes = await sharp({ create: { width: 16_000, height: 16_000, channels: 3, background: '#ffffff' } })
    .extractChannel(0)
    .toColourspace('b-w')
    .tiff({ compression: 'ccittfax4', bitdepth: 1 })
    .toBuffer();
  expect(hostile.huge.bytes.byteLength).toBeLessThan(64 * 1024);
}, 300_000);
afterAll(async () => {
  await s?.close();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let keyN = 0;

/** Uploads `bytes` to the Scans inbox in 1 MiB chunks; answers the last chunk's answer. */
async function upload(name: string, bytes: Buffer) {
  const start = await s.app.inject({
    method: 'POST',
    url: uploadPaths.upload,
    headers: { 'auth-token': token, 'idempotency-key': `unreadable-${++keyN}` },
    payload: { FileName: name, Size: bytes.byteLength, Sha256: sha(bytes), Target: { InboxID: I.scans } },
  });
  expect(start.statusCode, start.body).toBe(200);
  const job = UploadState.parse(start.json());
  let last = start;
  for (let i = 0; i < job.ChunkCount; i++) {
    last = await s.app.inject({
      method: 'POST',
      url: uploadPaths.chunk,
      query: { JobID: job.JobID, Index: String(i) },
      headers: { 'auth-token': token, 'content-type': 'application/octet-stream' },
      payload: bytes.subarray(i * UPLOAD_CHUNK_SIZE, (i + 1) * UPLOAD_CHUNK_SIZE),
    });
  }
  return { job, last };
}

/** A document of the archive whose one page now lies in `bytes` (as a file stored before the upload check would). */
async function planted(bytes: Buffer, type: string): Promise<PoolDoc> {
  const [d] = pool.take(1);
  const { sha256, size } = await s.files.put(bytes);
  await s.store.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [sha256, size, null]);
  const f = await s.store.query<{ id: number }>('SELECT id FROM document_files WHERE document_id = $1 ORDER BY position, id LIMIT 1', [d!.id]);
  await s.store.query('DELETE FROM document_files WHERE document_id = $1 AND id <> $2', [d!.id, f.rows[0]!.id]);
  await s.store.query('UPDATE document_files SET sha256 = $2, file_type = $3, page_count = 1 WHERE id = $1', [f.rows[0]!.id, sha256, type]);
  await s.store.query('DELETE FROM document_pages WHERE document_id = $1 AND page_no > 1', [d!.id]);
  await s.store.query('UPDATE document_pages SET file_id = $2, page_in_file = 0, rotation = 0 WHERE document_id = $1', [d!.id, f.rows[0]!.id]);
  await s.store.query('UPDATE documents SET page_count = 1, file_type = $2 WHERE id = $1', [d!.id, type]);
  return d!;
}

/** The paths that read a document's page, each answered for document `d`. */
function readers(d: PoolDoc, other: PoolDoc) {
  const q = `SecureId=${d.secure_hash}&token=${token}`;
  const merge: MergeRequest = {
    Type: 'Merge',
    Documents: [{ ArchiveID: other.archive_id, DocID: other.id }],
    BaseDocument: { Type: 'Archive', ArchiveID: d.archive_id, DocID: d.id },
    Target: { Type: 'Archive', Id: d.archive_id },
  };
  return {
    thumbnail: () => s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/thumb?${q}&Width=400&Page=1` }),
    preview: () => s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${d.archive_id}/documents/${d.id}/thumb?${q}&Width=1600&Page=1` }),
    ocr: () => s.app.inject({ method: 'GET', url: `${wordsPaths.words(1, d.archive_id, d.id)}?${q}&Page=1` }),
    rotate: () =>
      s.app.inject({ method: 'POST', url: `${annotationPaths.processing}?token=${token}`, payload: { db: 1, archive: d.archive_id, doc: d.id, secureId: d.secure_hash, angle: 90, page: 1 } }),
    burst: () => s.app.inject({ method: 'GET', url: `/api/files?action=burst&db=1&archive=${d.archive_id}&Id=${d.id}&${q}&RequestedPages=1` }),
    merge: () => s.app.inject({ method: 'POST', url: `${documentPaths.merge(1)}?token=${token}`, payload: merge }),
  };
}

/** The Key of an error answer (a thumbnail answered is a PNG). */
const keyOf = (r: { headers: Record<string, unknown>; json(): unknown }) => (String(r.headers['content-type']).includes('json') ? (r.json() as { Key?: string }).Key : undefined);

/** Linux's peak resident size of this process since `reset` (clear_refs 5 starts it again from now), in bytes. */
const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** How far above its resident size before `work` this process went while it ran (sampled too, where the peak cannot be reset). */
async function memoryGrowth(work: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage().rss;
  const exact = resetPeak();
  let sampled = before;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(sampled, exact ? peakRss() : 0) - before;
}

describe('a file is checked when its upload finishes', () => {
  it.each([
    ['a text file named .pdf', 'text', FILE_KEYS.unreadable, /notes\.pdf is not a PDF file/],
    ['a truncated PDF', 'truncated', FILE_KEYS.unreadable, /cut\.pdf: The PDF file cannot be read/],
    ['a TIFF page over the page budget', 'huge', FILE_KEYS.pageTooLarge, /huge\.tif: Page 1 is 16000 x 16000 pixels/],
  ] as const)('%s is refused with a 422 and its key, and never enters the inbox', async (_what, which, key, message) => {
    const f = hostile[which];
    const { job, last } = await upload(f.name, f.bytes);
    expect(last.statusCode, last.body).toBe(422);
    expect(last.json()).toMatchObject({ Key: key, Message: expect.stringMatching(message) });
    const state = await s.app.inject({ method: 'GET', url: uploadPaths.upload, query: { JobID: job.JobID }, headers: { 'auth-token': token } });
    expect(UploadState.parse(state.json())).toMatchObject({ State: 'failed', Key: key });
    const inInbox = await s.store.query('SELECT 1 FROM inbox_files WHERE inbox_id = $1 AND sha256 = $2', [I.scans, sha(f.bytes)]);
    expect(inInbox.rows).toHaveLength(0);
  });

  it('a real PDF and a multi-page TIFF go in, with their page counts', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 3; i++) pdf.addPage([595, 842]);
    const page = (text: string) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100"><rect width="100%" height="100%" fill="#fff"/><text x="80" y="120" font-size="40">${text}</text></svg>`)).png().toBuffer();
    const tiff = await sharp([await page('One'), await page('Two')], { join: { animated: true } }).tiff({ compression: 'lzw' }).toBuffer();
    for (const [name, bytes, pages] of [['three pages.pdf', Buffer.from(await pdf.save()), 3], ['two pages.tif', tiff, 2]] as const) {
      const { last } = await upload(name, bytes);
      expect(last.statusCode, last.body).toBe(200);
      expect(UploadState.parse(last.json()).State).toBe('done');
      const row = await s.store.query<{ page_count: number }>('SELECT page_count FROM inbox_files WHERE inbox_id = $1 AND sha256 = $2', [I.scans, sha(bytes)]);
      expect(Number(row.rows[0]?.page_count)).toBe(pages);
    }
  });
});

describe('a stored file that cannot be read answers 422 with its key on every path that reads it', () => {
  it.each([
    ['a text file stored as a PDF', 'text', FILE_KEYS.unreadable],
    ['a truncated PDF', 'truncated', FILE_KEYS.unreadable],
  ] as const)('%s', async (_what, which, key) => {
    const f = hostile[which];
    const d = await planted(f.bytes, f.type);
    const [other] = pool.take(1);
    for (const [path, call] of Object.entries(readers(d, other!))) {
      const r = await call();
      expect({ path, status: r.statusCode }, r.body).toEqual({ path, status: 422 });
      expect(r.json(), path).toMatchObject({ Key: key });
    }
  });

  it('a 16,000 x 16,000 pixel TIFF page is refused on every path, and the server stays within its memory', async () => {
    const d = await planted(hostile.huge.bytes, 'TIF');
    const [other] = pool.take(1);
    const answers: Record<string, { status: number; key?: string }> = {};
    const growth = await memoryGrowth(async () => {
      for (const [path, call] of Object.entries(readers(d, other!))) {
        const r = await call();
        answers[path] = { status: r.statusCode, key: keyOf(r) };
      }
      // The upload path reads the same file.
      const { last } = await upload(hostile.huge.name, hostile.huge.bytes);
      answers.upload = { status: last.statusCode, key: keyOf(last) };
      // So do an export's ConvertToPDF and ConvertToBW (the job reports the refusal with its key).
      for (const [path, conv] of [['export as PDF', { toPdf: true, toBw: false }], ['export in black and white', { toPdf: false, toBw: true }]] as const) {
        const [file] = await exportFilesOf({ store: s.store, files: s.files }, d.id, conv);
        const refused = await file!.open().then(() => null, (e: { status?: number; key?: string }) => e);
        answers[path] = { status: refused?.status ?? 200, key: refused?.key };
      }
    });
    // Decoding the page at all took gigabytes; the checks read its header only.
    expect(growth, `grew by ${Math.round(growth / 1024 / 1024)} MB; answers ${JSON.stringify(answers)}`).toBeLessThan(600 * 1024 * 1024);
    for (const path of ['thumbnail', 'preview', 'ocr', 'rotate', 'burst', 'merge', 'upload', 'export as PDF', 'export in black and white']) {
      expect({ path, ...answers[path] }).toEqual({ path, status: 422, key: FILE_KEYS.pageTooLarge });
    }
    // Refused in well under a second; decoding it took minutes (OCR of the whole page), hence the time allowed.
  }, 300_000);

  it('a large page within the budget is read for OCR at most 4,000 pixels on its long side', async () => {
    // 6,000 x 8,000 (48 Mpx, A4 at about 725 dpi) with a line of text; OCR once took it whole.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="8000"><rect width="100%" height="100%" fill="#fff"/><text x="600" y="1200" font-size="360" font-family="sans-serif">Invoice 4711</text></svg>`;
    const tiff = await sharp(Buffer.from(svg)).extractChannel(0).threshold(128).toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1 }).toBuffer();
    const d = await planted(tiff, 'TIF');
    const r = await s.app.inject({ method: 'GET', url: `${wordsPaths.words(1, d.archive_id, d.id)}?SecureId=${d.secure_hash}&Page=1&token=${token}` });
    expect(r.statusCode, r.body).toBe(200);
    const page = PageWords.parse(r.json());
    expect([page.ImageWidth, page.ImageHeight]).toEqual([3000, 4000]);
    expect(page.Words.map((w) => w.Value)).toContain('4711');
  }, 300_000);

  it('the seeded documents beside them still draw, turn, burst and merge', async () => {
    const [d, other] = pool.take(2);
    for (const [path, call] of Object.entries(readers(d!, other!))) {
      if (path === 'ocr') continue; // words.test.ts reads the seeded pages
      const r = await call();
      expect({ path, status: r.statusCode }, r.body).toEqual({ path, status: 200 });
    }
  });
});
