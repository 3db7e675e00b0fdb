/**
 * A document's files as an export takes them (server/services/export-convert.ts): as stored, TIFF
 * (and other image) files as ONE PDF of their pages with page sizes from the resolution, black and
 * white as 1-bit images (G4 TIFF, 1-bit PNG, 1-bit images inside the PDF), page rotation applied,
 * and a PDF passed byte for byte whatever is asked.
 */
import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../server/seed/catalog';
import { exportFilesOf, joinTiffs, splitFileName, type ConvertOptions, type ExportFile } from '../../server/services/export-convert';
import { pagesToPdf, quarterTurns } from '../../server/services/merge';
import { startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ seed: { docs: 20 } });
});
afterAll(async () => {
  await s?.close();
});

const deps = () => ({ store: s.store, files: s.files });
const NONE: ConvertOptions = { toPdf: false, toBw: false };

async function bytesOf(f: ExportFile): Promise<Buffer> {
  const opened = await f.open();
  if (Buffer.isBuffer(opened)) return opened;
  const chunks: Buffer[] = [];
  for await (const c of opened as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** A seeded document with one file of the type, more than one page when asked. */
async function seeded(type: 'PDF' | 'TIF', multiPage: boolean) {
  const r = await s.store.query<{ id: number; page_count: number; sha256: string; file_name: string }>(
    `SELECT d.id, d.page_count, f.sha256, f.file_name FROM documents d JOIN document_files f ON f.document_id = d.id
      WHERE f.file_type = $1 AND d.page_count ${multiPage ? '> 1' : '>= 1'} AND (SELECT count(*) FROM document_files g WHERE g.document_id = d.id) = 1
      ORDER BY d.id LIMIT 1`,
    [type],
  );
  const d = r.rows[0];
  if (!d) throw new Error(`no seeded ${type} document`);
  return { ...d, id: Number(d.id) };
}

let made = 0;
/** A new document of the given files (each: bytes, type, pages with their rotation), owned by this test. */
async function addDocument(files: { bytes: Buffer; type: string; name: string; rotations: number[] }[]): Promise<number> {
  made++;
  const doc = await s.store.query<{ id: number }>(
    `INSERT INTO documents (archive_id, secure_hash, file_name, file_type, page_count) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [SEED_IDS.archive.records, `convert-test-${made}`, files[0]!.name, files[0]!.type, files.reduce((n, f) => n + f.rotations.length, 0)],
  );
  const id = Number(doc.rows[0]!.id);
  let pageNo = 0;
  for (const [position, f] of files.entries()) {
    const blob = await s.files.put(f.bytes);
    await s.store.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [blob.sha256, blob.size, 'application/octet-stream']);
    const file = await s.store.query<{ id: number }>(
      'INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [id, position, blob.sha256, f.name, f.type, f.rotations.length],
    );
    for (const [k, rotation] of f.rotations.entries()) {
      await s.store.query('INSERT INTO document_pages (document_id, page_no, file_id, page_in_file, rotation) VALUES ($1, $2, $3, $4, $5)', [id, ++pageNo, Number(file.rows[0]!.id), k, rotation]);
    }
  }
  return id;
}

/** A greyscale page: a dark band across the top third, a light-grey rest, a mid-grey box (below and above the threshold). */
const greyPage = (width: number, height: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#d0d0d0"/>` +
        `<rect width="${width}" height="${Math.round(height / 3)}" fill="#202020"/><rect x="10" y="${Math.round(height / 2)}" width="40" height="40" fill="#7a7a7a"/></svg>`,
    ),
  )
    .greyscale()
    .png()
    .toBuffer();

/** A multi-page 8-bit greyscale TIFF at `dpi` (pages of the given sizes). */
async function greyTiff(sizes: [number, number][], dpi: number): Promise<Buffer> {
  const pages = await Promise.all(sizes.map(([w, h]) => greyPage(w, h)));
  const tiffs = await Promise.all(pages.map((p) => sharp(p).greyscale().tiff({ compression: 'lzw', xres: dpi / 25.4, yres: dpi / 25.4, resolutionUnit: 'inch' }).toBuffer()));
  return joinTiffs(tiffs);
}

/** The image XObjects drawn on a page, as their dictionaries and raw streams. */
function imagesOf(page: PDFPage): PDFRawStream[] {
  const xo = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  return (xo?.keys() ?? []).map((k) => page.doc.context.lookup(xo!.get(k)) as PDFRawStream);
}
const num = (st: PDFRawStream, key: string) => (st.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
const filterOf = (st: PDFRawStream) => String(st.dict.get(PDFName.of('Filter')));

/** Black pixels of a 1-bit Flate image (0 = black in DeviceGray). */
function blackPixels(st: PDFRawStream): number {
  const width = num(st, 'Width');
  const height = num(st, 'Height');
  const rows = inflateSync(st.getContents());
  const rowBytes = Math.ceil(width / 8);
  let black = 0;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((rows[y * rowBytes + (x >> 3)]! & (0x80 >> (x & 7))) === 0) black++;
  return black;
}
/** Black pixels sharp sees in a 1-bit image file (page k). */
async function blackPixelsOf(bytes: Buffer, page = 0): Promise<number> {
  const { data } = await sharp(bytes, { page }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  let black = 0;
  for (const v of data) if (v < 128) black++;
  return black;
}

/** The Compression tag (259) of every page of a classic TIFF, walking its directories: 4 is CCITT G4. */
function tiffCompressions(buf: Buffer): number[] {
  const le = buf.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const out: number[] = [];
  for (let ifd = u32(4); ifd !== 0; ifd = u32(ifd + 2 + u16(ifd) * 12)) {
    for (let k = 0; k < u16(ifd); k++) if (u16(ifd + 2 + k * 12) === 259) out.push(u16(ifd + 2 + k * 12 + 8));
  }
  return out;
}

describe('exportFilesOf', () => {
  it('names a file by its stored name and extension', () => {
    expect(splitFileName('scan 1.TIF', 'TIF')).toEqual({ name: 'scan 1', ext: 'tif' });
    expect(splitFileName('report.2024.pdf', 'PDF')).toEqual({ name: 'report.2024', ext: 'pdf' });
    expect(splitFileName('noext', 'TIFF')).toEqual({ name: 'noext', ext: 'tiff' });
    expect(splitFileName('.hidden', 'PDF')).toEqual({ name: '.hidden', ext: 'pdf' });
  });

  it('passes files as stored (a read stream) when nothing is asked', async () => {
    const tif = await seeded('TIF', true);
    const [f, ...rest] = await exportFilesOf(deps(), tif.id, NONE);
    expect(rest).toHaveLength(0);
    expect(f).toMatchObject(splitFileName(tif.file_name, 'TIF'));
    const opened = await f!.open();
    expect(Buffer.isBuffer(opened)).toBe(false);
    expect((await bytesOf(f!)).equals(await s.files.get(tif.sha256))).toBe(true);
  });

  it('passes a PDF unchanged, byte for byte, with ConvertToPDF and ConvertToBW', async () => {
    const pdf = await seeded('PDF', true);
    for (const opts of [{ toPdf: true, toBw: true }, { toPdf: false, toBw: true }, { toPdf: true, toBw: false }]) {
      const files = await exportFilesOf(deps(), pdf.id, opts);
      expect(files).toHaveLength(1);
      expect(files[0]!.ext).toBe('pdf');
      expect((await bytesOf(files[0]!)).equals(await s.files.get(pdf.sha256))).toBe(true);
    }
  });

  it('turns a seeded multi-page TIFF into one PDF of as many pages, sized from 100 dpi, bilevel pages kept 1-bit', async () => {
    const tif = await seeded('TIF', true);
    const files = await exportFilesOf(deps(), tif.id, { toPdf: true, toBw: false });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ name: splitFileName(tif.file_name, 'TIF').name, ext: 'pdf' });
    const pdf = await PDFDocument.load(await bytesOf(files[0]!));
    expect(pdf.getPageCount()).toBe(tif.page_count);
    const source = await s.files.get(tif.sha256);
    for (const [k, page] of pdf.getPages().entries()) {
      // The seed's scans are 850 x 1100 px without a resolution: 100 dpi, a Letter page.
      expect(page.getSize()).toEqual({ width: 612, height: 792 });
      const [img] = imagesOf(page);
      expect(num(img!, 'BitsPerComponent')).toBe(1);
      expect(filterOf(img!)).toBe('/FlateDecode');
      // The very pixels of the scan: as many black ones as sharp reads in the TIFF page.
      expect(blackPixels(img!)).toBe(await blackPixelsOf(source, k));
    }
  });

  it('sizes PDF pages from the TIFF resolution and turns rotated pages', async () => {
    // 600 x 400 px at 200 dpi is 3 x 2 inches = 216 x 144 pt; the second page is turned 90 degrees.
    const id = await addDocument([{ bytes: await greyTiff([[600, 400], [600, 400], [300, 500]], 200), type: 'TIF', name: 'grey.tif', rotations: [0, 90, 180] }]);
    const [f] = await exportFilesOf(deps(), id, { toPdf: true, toBw: false });
    const pdf = await PDFDocument.load(await bytesOf(f!));
    expect(pdf.getPages().map((p) => p.getSize())).toEqual([
      { width: 216, height: 144 },
      { width: 144, height: 216 },
      { width: 108, height: 180 },
    ]);
    // Greyscale pages stay greyscale (JPEG) without ConvertToBW.
    for (const p of pdf.getPages()) expect(filterOf(imagesOf(p)[0]!)).toBe('/DCTDecode');
    // The turned page's image is turned too: 400 wide, 600 high.
    const turned = imagesOf(pdf.getPage(1))[0]!;
    expect([num(turned, 'Width'), num(turned, 'Height')]).toEqual([400, 600]);
  });

  it('with ConvertToPDF and ConvertToBW draws every page as a 1-bit image', async () => {
    const id = await addDocument([{ bytes: await greyTiff([[600, 400], [600, 400]], 200), type: 'TIF', name: 'grey2.tif', rotations: [0, 0] }]);
    const [f] = await exportFilesOf(deps(), id, { toPdf: true, toBw: true });
    const pdf = await PDFDocument.load(await bytesOf(f!));
    expect(pdf.getPageCount()).toBe(2);
    for (const p of pdf.getPages()) {
      const [img] = imagesOf(p);
      expect(num(img!, 'BitsPerComponent')).toBe(1);
      // Black: the dark band (600 x 133) and the mid-grey box (40 x 40, below the threshold); the light rest white.
      expect(blackPixels(img!)).toBe(600 * 133 + 40 * 40);
    }
  });

  it('with ConvertToBW alone makes a TIFF a 1-bit G4 TIFF of its pages (rotation applied, resolution kept)', async () => {
    const id = await addDocument([{ bytes: await greyTiff([[600, 400], [600, 400]], 200), type: 'TIF', name: 'grey3.tif', rotations: [0, 270] }]);
    const [f] = await exportFilesOf(deps(), id, { toPdf: false, toBw: true });
    expect(f).toMatchObject({ name: 'grey3', ext: 'tif' });
    const out = await bytesOf(f!);
    const meta = await sharp(out).metadata();
    expect(meta.pages).toBe(2);
    expect(tiffCompressions(out)).toEqual([4, 4]);
    for (const [k, size] of [[600, 400], [400, 600]].entries()) {
      const m = await sharp(out, { page: k }).metadata();
      expect(m).toMatchObject({ format: 'tiff', bitsPerSample: 1, density: 200, width: size[0], height: size[1] });
      expect(await blackPixelsOf(out, k)).toBe(600 * 133 + 40 * 40);
    }
  });

  it('with ConvertToBW makes a PNG a 1-bit PNG and a JPEG a 1-bit G4 TIFF', async () => {
    const page = await greyPage(300, 300);
    const colour = await sharp(page).tint('#3366cc').png().toBuffer();
    const jpeg = await sharp(page).jpeg({ quality: 95 }).toBuffer();
    const id = await addDocument([
      { bytes: colour, type: 'PNG', name: 'photo.png', rotations: [0] },
      { bytes: jpeg, type: 'JPG', name: 'photo.jpg', rotations: [0] },
    ]);
    const [png, jpg] = await exportFilesOf(deps(), id, { toPdf: false, toBw: true });
    expect(png).toMatchObject({ name: 'photo', ext: 'png' });
    expect(jpg).toMatchObject({ name: 'photo', ext: 'tif' });
    const pngMeta = await sharp(await bytesOf(png!)).metadata();
    expect(pngMeta).toMatchObject({ format: 'png', bitsPerSample: 1 });
    const jpgBytes = await bytesOf(jpg!);
    expect(await sharp(jpgBytes).metadata()).toMatchObject({ format: 'tiff', bitsPerSample: 1 });
    expect(tiffCompressions(jpgBytes)).toEqual([4]);
    expect(await blackPixelsOf(jpgBytes)).toBeGreaterThanOrEqual(300 * 100);
  });

  it('gives one entry a file, in file order, converting only the image files', async () => {
    const pdfSource = await seeded('PDF', false);
    const pdfBytes = await s.files.get(pdfSource.sha256);
    const id = await addDocument([
      { bytes: await greyTiff([[200, 100]], 100), type: 'TIF', name: 'a.tif', rotations: [0] },
      { bytes: pdfBytes, type: 'PDF', name: 'b.pdf', rotations: Array<number>(pdfSource.page_count).fill(0) },
    ]);
    const files = await exportFilesOf(deps(), id, { toPdf: true, toBw: false });
    expect(files.map((f) => `${f.name}.${f.ext}`)).toEqual(['a.pdf', 'b.pdf']);
    expect((await PDFDocument.load(await bytesOf(files[0]!))).getPageCount()).toBe(1);
    expect((await bytesOf(files[1]!)).equals(pdfBytes)).toBe(true);
  });
});

describe('pagesToPdf', () => {
  it('turns PDF pages by their rotation only when asked (merge keeps it in the page rows)', async () => {
    const pdf = await seeded('PDF', true);
    const pages = [
      { document_id: pdf.id, page_no: 1, rotation: 90, page_in_file: 0, sha256: pdf.sha256, file_type: 'PDF' },
      { document_id: pdf.id, page_no: 2, rotation: -90, page_in_file: 1, sha256: pdf.sha256, file_type: 'PDF' },
    ];
    const turned = await PDFDocument.load(await pagesToPdf(s.files, pages, { rotate: true }));
    expect(turned.getPages().map((p) => p.getRotation().angle)).toEqual([90, 270]);
    const kept = await PDFDocument.load(await pagesToPdf(s.files, pages));
    expect(kept.getPages().map((p) => p.getRotation().angle)).toEqual([0, 0]);
  });

  it('reads stored rotations as quarter turns', () => {
    expect([0, 90, 180, 270, 360, -90, 450, 89].map(quarterTurns)).toEqual([0, 90, 180, 270, 0, 270, 90, 90]);
  });
});
