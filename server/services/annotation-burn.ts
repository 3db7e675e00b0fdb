/**
 * Annotations burned into exported files (src/api/export.ts WithAnnotations): each page's notes,
 * stamps and highlights drawn onto the page as the viewer shows them (src/features/viewer/annotations:
 * the same box, font size as a fraction of the page's width, Arial/Helvetica, the stamp's red
 * outline). PDF pages get vector drawing (pdf-lib: text stays text); TIFF and image pages get an SVG
 * composited by sharp (such a page is written in colour, LZW; the others keep their encoding).
 * Without annotations a file passes unchanged.
 */
import { StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { ANNOTATION_LINE_HEIGHT, ANNOTATION_PADDING, STAMP_COLOR } from '../../src/api/annotations.js';
import { joinTiffs } from './export-convert.js';
import type { Queryable } from '../db/store.js';
import { decoding, imagePage, imagePageCount, loadPdf } from '../files/page-budget.js';
import { Errors } from '../http/errors.js';
import { annotationsOf, type AnnotationRow } from './annotations.js';

const NOTE_FILL = '#fff9c4';
const HIGHLIGHT_FILL = '#ffeb3b';

const hex = (c: string) => {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c) ?? /^#?(d3)(2f)(2f)$/i.exec(STAMP_COLOR)!;
  return rgb(parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255);
};

/** Text Helvetica (WinAnsi) can write: other characters become '?', never a failed export. */
function encodable(font: PDFFont, text: string): string {
  return [...text]
    .map((ch) => {
      try {
        font.encodeText(ch);
        return ch;
      } catch {
        return '?';
      }
    })
    .join('');
}

/**
 * A point of the page as shown (from its top-left, in shown units) in the page's own PDF space, for
 * a page shown turned by `rot` (its /Rotate): the annotations are placed on the page as it is seen.
 */
function toPdfSpace(sx: number, sy: number, rot: number, w: number, h: number): [number, number] {
  switch (rot) {
    case 90:
      return [sy, sx];
    case 180:
      return [w - sx, sy];
    case 270:
      return [w - sy, h - sx];
    default:
      return [sx, h - sy];
  }
}

function drawOnPdfPage(page: PDFPage, font: PDFFont, notes: readonly AnnotationRow[]) {
  const rot = ((page.getRotation().angle % 360) + 360) % 360;
  const { width: w, height: h } = page.getSize();
  const [sw, sh] = rot === 90 || rot === 270 ? [h, w] : [w, h];
  for (const a of notes) {
    const left = a.x * sw;
    const top = a.y * sh;
    const bw = a.width * sw;
    const bh = a.height * sh;
    const corners = [
      [left, top],
      [left + bw, top],
      [left + bw, top + bh],
      [left, top + bh],
    ].map(([x, y]) => toPdfSpace(x!, y!, rot, w, h));
    const path = `M ${corners.map(([x, y]) => `${x} ${h - y}`).join(' L ')} Z`;
    const fs = a.font_size * sw;
    if (a.kind === 'highlight') {
      page.drawSvgPath(path, { x: 0, y: h, color: hex(HIGHLIGHT_FILL), opacity: 0.35 });
      continue;
    }
    const color = hex(a.kind === 'stamp' ? STAMP_COLOR : a.color);
    page.drawSvgPath(path, {
      x: 0,
      y: h,
      ...(a.kind === 'text' ? { color: hex(NOTE_FILL) } : {}),
      borderColor: color,
      borderWidth: Math.max(1, fs * 0.06),
    });
    a.text.split('\n').forEach((line, i) => {
      const baseline = top + fs * ANNOTATION_PADDING + fs * (0.9 + i * ANNOTATION_LINE_HEIGHT);
      const [x, y] = toPdfSpace(left + fs * ANNOTATION_PADDING, baseline, rot, w, h);
      page.drawText(encodable(font, line), { x, y, size: fs, font, color, rotate: degrees(rot) });
    });
  }
}

/** The PDF with each page's annotations drawn on it; `pageIndex` maps an annotation to its page in this file (or null: not in it). */
export async function burnIntoPdf(bytes: Uint8Array, notes: readonly AnnotationRow[], pageIndex: (a: AnnotationRow) => number | null): Promise<Uint8Array> {
  const pdf = await loadPdf(bytes);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const byPage = groupBy(notes, pageIndex);
  for (const [index, list] of byPage) if (index < pdf.getPageCount()) drawOnPdfPage(pdf.getPage(index), font, list);
  return pdf.save();
}

function groupBy(notes: readonly AnnotationRow[], pageIndex: (a: AnnotationRow) => number | null): Map<number, AnnotationRow[]> {
  const out = new Map<number, AnnotationRow[]>();
  for (const a of notes) {
    const i = pageIndex(a);
    if (i !== null) out.set(i, [...(out.get(i) ?? []), a]);
  }
  return out;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page's annotations as an SVG of the page's size in pixels (for sharp's composite). */
export function annotationSvg(notes: readonly AnnotationRow[], width: number, height: number): string {
  const parts = notes.map((a) => {
    const x = a.x * width;
    const y = a.y * height;
    const w = a.width * width;
    const h = a.height * height;
    if (a.kind === 'highlight') return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${HIGHLIGHT_FILL}" fill-opacity="0.35"/>`;
    const fs = a.font_size * width;
    const color = a.kind === 'stamp' ? STAMP_COLOR : a.color;
    const lines = a.text
      .split('\n')
      .map((line, i) => `<text x="${x + fs * ANNOTATION_PADDING}" y="${y + fs * ANNOTATION_PADDING + fs * (0.9 + i * ANNOTATION_LINE_HEIGHT)}" font-family="Arial, Liberation Sans, Helvetica, sans-serif" font-size="${fs}" fill="${color}" xml:space="preserve">${esc(line)}</text>`)
      .join('');
    return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${a.kind === 'text' ? NOTE_FILL : 'none'}" stroke="${color}" stroke-width="${Math.max(1, fs * 0.06)}"/>${lines}`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** Page `index` of an image file, over the page budget refused (files/page-budget.ts). */
const pageOf = (bytes: Buffer, index: number) => imagePage(bytes, index, () => Errors.badRequest(`Page ${index + 1} is missing from the document's file`));

/** One page of an image with its annotations drawn on it, as a colour PNG/TIFF pipeline. */
async function burnedPage(bytes: Buffer, index: number, notes: readonly AnnotationRow[]) {
  const page = await pageOf(bytes, index);
  const { width, height, meta } = page;
  const base = await page.image().flatten({ background: '#ffffff' }).toColourspace('srgb').png().toBuffer();
  return { img: sharp(base).composite([{ input: Buffer.from(annotationSvg(notes, width, height)), top: 0, left: 0 }]), density: meta.density };
}

/** An image file (TIFF, PNG, JPEG) with its pages' annotations drawn on; pages without any keep their bytes' encoding. */
export function burnIntoImage(bytes: Buffer, ext: string, notes: readonly AnnotationRow[], pageIndex: (a: AnnotationRow) => number | null): Promise<Buffer> {
  return decoding('The image file', () => burnImagePages(bytes, ext, notes, pageIndex));
}

async function burnImagePages(bytes: Buffer, ext: string, notes: readonly AnnotationRow[], pageIndex: (a: AnnotationRow) => number | null): Promise<Buffer> {
  const byPage = groupBy(notes, pageIndex);
  if (byPage.size === 0) return bytes;
  const type = ext.toLowerCase();
  if (type === 'png' || type === 'jpg' || type === 'jpeg') {
    const { img, density } = await burnedPage(bytes, 0, byPage.get(0) ?? []);
    const withDpi = img.withMetadata(density ? { density } : {});
    return type === 'png' ? withDpi.png().toBuffer() : withDpi.jpeg({ quality: 92 }).toBuffer();
  }
  const pages = await imagePageCount(bytes);
  const parts: Buffer[] = [];
  for (let k = 0; k < pages; k++) {
    const list = byPage.get(k);
    if (!list) {
      parts.push(await singleTiffPage(bytes, k));
      continue;
    }
    const { img, density } = await burnedPage(bytes, k, list);
    const perMm = (density && density > 1 ? density : 100) / 25.4;
    parts.push(await img.removeAlpha().tiff({ compression: 'lzw', xres: perMm, yres: perMm, resolutionUnit: 'inch' }).toBuffer());
  }
  return joinTiffs(parts);
}

/** Page k of a TIFF as a one-page TIFF in its own encoding (bilevel: G4, others LZW). */
export async function singleTiffPage(bytes: Buffer, index: number, turn = 0): Promise<Buffer> {
  const page = await pageOf(bytes, index);
  const { meta } = page;
  const perMm = (meta.density && meta.density > 1 ? meta.density : 100) / 25.4;
  const img = page.image().rotate(turn);
  return meta.bitsPerSample === 1
    ? img.extractChannel(0).toColourspace('b-w').tiff({ compression: 'ccittfax4', bitdepth: 1, xres: perMm, yres: perMm, resolutionUnit: 'inch' }).toBuffer()
    : img.tiff({ compression: 'lzw', xres: perMm, yres: perMm, resolutionUnit: 'inch' }).toBuffer();
}

/** A file as the export writes it (services/export.ts): its name parts and how to read its bytes. */
export interface BurnableFile {
  base: string;
  ext: string;
  open(): Promise<NodeJS.ReadableStream | Buffer>;
}

async function readAll(src: NodeJS.ReadableStream | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(src)) return src;
  const chunks: Buffer[] = [];
  for await (const c of src) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/**
 * The export's files of a document (in its files' order) with its annotations drawn on: a file none
 * of whose pages has one passes unchanged (still streamed). `converted`: the files were rebuilt from
 * the document's pages (ConvertToPDF / ConvertToBW), so a file's pages are its page rows in page
 * order; as stored, a page is where document_pages says it lies in its file.
 */
export async function burnAnnotations(db: Queryable, docId: number, out: BurnableFile[], converted: boolean): Promise<BurnableFile[]> {
  const notes = await annotationsOf(db, docId);
  if (notes.length === 0) return out;
  const files = (await db.query<{ id: number }>('SELECT id FROM document_files WHERE document_id = $1 ORDER BY position, id', [docId])).rows.map((f) => Number(f.id));
  const pages = (await db.query<{ page_no: number; file_id: number | null; page_in_file: number }>('SELECT page_no, file_id, page_in_file FROM document_pages WHERE document_id = $1 ORDER BY page_no', [docId])).rows;
  return out.map((f, i) => {
    const fileId = files[i];
    const ofFile = pages.filter((p) => p.file_id !== null && Number(p.file_id) === fileId);
    const where = new Map(ofFile.map((p, rank) => [p.page_no, converted ? rank : p.page_in_file]));
    const pageIndex = (a: AnnotationRow) => where.get(a.page) ?? null;
    if (!notes.some((a) => where.has(a.page))) return f;
    const ext = f.ext.toLowerCase();
    if (ext === 'pdf') return { ...f, open: async () => Buffer.from(await burnIntoPdf(await readAll(await f.open()), notes, pageIndex)) };
    if (['tif', 'tiff', 'png', 'jpg', 'jpeg'].includes(ext)) return { ...f, open: async () => burnIntoImage(await readAll(await f.open()), ext, notes, pageIndex) };
    return f;
  });
}
