/**
 * A document's files as they go into an export (src/api/export.ts: ConvertToPDF, ConvertToBW).
 * Nothing is read until `open()` is called, so the export job holds at most one converted file in
 * memory at a time; a file that needs no conversion is a read stream from the file store.
 *
 * - As stored: no conversion asked, or a file that is not an image (a PDF, an office file, ...).
 *   A PDF with toBw is left as it is: its pages may hold text, vectors and images, and turning them
 *   black and white needs a PDF renderer (pdfjs in a worker) and would lose the text; not done.
 * - toPdf: an image file (TIFF, PNG, JPEG) becomes ONE PDF of its pages, in the document's page
 *   order, each on a page of its physical size (pagesToPdf in merge.ts, which merge and the single
 *   export use too); with toBw the pages are 1-bit images in it.
 * - toBw alone: a TIFF or JPEG becomes a CCITT G4 TIFF (1 bit; a JPEG cannot hold 1 bit), a PNG a
 *   1-bit PNG; the resolution is kept (or set to DEFAULT_TIFF_DPI when the source has none, as the
 *   PDF's page sizes take it).
 * Page rotation (document_pages.rotation, degrees clockwise) is applied whenever a file is
 * converted; a file passed as stored keeps its bytes.
 */
import type { Queryable } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { decoding, imagePage, imagePageCount } from '../files/page-budget.js';
import { Errors } from '../http/errors.js';
import { DEFAULT_TIFF_DPI, isImageType, pagesToPdf, quarterTurns, type PdfSourcePage } from './merge.js';
/** Grey level (0-255) at and above which a pixel becomes white. */
const BW_THRESHOLD = 128;

export interface ExportFile {
  /** The stored file name without its extension. */
  name: string;
  /** The extension of the file as exported, lower case, without the dot ('pdf', 'tif', ...). */
  ext: string;
  /** The bytes: a read stream for a file as stored, a Buffer for a converted one. */
  open(): Promise<NodeJS.ReadableStream | Buffer>;
}

export interface ConvertOptions {
  toPdf: boolean;
  toBw: boolean;
}

interface FileRow {
  id: number;
  sha256: string;
  file_name: string;
  file_type: string;
}

interface PageRow {
  file_id: number | null;
  page_no: number;
  page_in_file: number;
  rotation: number;
}

/** 'scan-1.TIF' -> ['scan-1', 'tif']; no extension: the file type as the extension. */
export function splitFileName(fileName: string, fileType: string): { name: string; ext: string } {
  const m = /^(.*[^.])\.([^./\\]+)$/.exec(fileName);
  if (m) return { name: m[1]!, ext: m[2]!.toLowerCase() };
  return { name: fileName, ext: fileType.toLowerCase() };
}

/** One entry per file of the document, in file order, as it goes into an export. */
export async function exportFilesOf(deps: { store: Queryable; files: FileStore }, docId: number, opts: ConvertOptions): Promise<ExportFile[]> {
  const { store, files } = deps;
  const fileRows = (
    await store.query<FileRow>('SELECT id, sha256, file_name, file_type FROM document_files WHERE document_id = $1 ORDER BY position, id', [docId])
  ).rows.map((f) => ({ ...f, id: Number(f.id) }));
  const convert = opts.toPdf || opts.toBw;
  const pageRows = convert
    ? (await store.query<PageRow>('SELECT file_id, page_no, page_in_file, rotation FROM document_pages WHERE document_id = $1 ORDER BY page_no', [docId])).rows
    : [];

  return fileRows.map((f): ExportFile => {
    const { name, ext } = splitFileName(f.file_name, f.file_type);
    const type = f.file_type.toUpperCase();
    if (!convert || !isImageType(type)) return { name, ext, open: () => Promise.resolve(files.stream(f.sha256)) };
    const pagesOfFile = async (): Promise<PdfSourcePage[]> => {
      const rows = pageRows.filter((p) => p.file_id !== null && Number(p.file_id) === f.id);
      if (rows.length) return rows.map((p) => ({ document_id: docId, page_no: p.page_no, rotation: p.rotation, page_in_file: p.page_in_file, sha256: f.sha256, file_type: type }));
      // No page rows for the file (an older import): every page of the file, unturned.
      const count = await imagePageCount(await files.get(f.sha256));
      return Array.from({ length: count }, (_, i) => ({ document_id: docId, page_no: i + 1, rotation: 0, page_in_file: i, sha256: f.sha256, file_type: type }));
    };
    if (opts.toPdf) {
      return { name, ext: 'pdf', open: async () => Buffer.from(await pagesToPdf(files, await pagesOfFile(), { rotate: true, toBw: opts.toBw })) };
    }
    if (type === 'PNG') return { name, ext, open: async () => decoding(f.file_name, async () => bwPng(await files.get(f.sha256), await pagesOfFile())) };
    return { name, ext: type === 'TIF' || type === 'TIFF' ? ext : 'tif', open: async () => decoding(f.file_name, async () => bwTiff(await files.get(f.sha256), await pagesOfFile())) };
  });
}

/** The page as one band of 0/255, turned by its rotation, and its resolution (a page over the page budget refused). */
async function bwPage(bytes: Buffer, p: PdfSourcePage) {
  const page = await imagePage(bytes, p.page_in_file, () => Errors.badRequest(`Page ${p.page_no} of document ${p.document_id} is missing from its file`));
  const { meta } = page;
  const dpi = meta.density && meta.density > 72 ? meta.density : DEFAULT_TIFF_DPI;
  const img = page.image().flatten({ background: '#ffffff' }).greyscale().rotate(quarterTurns(p.rotation)).threshold(BW_THRESHOLD);
  return { img, dpi };
}

async function bwPng(bytes: Buffer, pages: PdfSourcePage[]): Promise<Buffer> {
  const { img, dpi } = await bwPage(bytes, pages[0]!);
  // Two palette entries give a 1-bit PNG; no dithering (the pixels are already black or white).
  return img.withMetadata({ density: dpi }).png({ palette: true, colours: 2, dither: 0 }).toBuffer();
}

/** The page as a one-page CCITT G4 TIFF (as ENVIRONMENT.md shows), turned by its rotation; also a burst's TIFF pages. */
export async function g4Page(bytes: Buffer, p: PdfSourcePage): Promise<Buffer> {
  const { img, dpi } = await bwPage(bytes, p);
  const perMm = dpi / 25.4;
  return img.extractChannel(0).toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1, xres: perMm, yres: perMm, resolutionUnit: 'inch' }).toBuffer();
}

/** One G4 page a page, joined into one multi-page TIFF. */
async function bwTiff(bytes: Buffer, pages: PdfSourcePage[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for (const p of pages) out.push(await g4Page(bytes, p));
  return joinTiffs(out);
}

// TIFF field types and their sizes in bytes (TIFF 6.0, section 2).
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
/** Tags whose values are offsets into the file: StripOffsets, FreeOffsets, TileOffsets, JPEGInterchangeFormat. */
const OFFSET_TAGS = new Set([273, 288, 324, 513]);

/**
 * Single-page (or multi-page) classic TIFFs of one byte order as one multi-page TIFF: the files are
 * laid end to end, every offset inside moved by where its file now starts, and each file's last
 * directory linked to the next file's first. sharp's own join ({ join: { animated: true } }) pads
 * every page to the largest one, which would change pages turned by 90 degrees.
 */
export function joinTiffs(parts: Buffer[]): Buffer {
  if (parts.length === 1) return parts[0]!;
  const little = parts[0]!.toString('latin1', 0, 2) === 'II';
  const bases: number[] = [];
  let size = 0;
  for (const part of parts) {
    if (part.toString('latin1', 0, 2) !== (little ? 'II' : 'MM') || (little ? part.readUInt16LE(2) : part.readUInt16BE(2)) !== 42) throw new Error('joinTiffs: classic TIFFs of one byte order only');
    bases.push(size);
    size += part.length + (part.length % 2); // directories start on a word boundary
  }
  const buf = Buffer.alloc(size);
  parts.forEach((part, i) => part.copy(buf, bases[i]));
  const u16 = (o: number) => (little ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (little ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const put32 = (o: number, v: number) => (little ? buf.writeUInt32LE(v, o) : buf.writeUInt32BE(v, o));

  let lastNextPointer = -1;
  parts.forEach((_, i) => {
    const base = bases[i]!;
    let ifd = u32(base + 4) + base;
    if (lastNextPointer >= 0) put32(lastNextPointer, ifd);
    while (ifd > base) {
      const n = u16(ifd);
      for (let k = 0; k < n; k++) {
        const e = ifd + 2 + k * 12;
        const tag = u16(e);
        const type = u16(e + 2);
        const count = u32(e + 4);
        const bytes = (TYPE_SIZE[type] ?? 1) * count;
        let at = e + 8;
        if (bytes > 4) {
          put32(e + 8, u32(e + 8) + base);
          at = u32(e + 8);
        }
        if (OFFSET_TAGS.has(tag) && base > 0) {
          // libtiff writes these as LONG; a SHORT offset could not be moved past 64 KB.
          if (type !== 4) throw new Error('joinTiffs: offsets must be LONG');
          for (let j = 0; j < count; j++) put32(at + j * 4, u32(at + j * 4) + base);
        }
      }
      const nextAt = ifd + 2 + n * 12;
      const next = u32(nextAt);
      if (next === 0) {
        lastNextPointer = nextAt;
        break;
      }
      put32(nextAt, next + base);
      ifd = next + base;
    }
  });
  return buf;
}
