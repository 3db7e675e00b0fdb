/**
 * Real document files for the seed, generated at seed time and deterministic: text PDFs (pdf-lib,
 * standard fonts, so the text is searchable) and multi-page CCITT G4 TIFFs (sharp) that look like
 * scanned pages: lines of real text (SVG text in the system's sans-serif font, so OCR reads it: key-free
 * extraction's tests) over bars of "text".
 *
 * A PDF page is laid out from a PageSheet: a title, a block of labelled fields, an optional table and
 * paragraphs. Every line is wrapped by measuring it in its font (widthOfTextAtSize) and placed one line
 * height below the last, so no two lines share space; the text returned per page is what was drawn.
 */
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { Prng } from './prng.js';

const FIXED_DATE = new Date(Date.UTC(2024, 0, 15, 9, 0, 0));

export const WORDS = (
  'account agreement amount approval archive balance board budget business client compliance contract cost customer ' +
  'delivery department document due invoice item ledger legal letter meeting order payment policy price project ' +
  'purchase quarter receipt record report request review revenue risk sales schedule service shipment signature ' +
  'statement supplier tax terms total transfer warehouse renewal audit memo insurance freight license maintenance'
).split(' ');

export function sentence(rng: Prng, words = rng.int(6, 14)): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rng.pick(WORDS));
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** What one document's pages say: the heading and fields on page 1, then paragraphs per page. */
export interface PageSheet {
  title: string;
  /** [label, value] rows under the title on page 1. */
  fields: [string, string][];
  /** A table on page 1 under the fields (an invoice's line items); the first row is the header. */
  table?: { columns: { label: string; align: 'left' | 'right'; x: number }[]; rows: string[][] };
  /** Paragraphs of each page; their count is the page count. */
  paragraphs: string[][];
}

/** Letter size, in points. */
const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN_X = 56;
const TEXT_W = PAGE_W - 2 * MARGIN_X;
const TOP = PAGE_H - 64;
const BOTTOM = 64;
const TITLE = { size: 18, lead: 23 };
const LABEL = { size: 9, width: 118 };
const BODY = { size: 10.5, lead: 15 };
const PARAGRAPH_GAP = 8;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.36, 0.38, 0.42);
const ACCENT = rgb(0.1, 0.1, 0.3);

/**
 * Splits text into lines no wider than maxWidth in the font at size: words are kept whole; a word
 * wider than a line on its own is cut where it reaches the edge.
 */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= maxWidth;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (!fits(line)) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(line.slice(0, cut))) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws one page top-down; each call moves the pen one line down and remembers the text drawn. */
class PageWriter {
  y = TOP;
  readonly text: string[] = [];
  constructor(private readonly page: PDFPage) {}

  /** Room for `lines` more lines of `lead` points? A full page drops what does not fit. */
  fits(lead: number, lines = 1): boolean {
    return this.y - lead * (lines - 1) >= BOTTOM;
  }

  line(parts: { text: string; x: number; font: PDFFont; size: number; color?: ReturnType<typeof rgb> }[], lead: number): void {
    for (const p of parts) if (p.text) this.page.drawText(p.text, { x: p.x, y: this.y, size: p.size, font: p.font, color: p.color ?? INK });
    this.text.push(parts.map((p) => p.text).filter(Boolean).join(' '));
    this.y -= lead;
  }

  gap(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.page.drawLine({ start: { x: MARGIN_X, y: this.y }, end: { x: PAGE_W - MARGIN_X, y: this.y }, thickness: 0.6, color: rgb(0.75, 0.77, 0.8) });
  }
}

export async function makePdf(sheet: PageSheet): Promise<{ bytes: Uint8Array; pageTexts: string[] }> {
  const doc = await PDFDocument.create();
  doc.setTitle(sheet.title);
  doc.setProducer('archive-pwa seed');
  doc.setCreator('archive-pwa seed');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pageTexts: string[] = [];
  const pages = sheet.paragraphs.length;
  sheet.paragraphs.forEach((paragraphs, i) => {
    const page = doc.addPage([PAGE_W, PAGE_H]);
    const w = new PageWriter(page);
    for (const t of wrapText(sheet.title, bold, TITLE.size, TEXT_W)) w.line([{ text: t, x: MARGIN_X, font: bold, size: TITLE.size, color: ACCENT }], TITLE.lead);
    w.gap(BODY.lead - TITLE.lead + 4);
    w.rule();
    w.gap(BODY.lead + 2);
    if (i === 0) {
      for (const [label, value] of sheet.fields) {
        const values = wrapText(value, font, BODY.size, TEXT_W - LABEL.width);
        if (!w.fits(BODY.lead, values.length)) break;
        values.forEach((v, k) =>
          w.line([{ text: k === 0 ? label : '', x: MARGIN_X, font: bold, size: LABEL.size, color: MUTED }, { text: v, x: MARGIN_X + LABEL.width, font, size: BODY.size }], BODY.lead),
        );
      }
      if (sheet.table) {
        w.gap(PARAGRAPH_GAP);
        const { columns, rows } = sheet.table;
        rows.forEach((row, r) => {
          if (!w.fits(BODY.lead)) return;
          const f = r === 0 ? bold : font;
          const size = r === 0 ? LABEL.size : BODY.size;
          w.line(
            columns.map((c, k) => {
              const text = row[k] ?? '';
              return { text, x: c.align === 'right' ? c.x - f.widthOfTextAtSize(text, size) : c.x, font: f, size, color: r === 0 ? MUTED : INK };
            }),
            BODY.lead,
          );
        });
      }
      w.gap(PARAGRAPH_GAP);
    }
    for (const paragraph of paragraphs) {
      const lines = wrapText(paragraph, font, BODY.size, TEXT_W);
      for (const l of lines) if (w.fits(BODY.lead)) w.line([{ text: l, x: MARGIN_X, font, size: BODY.size }], BODY.lead);
      w.gap(PARAGRAPH_GAP);
    }
    page.drawText(`Page ${i + 1} of ${pages}`, { x: PAGE_W - MARGIN_X - font.widthOfTextAtSize(`Page ${i + 1} of ${pages}`, 9), y: 36, size: 9, font, color: MUTED });
    pageTexts.push(w.text.join('\n'));
  });
  return { bytes: await doc.save({ useObjectStreams: false }), pageTexts };
}

/** The bars of "text" on each page of a scan, drawn from rng before the scan is rendered. */
export type ScanBars = { x: number; y: number; w: number }[][];

export function scanBars(rng: Prng, pages: number): ScanBars {
  const out: ScanBars = [];
  for (let p = 0; p < pages; p++) {
    const bars: { x: number; y: number; w: number }[] = [];
    let y = 90;
    const lines = rng.int(18, 34);
    for (let k = 0; k < lines; k++) {
      let x = 70;
      while (x < 720) {
        const w = rng.int(20, 90);
        bars.push({ x, y, w: Math.min(w, 780 - x) });
        x += w + rng.int(8, 16);
      }
      y += rng.int(24, 34);
      if (y > 1020) break;
    }
    out.push(bars);
  }
  return out;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const SCAN_FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

/**
 * A scan of 850x1100 px a page: its lines of text (the first as the heading, 24 px at baseline 60;
 * the others 16 px, 26 px apart) and under them the bars, moved down as far as the text reaches.
 */
export async function makeTiff(bars: ScanBars, lines: (page: number) => string[]): Promise<Uint8Array> {
  const pngs: Buffer[] = [];
  for (let p = 0; p < bars.length; p++) {
    const [heading = '', ...rest] = lines(p);
    let text = `<text x="60" y="60" font-family="${SCAN_FONT}" font-size="24" fill="black">${xml(heading)}</text>`;
    rest.forEach((l, k) => (text += `<text x="60" y="${100 + 26 * k}" font-family="${SCAN_FONT}" font-size="16" fill="black">${xml(l)}</text>`));
    const shift = rest.length ? 26 * rest.length + 20 : 0;
    let rects = '';
    for (const b of bars[p] ?? []) if (b.y + shift <= 1040) rects += `<rect x="${b.x}" y="${b.y + shift}" width="${b.w}" height="11" fill="black"/>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100"><rect width="100%" height="100%" fill="white"/>${text}${rects}</svg>`;
    pngs.push(await sharp(Buffer.from(svg)).png().toBuffer());
  }
  const input = pngs.length === 1 ? pngs[0] : pngs;
  const out = await sharp(input as Buffer | Buffer[], pngs.length === 1 ? {} : { join: { animated: true } })
    .extractChannel(0)
    .toColourspace('b-w')
    .tiff({ compression: 'ccittfax4', bitdepth: 1 })
    .toBuffer();
  return new Uint8Array(out);
}
