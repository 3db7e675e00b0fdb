/**
 * Real document files for the seed, generated at seed time and deterministic: text PDFs (pdf-lib,
 * standard fonts, so the text is searchable) and multi-page CCITT G4 TIFFs (sharp) that look like
 * scanned pages: a heading of real text (SVG text in the system's sans-serif font, so OCR reads it: key-free
 * extraction's tests) over bars of "text".
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
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

export async function makePdf(title: string, pageTexts: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('archive-pwa seed');
  doc.setCreator('archive-pwa seed');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  pageTexts.forEach((lines, i) => {
    const page = doc.addPage([612, 792]);
    page.drawText(title, { x: 56, y: 730, size: 16, font: bold, color: rgb(0.1, 0.1, 0.3) });
    page.drawText(`Page ${i + 1} of ${pageTexts.length}`, { x: 480, y: 40, size: 9, font });
    let y = 700;
    for (const line of lines) {
      page.drawText(line, { x: 56, y, size: 11, font, maxWidth: 500 });
      y -= 18;
    }
  });
  return doc.save({ useObjectStreams: false });
}

export async function makeTiff(rng: Prng, pages: number, heading = (page: number) => `Scanned page ${page + 1}`): Promise<Uint8Array> {
  const pngs: Buffer[] = [];
  for (let p = 0; p < pages; p++) {
    let bars = '';
    let y = 90;
    const lines = rng.int(18, 34);
    for (let k = 0; k < lines; k++) {
      let x = 70;
      while (x < 720) {
        const w = rng.int(20, 90);
        bars += `<rect x="${x}" y="${y}" width="${Math.min(w, 780 - x)}" height="11" fill="black"/>`;
        x += w + rng.int(8, 16);
      }
      y += rng.int(24, 34);
      if (y > 1020) break;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100"><rect width="100%" height="100%" fill="white"/><text x="60" y="60" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="24" fill="black">${heading(p)}</text>${bars}</svg>`;
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
