/**
 * Seeds an empty store: the catalogue (catalog.ts) and N documents with real files. Each of the
 * first POOL_MAX documents gets a file of its own that shows its own index data (document-pages.ts);
 * a larger seed's further documents share SHARED_MAX files with body text only, so big seeds stay
 * fast. Field values are deterministic. Document indexes are dropped for the load and built after it
 * (bulk loads are several times faster that way).
 */
import { createHash } from 'node:crypto';
import { createDocumentIndexes, dropDocumentIndexes } from '../db/migrate.js';
import { foldDocCounts } from '../search/doc-counts.js';
import { countFields } from '../search/field-counts.js';
import type { Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ARCHIVE_FIELDS, CITIES, CUSTOMERS, DEPARTMENTS, DOCUMENT_TYPES, F, SEED_IDS, STATUSES, TAGS, seedCatalog } from './catalog.js';
import { type FilePlan, documentScanLines, documentSheet, inboxScanLines, inboxSheet, lineItems, planFiles, sharedScanLines, sharedSheet } from './document-pages.js';
import { type PageSheet, makePdf, makeTiff, sentence } from './files.js';
import { HISTORY_COLUMNS, historyRows } from './history.js';
import { Prng } from './prng.js';

/** Documents up to this many get files of their own; the rest share SHARED_MAX files (seed time). */
const POOL_MAX = 300;
const SHARED_MAX = 60;
const BATCH = 2000;

export async function isDatabaseEmpty(store: Store): Promise<boolean> {
  const r = await store.query<{ n: number }>('SELECT count(*) AS n FROM users');
  return (r.rows[0]?.n ?? 0) === 0;
}

/** A generated file as the documents' rows name it. */
interface SeedFile {
  sha256: string;
  size: number;
  fileType: 'PDF' | 'TIF';
  mime: string;
  pages: number;
  pageTexts: string[];
}

/** Renders a plan as a PDF from its sheet or as a scan with its lines, and stores the file. */
async function storeFile(files: FileStore, plan: FilePlan, sheet: () => PageSheet, scanLines: (page: number) => string[]): Promise<SeedFile> {
  if (plan.fileType === 'TIF') {
    const { sha256, size } = await files.put(await makeTiff(plan.bars, scanLines));
    return { sha256, size, fileType: 'TIF', mime: 'image/tiff', pages: plan.pages, pageTexts: [] };
  }
  const { bytes, pageTexts } = await makePdf(sheet());
  const { sha256, size } = await files.put(bytes);
  return { sha256, size, fileType: 'PDF', mime: 'application/pdf', pages: plan.pages, pageTexts };
}

/** Share of the documents per archive (archive id -> weight). */
const ARCHIVE_WEIGHTS: [number, number][] = [
  [SEED_IDS.archive.invoices, 35],
  [SEED_IDS.archive.paidInvoices, 10],
  [SEED_IDS.archive.contracts, 10],
  [SEED_IDS.archive.contractVersions, 3],
  [SEED_IDS.archive.correspondence, 15],
  [SEED_IDS.archive.incoming, 8],
  [SEED_IDS.archive.outgoing, 7],
  [SEED_IDS.archive.hrFiles, 5],
  [SEED_IDS.archive.records, 5],
  [SEED_IDS.archive.retained, 2],
];

function pickArchive(rng: Prng): number {
  const total = ARCHIVE_WEIGHTS.reduce((a, [, w]) => a + w, 0);
  let r = rng.next() * total;
  for (const [id, w] of ARCHIVE_WEIGHTS) {
    r -= w;
    if (r < 0) return id;
  }
  return SEED_IDS.archive.invoices;
}

const A = SEED_IDS.archive;
const PARENT_ARCHIVE: Record<number, number> = { [A.paidInvoices]: A.invoices, [A.contractVersions]: A.contracts, [A.incoming]: A.correspondence, [A.outgoing]: A.correspondence, [A.retained]: A.records };

/** What the documents of an archive with no Document Type field are. */
const ARCHIVE_KIND: Record<number, string> = { [A.invoices]: 'Invoice', [A.paidInvoices]: 'Invoice', [A.hrFiles]: 'Memo' };

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const USERS = ['admin', 'user', 'kiosk'];

function fieldValues(rng: Prng, archiveId: number, docId: number, file: FilePlan, created: number): { fields: Record<string, string>; mvals: Record<string, string[]> } {
  const fields: Record<string, string> = {};
  const mvals: Record<string, string[]> = {};
  const [city, country, region] = rng.pick(CITIES);
  const docDate = created - rng.int(0, 900) * 86_400_000;
  let titleKind = '';
  let titleWho = '';
  for (const fid of ARCHIVE_FIELDS[archiveId] ?? []) {
    switch (fid) {
      case F.title:
        titleKind = rng.pick(DOCUMENT_TYPES);
        titleWho = rng.pick(CUSTOMERS);
        break;
      case F.recTitle:
        fields[fid] = `Record ${docId} ${rng.pick(DEPARTMENTS)}`;
        break;
      case F.invoiceNumber:
      case F.recNumber:
        fields[fid] = String(100000 + docId);
        break;
      case F.documentDate:
      case F.recCreated:
        fields[fid] = isoDate(docDate);
        break;
      case F.amount:
        fields[fid] = (rng.int(1000, 2_500_000) / 100).toFixed(2);
        break;
      case F.department:
        fields[fid] = rng.pick(DEPARTMENTS);
        break;
      case F.customer:
        fields[fid] = rng.pick(CUSTOMERS);
        break;
      case F.country:
        fields[fid] = country;
        break;
      case F.region:
        fields[fid] = region;
        break;
      case F.city:
        fields[fid] = city;
        break;
      case F.tags: {
        const tags = [...new Set([rng.pick(TAGS), rng.pick(TAGS)])].slice(0, rng.int(0, 2));
        if (tags.length) mvals[fid] = tags;
        break;
      }
      case F.dateEntered:
      case F.recDateEntered:
        fields[fid] = isoDate(created);
        break;
      case F.indexedBy:
        fields[fid] = rng.pick(USERS);
        break;
      case F.pageCount:
        fields[fid] = String(file.pages);
        break;
      case F.lastModifiedBy:
        fields[fid] = rng.pick(USERS);
        break;
      case F.fileType:
        fields[fid] = file.fileType;
        break;
      case F.reference:
        fields[fid] = `REF-${String(docId).padStart(6, '0')}`;
        break;
      case F.accountCode:
        fields[fid] = `${String.fromCharCode(65 + rng.int(0, 25))}${String.fromCharCode(65 + rng.int(0, 25))}-${rng.int(1000, 9999)}`;
        break;
      case F.documentType:
        fields[fid] = rng.pick(DOCUMENT_TYPES);
        break;
      case F.status:
        fields[fid] = rng.pick(STATUSES);
        break;
      case F.notes:
        if (rng.chance(0.5)) fields[fid] = sentence(rng, rng.int(10, 30));
        break;
      case F.retention:
        fields[fid] = rng.pick(['1 year', '5 years', '10 years', 'Permanent']);
        break;
      case F.owner:
        fields[fid] = rng.pick(USERS);
        break;
      case F.item: {
        const rows = rng.int(1, 4);
        const items: string[] = [];
        const quantities: string[] = [];
        const prices: string[] = [];
        for (let r = 0; r < rows; r++) {
          items.push(rng.pick(['Paper', 'Toner', 'Service hours', 'Licence', 'Freight', 'Consulting']));
          quantities.push(String(rng.int(1, 50)));
          prices.push((rng.int(100, 50000) / 100).toFixed(2));
        }
        mvals[F.item] = items;
        mvals[F.quantity] = quantities;
        mvals[F.unitPrice] = prices;
        break;
      }
      default:
        break;
    }
  }
  // The title and the amount agree with the rest of the document (its pages show them together):
  // its archive's kind or its own Document Type, its customer (or department), its line items' total.
  // Set after the draws above, so every other value stays what the same seed always gave.
  if (ARCHIVE_FIELDS[archiveId]?.includes(F.title)) {
    const kind = fields[F.documentType] ?? ARCHIVE_KIND[archiveId] ?? titleKind;
    fields[F.title] = `${kind} ${docId} ${fields[F.customer] ?? fields[F.department] ?? titleWho}`;
  }
  const items = lineItems(mvals);
  if (items && fields[F.amount] !== undefined) fields[F.amount] = items.total.toFixed(2);
  return { fields, mvals };
}

export interface SeedOptions {
  docs: number;
  now: () => number;
  log?: (msg: string) => void;
}

export async function seed(store: Store, files: FileStore, opts: SeedOptions): Promise<{ docs: number; ms: number }> {
  const t0 = Date.now();
  const log = opts.log ?? (() => undefined);
  const nowMs = opts.now();
  const rng = new Prng(20240115);
  await store.transaction((tx) => seedCatalog(tx, new Date(nowMs)));
  log('catalogue done');

  const plans = planFiles(rng, Math.max(8, Math.min(opts.docs, POOL_MAX)));
  const blobRows = new Map<string, unknown[]>();
  const keep = (f: SeedFile) => {
    blobRows.set(f.sha256, [f.sha256, f.size, f.mime, new Date(nowMs)]);
    return f;
  };
  const shared: SeedFile[] = [];
  const sharedFile = async (k: number) => (shared[k] ??= keep(await storeFile(files, plans[k] as FilePlan, () => sharedSheet(plans[k] as FilePlan), sharedScanLines())));

  await dropDocumentIndexes(store);
  let docRows: unknown[][] = [];
  let fileRows: unknown[][] = [];
  let pageRows: unknown[][] = [];
  let versionRows: unknown[][] = [];
  let auditRows: unknown[][] = [];
  const flush = async () => {
    await store.bulkInsert('blobs', ['sha256', 'size', 'mime', 'created_at'], [...blobRows.values()]);
    blobRows.clear();
    await store.bulkInsert('documents', ['id', 'archive_id', 'secure_hash', 'fields', 'mvals', 'version', 'file_name', 'file_type', 'page_count', 'content_text', 'created_at', 'created_by', 'modified_at', 'modified_by'], docRows);
    await store.bulkInsert('document_files', ['id', 'document_id', 'position', 'sha256', 'file_name', 'file_type', 'page_count'], fileRows);
    await store.bulkInsert('document_pages', ['document_id', 'page_no', 'file_id', 'page_in_file', 'text'], pageRows);
    await store.bulkInsert('document_versions', ['document_id', 'version', 'fields', 'mvals', 'files', 'comment', 'created_at', 'created_by'], versionRows);
    await store.bulkInsert('audit_entries', HISTORY_COLUMNS, auditRows);
    docRows = [];
    fileRows = [];
    pageRows = [];
    versionRows = [];
    auditRows = [];
  };
  const historyRng = new Prng(7_240_115);
  const dbOf = (archiveId: number) => (archiveId >= SEED_IDS.archive.records ? SEED_IDS.db.records : SEED_IDS.db.demo);
  for (let id = 1; id <= opts.docs; id++) {
    // Past the pool, documents share a few files that show no document's index data.
    const own = id <= plans.length;
    const slot = own ? id - 1 : (id - 1) % Math.min(SHARED_MAX, plans.length);
    const plan = plans[slot] as FilePlan;
    const archiveId = pickArchive(rng);
    const created = nowMs - rng.int(0, 365 * 2) * 86_400_000 - rng.int(0, 86_399) * 1000;
    const { fields, mvals } = fieldValues(rng, archiveId, id, plan, created);
    const file = own
      ? keep(await storeFile(files, plan, () => documentSheet(archiveId, fields, mvals, plan), documentScanLines(archiveId, fields, mvals)))
      : await sharedFile(slot);
    if (id === plans.length) log(`${plans.length} files generated`);
    const hash = createHash('sha256').update(`doc:${id}`).digest('hex').slice(0, 32);
    const ext = file.fileType === 'PDF' ? 'pdf' : 'tif';
    const fileName = `document-${id}.${ext}`;
    const by = rng.pick(USERS);
    const revised = archiveId === SEED_IDS.archive.contracts && rng.chance(0.5);
    const version = revised ? 2 : 1;
    const text = file.pageTexts.join('\n\n');
    docRows.push([id, archiveId, hash, fields, mvals, version, fileName, file.fileType, file.pages, text || null, new Date(created), by, new Date(created + 3_600_000), by]);
    fileRows.push([id, id, 0, file.sha256, fileName, file.fileType, file.pages]);
    for (let p = 0; p < file.pages; p++) pageRows.push([id, p + 1, id, p, file.pageTexts[p] ?? null]);
    const fileRef = [{ sha256: file.sha256, fileName, fileType: file.fileType, pages: file.pages }];
    versionRows.push([id, 1, fields, mvals, fileRef, 'Created', new Date(created), by]);
    if (revised) versionRows.push([id, 2, fields, mvals, fileRef, 'Revised terms', new Date(created + 3_600_000), by]);
    const parent = PARENT_ARCHIVE[archiveId] ?? null;
    const doc = { id, dbId: dbOf(archiveId), archiveId, parentArchiveId: parent, created, by, fileType: file.fileType, pages: file.pages, revised, status: fields[F.status] };
    for (const row of historyRows(historyRng, doc, nowMs)) auditRows.push(row);
    if (docRows.length >= BATCH) {
      await flush();
      log(`${id} documents`);
    }
  }
  await flush();

  // Inbox files: letters waiting to be indexed.
  const inboxRows: unknown[][] = [];
  for (let i = 0; i < Math.min(12, plans.length); i++) {
    const plan = plans[i] as FilePlan;
    const f = keep(await storeFile(files, plan, () => inboxSheet(plan), inboxScanLines(plan)));
    const inbox = i % 3 === 2 ? SEED_IDS.inbox.mailroom : SEED_IDS.inbox.scans;
    const t = new Date(nowMs - (i + 1) * 3_600_000);
    inboxRows.push([inbox, `scan-${String(i + 1).padStart(3, '0')}.${f.fileType === 'PDF' ? 'pdf' : 'tif'}`, f.fileType, f.sha256, f.size, f.pages, {}, t, t]);
  }
  await store.bulkInsert('blobs', ['sha256', 'size', 'mime', 'created_at'], [...blobRows.values()]);
  await store.bulkInsert('inbox_files', ['inbox_id', 'file_name', 'file_type', 'sha256', 'size', 'page_count', 'fields', 'date_created', 'date_modified'], inboxRows);

  await markExportHeld(store);

  log('building indexes');
  await createDocumentIndexes(store);
  await resetSequences(store);
  // The fields searches filter on (lists, view tabs) counted; one count row per archive and key,
  // instead of one per key and loading statement.
  await countFields(store);
  await foldDocCounts(store);
  // VACUUM sets the visibility map, so counts can use index-only scans from the first search.
  await store.exec('VACUUM ANALYZE');
  if (store.kind === 'pglite') await store.exec('CHECKPOINT');
  return { docs: opts.docs, ms: Date.now() - t0 };
}

/**
 * The export refusals (the user-app spec §4 "Export conversion states", §8) need documents that wait for
 * PDF conversion or are in a workflow. Contracts converts to PDF (convert_pdf), and its last
 * documents (highest ids: the grid's last page in its default order) are ones no test counts or
 * edits: the last waits for PDF conversion, the one before it is in a workflow, the third is both.
 * An export naming any of them is refused (server/services/export.ts).
 */
export const EXPORT_HELD_ARCHIVE = SEED_IDS.archive.contracts;

async function markExportHeld(store: Store) {
  await store.query(
    `WITH last AS (SELECT id, row_number() OVER (ORDER BY id DESC) AS n FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id DESC LIMIT 3)
     UPDATE documents d SET pdf_pending = last.n IN (1, 3), in_workflow = last.n IN (2, 3) FROM last WHERE d.id = last.id`,
    [EXPORT_HELD_ARCHIVE],
  );
}

const IDENTITY_TABLES: [string, string][] = [
  ['databases', 'id'], ['users', 'id'], ['groups', 'id'], ['database_admins', 'id'], ['database_permissions', 'id'], ['delegates', 'id'],
  ['archives', 'id'], ['archive_permissions', 'id'], ['lists', 'id'], ['dynamic_list_rows', 'id'], ['table_fields', 'id'], ['fields', 'id'],
  ['searches', 'id'], ['search_items', 'id'], ['search_view_tabs', 'id'], ['search_permissions', 'id'], ['documents', 'id'],
  ['document_versions', 'id'], ['document_files', 'id'], ['inboxes', 'id'], ['inbox_permissions', 'id'], ['inbox_files', 'id'],
  ['licence_rules', 'iid'], ['licences', 'id'], ['audit_entries', 'id'], ['jobs', 'id'], ['stamps', 'id'], ['advanced_links', 'id'], ['dxc_sources', 'id'],
];

/** Rows inserted with explicit ids leave the identity sequences behind: move them past the largest id. */
async function resetSequences(store: Store) {
  for (const [table, col] of IDENTITY_TABLES) {
    await store.query(`SELECT setval(pg_get_serial_sequence('${table}', '${col}'), GREATEST((SELECT max(${col}) FROM ${table}), 0) + 1, false)`);
  }
}
