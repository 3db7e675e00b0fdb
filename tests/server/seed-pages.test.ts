/**
 * The seeded documents' files (server/seed/document-pages.ts): a document's PDF shows its own index
 * data (its title, its invoice number, customer, reference...) and no other document's; the text the
 * store keeps for content search is the text on the page; and no two lines of a page overlap, read
 * from pdfjs's text items as a viewer places them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;

interface SeededDoc {
  id: number;
  archive_id: number;
  fields: Record<string, string>;
  sha256: string;
  file_type: string;
  page_texts: (string | null)[];
}
let docs: SeededDoc[] = [];

interface TextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}
interface PdfPage {
  width: number;
  height: number;
  items: TextItem[];
}

async function readPdf(bytes: Uint8Array): Promise<PdfPage[]> {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('pdfjs-dist/package.json'));
  const pdfjs = (await import(pathToFileURL(join(root, 'legacy/build/pdf.mjs')).href)) as typeof import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = pathToFileURL(join(root, 'legacy/build/pdf.worker.mjs')).href;
  const doc = await pdfjs.getDocument({ data: bytes, standardFontDataUrl: `${join(root, 'standard_fonts')}/`, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const items: TextItem[] = [];
    for (const it of content.items) {
      if (!('str' in it) || !it.str.trim()) continue;
      const t = it.transform as number[];
      items.push({ str: it.str, x: t[4]!, y: t[5]!, width: it.width, size: Math.hypot(t[2]!, t[3]!) });
    }
    pages.push({ width, height, items });
  }
  await doc.destroy();
  return pages;
}

const pageText = (p: PdfPage) => p.items.map((i) => i.str).join(' ');
const pdfs = () => docs.filter((d) => d.file_type === 'PDF');
const pdfOf = async (d: SeededDoc) => readPdf(new Uint8Array(readFileSync(s.files.pathOf(d.sha256))));

beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  const r = await s.store.query<SeededDoc>(
    `SELECT d.id, d.archive_id, d.fields, f.sha256, f.file_type,
            (SELECT array_agg(p.text ORDER BY p.page_no) FROM document_pages p WHERE p.document_id = d.id) AS page_texts
       FROM documents d JOIN document_files f ON f.document_id = d.id ORDER BY d.id`,
  );
  docs = r.rows.map((d) => ({ ...d, id: Number(d.id) }));
});
afterAll(async () => {
  await s?.close();
});

describe('seeded document files', () => {
  it("show the document's own index data on page 1, and no other document's", async () => {
    const invoices = pdfs().filter((d) => d.archive_id === A.invoices);
    expect(invoices.length).toBeGreaterThan(3);
    for (const d of pdfs()) {
      const [first] = await pdfOf(d);
      const text = pageText(first!);
      const title = d.fields[F.title] ?? d.fields[F.recTitle]!;
      expect(title, `document ${d.id}`).toBeTruthy();
      expect(first!.items[0]!.str, `document ${d.id}: the title heads the page`).toBe(title);
      for (const fid of [F.invoiceNumber, F.customer, F.department, F.reference, F.accountCode, F.documentType, F.city, F.recNumber, F.owner]) {
        const value = d.fields[fid];
        if (value) expect(text, `document ${d.id}, field ${fid}`).toContain(value);
      }
      if (d.fields[F.documentDate]) {
        const [y, m, day] = d.fields[F.documentDate]!.split('-');
        expect(text, `document ${d.id}: its date`).toContain(`${m}/${day}/${y}`);
      }
      if (d.fields[F.amount]) expect(text, `document ${d.id}: its amount`).toContain(`$${Number(d.fields[F.amount]).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      for (const other of docs) {
        if (other.id === d.id) continue;
        expect(text, `document ${d.id} shows document ${other.id}'s title`).not.toContain(other.fields[F.title] ?? other.fields[F.recTitle]!);
        for (const fid of [F.invoiceNumber, F.reference]) if (other.fields[fid]) expect(text).not.toContain(other.fields[fid]);
      }
    }
  });

  it("an invoice lists its line items, whose total is its Amount", async () => {
    const withItems = await s.store.query<{ id: number; fields: Record<string, string>; mvals: Record<string, string[]> }>(
      `SELECT id, fields, mvals FROM documents WHERE archive_id = $1 AND file_type = 'PDF' AND mvals ? '${F.item}' ORDER BY id LIMIT 3`,
      [A.invoices],
    );
    expect(withItems.rows.length).toBeGreaterThan(0);
    for (const row of withItems.rows) {
      const d = docs.find((x) => x.id === Number(row.id))!;
      const text = pageText((await pdfOf(d))[0]!);
      const qty = row.mvals[F.quantity]!.map(Number);
      const price = row.mvals[F.unitPrice]!.map(Number);
      const total = qty.reduce((sum, q, k) => sum + Math.round(q * price[k]! * 100), 0) / 100;
      expect(Number(row.fields[F.amount])).toBeCloseTo(total, 2);
      for (const item of row.mvals[F.item]!) expect(text).toContain(item);
    }
  });

  it('keep for content search the text that is on the page', async () => {
    for (const d of pdfs()) {
      const pages = await pdfOf(d);
      expect(d.page_texts.length).toBe(pages.length);
      pages.forEach((p, i) => {
        const onPage = pageText(p).replace(/\s+/g, ' ');
        for (const line of (d.page_texts[i] ?? '').split('\n')) expect(onPage, `document ${d.id} page ${i + 1}`).toContain(line.replace(/\s+/g, ' '));
      });
    }
  });

  it('have no two lines of text over each other, and all text inside the page', async () => {
    // Helvetica's glyphs reach 0.72 of the size above the baseline and 0.21 below it.
    const box = (i: TextItem) => ({ left: i.x, right: i.x + i.width, bottom: i.y - 0.21 * i.size, top: i.y + 0.72 * i.size });
    for (const d of pdfs()) {
      for (const [n, page] of (await pdfOf(d)).entries()) {
        const boxes = page.items.map((i) => ({ i, b: box(i) }));
        for (const { i, b } of boxes) {
          expect(b.left, `document ${d.id} page ${n + 1}: "${i.str}"`).toBeGreaterThanOrEqual(36);
          expect(b.right, `document ${d.id} page ${n + 1}: "${i.str}"`).toBeLessThanOrEqual(page.width - 36);
          expect(b.bottom, `document ${d.id} page ${n + 1}: "${i.str}"`).toBeGreaterThanOrEqual(24);
        }
        for (let a = 0; a < boxes.length; a++) {
          for (let c = a + 1; c < boxes.length; c++) {
            const p = boxes[a]!;
            const q = boxes[c]!;
            const overlap = p.b.left < q.b.right && q.b.left < p.b.right && p.b.bottom < q.b.top && q.b.bottom < p.b.top;
            expect(overlap, `document ${d.id} page ${n + 1}: "${p.i.str}" over "${q.i.str}"`).toBe(false);
          }
        }
      }
    }
  });
});
