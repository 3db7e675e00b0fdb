/**
 * What the seed's files say. Each pool slot is planned first (its type, page count, body sentences,
 * scan bars: the draws of the seed's one random stream, in the order that fixes every later field
 * value), then rendered: for the document that owns the slot with that document's own index data
 * (its title, its archive's fields, an invoice's line items), for an inbox file as an unindexed letter,
 * and for the documents of a large seed past the pool as a page with no index data, which
 * contradicts no document that shares it.
 */
import { ARCHIVE_FIELDS, CUSTOMERS, DOCUMENT_TYPES, F, FIELD_NAMES } from './catalog.js';
import { type PageSheet, type ScanBars, scanBars, sentence } from './files.js';
import type { Prng } from './prng.js';

export interface FilePlan {
  fileType: 'PDF' | 'TIF';
  pages: number;
  /** A PDF's sentences per page (none for a scan). */
  sentences: string[][];
  /** A scan's bars per page. */
  bars: ScanBars;
  /** Who an unindexed (inbox) letter is from, and what it is. */
  kind: string;
  customer: string;
  /** The slot's number, 1000 + its index: an inbox letter's reference. */
  number: number;
}

export function planFiles(rng: Prng, count: number): FilePlan[] {
  const plans: FilePlan[] = [];
  for (let i = 0; i < count; i++) {
    const pages = rng.int(1, 4);
    if (i % 5 === 4) {
      plans.push({ fileType: 'TIF', pages, sentences: [], bars: scanBars(rng, pages), kind: 'Scan', customer: '', number: 1000 + i });
    } else {
      const customer = rng.pick(CUSTOMERS);
      const kind = rng.pick(DOCUMENT_TYPES);
      const sentences: string[][] = [];
      for (let p = 0; p < pages; p++) {
        const page: string[] = [];
        for (let k = 0, n = rng.int(8, 20); k < n; k++) page.push(sentence(rng));
        sentences.push(page);
      }
      plans.push({ fileType: 'PDF', pages, sentences, bars: [], kind, customer, number: 1000 + i });
    }
  }
  return plans;
}

const SENTENCES_PER_PARAGRAPH = 3;

function paragraphs(sentences: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i += SENTENCES_PER_PARAGRAPH) out.push(sentences.slice(i, i + SENTENCES_PER_PARAGRAPH).join(' '));
  return out;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Document Date's mask is MM/dd/yyyy (catalog.ts); the stored value is ISO. */
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The fields a page shows under its title, in the archive's order; the system's own fields are left off. */
const SHOWN: Partial<Record<number, (v: string) => string>> = {
  [F.invoiceNumber]: (v) => v,
  [F.documentDate]: usDate,
  [F.customer]: (v) => v,
  [F.amount]: (v) => money.format(Number(v)),
  [F.department]: (v) => v,
  [F.accountCode]: (v) => v,
  [F.reference]: (v) => v,
  [F.documentType]: (v) => v,
  [F.city]: (v) => v,
  [F.country]: (v) => v,
  [F.recNumber]: (v) => v,
  [F.recCreated]: (v) => v,
  [F.owner]: (v) => v,
  [F.retention]: (v) => v,
  [F.notes]: (v) => v,
};

/** [label, value] of each shown field the document has a value for. */
function shownFields(archiveId: number, fields: Record<string, string>, mvals: Record<string, string[]>): [string, string][] {
  const rows: [string, string][] = [];
  for (const fid of ARCHIVE_FIELDS[archiveId] ?? []) {
    const format = SHOWN[fid];
    const value = fields[fid];
    if (format && value) rows.push([FIELD_NAMES[fid] ?? '', format(value)]);
    if (fid === F.tags && mvals[fid]?.length) rows.push([FIELD_NAMES[fid] ?? '', (mvals[fid] ?? []).join(', ')]);
  }
  return rows;
}

export const documentTitle = (fields: Record<string, string>) => fields[F.title] ?? fields[F.recTitle] ?? '';

/** The line items of an invoice and their total (which is its Amount: seed.ts sets it so). */
export function lineItems(mvals: Record<string, string[]>): { rows: string[][]; total: number } | undefined {
  const items = mvals[F.item];
  if (!items?.length) return undefined;
  let total = 0;
  const rows = items.map((item, r) => {
    const qty = Number(mvals[F.quantity]?.[r] ?? 0);
    const price = Number(mvals[F.unitPrice]?.[r] ?? 0);
    const line = Math.round(qty * price * 100) / 100;
    total += line;
    return [item, String(qty), money.format(price), money.format(line)];
  });
  return { rows, total: Math.round(total * 100) / 100 };
}

/** A document's pages: its title, its index data, its line items, then the plan's paragraphs. */
export function documentSheet(archiveId: number, fields: Record<string, string>, mvals: Record<string, string[]>, plan: FilePlan): PageSheet {
  const items = lineItems(mvals);
  return {
    title: documentTitle(fields),
    fields: shownFields(archiveId, fields, mvals),
    table: items && {
      columns: [
        { label: FIELD_NAMES[F.item] ?? '', align: 'left', x: 56 },
        { label: FIELD_NAMES[F.quantity] ?? '', align: 'right', x: 360 },
        { label: FIELD_NAMES[F.unitPrice] ?? '', align: 'right', x: 456 },
        { label: 'Line Total', align: 'right', x: 556 },
      ],
      rows: [[FIELD_NAMES[F.item] ?? '', FIELD_NAMES[F.quantity] ?? '', FIELD_NAMES[F.unitPrice] ?? '', 'Line Total'], ...items.rows, ['', '', 'Total', money.format(items.total)]],
    },
    paragraphs: plan.sentences.map(paragraphs),
  };
}

/** A document's scan: its title and (on page 1) a few of its fields, OCR-readable. */
export function documentScanLines(archiveId: number, fields: Record<string, string>, mvals: Record<string, string[]>): (page: number) => string[] {
  const title = documentTitle(fields);
  // One line each, short enough for the page's width: notes (long text) stay in the index.
  const rows = shownFields(archiveId, fields, mvals)
    .filter(([label]) => label !== FIELD_NAMES[F.notes])
    .slice(0, 5)
    .map(([label, value]) => `${label}: ${value}`);
  return (p) => (p === 0 ? [title, ...rows] : [`${title} page ${p + 1}`]);
}

/** An inbox file: a letter nobody has indexed yet, with who sent it and its reference. */
export function inboxSheet(plan: FilePlan): PageSheet {
  return {
    title: `${plan.kind} from ${plan.customer}`,
    fields: [
      [FIELD_NAMES[F.customer] ?? '', plan.customer],
      [FIELD_NAMES[F.reference] ?? '', String(plan.number)],
    ],
    paragraphs: plan.sentences.map(paragraphs),
  };
}

/** A page a large seed's documents past the pool share: body text only. */
export function sharedSheet(plan: FilePlan): PageSheet {
  return { title: 'Archived document', fields: [], paragraphs: plan.sentences.map(paragraphs) };
}

export const inboxScanLines = (plan: FilePlan) => (p: number) => [`Scanned record ${plan.number} page ${p + 1}`];
export const sharedScanLines = () => (p: number) => [`Scanned page ${p + 1}`];
