/**
 * Merge and append (the archive-ops spec §4, §7; the contract: src/api/documents.ts MergeRequest):
 * the pages of several archive documents and inbox files combined, in order, into the base (an archive
 * document or an inbox file) as one PDF.
 *
 * Order of work: the checks and the reading of the files happen first, the new PDF is written to the
 * file store (content-addressed, so a blob nobody points at is harmless), and only then one
 * transaction locks the documents, checks again that none changed meanwhile, and rewrites the rows.
 * PDF pages are copied with pdf-lib (text and vectors kept); an image page is drawn on a page of its
 * physical size (pagesToPdf, also used by export). A file that cannot be read, or an image page over
 * the page budget (files/page-budget.ts), refuses the whole call with 422 before anything is written.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, concatTransformationMatrix, degrees, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, FIELD_PROPS } from '../../src/api/archives.js';
import { MERGE_MAX_DOCUMENTS, type MergeAnswer, type MergeArchiveRef, type MergeInboxRef, type MergeRequest } from '../../src/api/documents.js';
import { INBOX_RIGHTS } from '../../src/api/inboxes.js';
import { archivesWithRights, inboxesWithRights, type ArchiveRow, type InboxRow } from '../auth/permissions.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { decoding, imagePage, loadPdf } from '../files/page-budget.js';
import { ApiError, Errors } from '../http/errors.js';
import { writeAudit, type AuditEntryInput } from './audit.js';
import { checkedOut, requireDatabase, type Actor } from './documents.js';
import { inboxFile, type InboxFileRow } from './inboxes.js';

/** Documents in one call: the merge is done while the caller waits, in one PDF held in memory. */
export const MERGE_MAX = MERGE_MAX_DOCUMENTS;

/** A TIFF page without a usable resolution is taken as scanned at this many dots per inch. */
export const DEFAULT_TIFF_DPI = 100;

interface MergeDoc {
  id: number;
  archive: ArchiveRow;
  page_count: number;
  file_name: string | null;
  content_text: string | null;
  checked_out_by: number | null;
}

export interface PageRow extends PdfSourcePage {
  text: string | null;
}

export interface MergeDeps {
  store: Store;
  files: FileStore;
  now: Date;
}

const isPdf = (type: string | null) => (type ?? '').toUpperCase() === 'PDF';

async function loadDoc(db: Queryable, archive: ArchiveRow, docId: number, lock = false): Promise<MergeDoc> {
  const r = await db.query<Omit<MergeDoc, 'archive'>>(
    `SELECT id, page_count, file_name, content_text, checked_out_by FROM documents WHERE id = $1 AND archive_id = $2 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`,
    [docId, archive.id],
  );
  const d = r.rows[0];
  if (!d) throw Errors.notFound(`Document ${docId} does not exist in archive ${archive.id}`);
  return { ...d, id: Number(d.id), archive };
}

/** One part of a merge: an archive document or an inbox file (src/api/documents.ts MergeRequest). */
type MergePart = { kind: 'doc'; doc: MergeDoc } | { kind: 'inbox'; inbox: InboxRow; file: InboxFileRow };

const partKey = (r: MergeArchiveRef | MergeInboxRef) => ('DocID' in r ? `a|${r.ArchiveID}|${r.DocID}` : `i|${r.InboxID}|${r.Path}`);
/** The other parts in the history's words: "documents 12, 14" and/or "inbox file scan-001.pdf of Scans". */
function partsWords(parts: readonly MergePart[], plural: boolean): string {
  const ids = parts.flatMap((p) => (p.kind === 'doc' ? [p.doc.id] : []));
  const files = parts.flatMap((p) => (p.kind === 'inbox' ? [`${p.file.file_name} of ${p.inbox.name}`] : []));
  return [
    ...(ids.length ? [`${plural ? 'documents' : 'document'} ${ids.join(', ')}`] : []),
    ...(files.length ? [`${files.length > 1 ? 'inbox files' : 'inbox file'} ${files.join(', ')}`] : []),
  ].join(' and ');
}

/** The parts of the call, base first, each once; refusals as described in the contract. */
async function checkMerge(db: Queryable, dbId: number, actor: Actor, req: MergeRequest): Promise<{ parts: MergePart[]; append: boolean; removeOthers: boolean }> {
  const base = req.BaseDocument;
  if (base.Type !== req.Target.Type) throw Errors.badRequest(`The target of ${base.Type === 'Inbox' ? 'an inbox file' : 'an archive document'} must be its ${base.Type === 'Inbox' ? 'inbox' : 'archive'}`);
  const baseRef: MergeArchiveRef | MergeInboxRef = base.Type === 'Archive' ? { ArchiveID: base.ArchiveID, DocID: base.DocID } : { InboxID: base.InboxID, Path: base.Path };
  if (req.Target.Id !== ('DocID' in baseRef ? baseRef.ArchiveID : baseRef.InboxID)) throw Errors.badRequest(`The target must be the ${base.Type === 'Inbox' ? 'inbox' : 'archive'} of the base document`);
  const append = req.Type === 'Append';
  const refs = [baseRef];
  const seen = new Set([partKey(baseRef)]);
  for (const d of req.Documents) {
    if (seen.has(partKey(d))) continue;
    seen.add(partKey(d));
    refs.push(d);
  }
  if (append && refs.length !== 2) throw Errors.badRequest('Append needs exactly one document besides the base document');
  if (!append && refs.length < 2) throw Errors.badRequest('Merge needs at least 2 documents');
  if (refs.length > MERGE_MAX) throw Errors.badRequest(`A merge takes at most ${MERGE_MAX} documents`);

  await requireDatabase(db, dbId);
  if (actor.licenceType === 4) throw Errors.forbidden('A read-only licence cannot change documents');
  // Removing is deleting: only when asked for, never by default (a left-out AppendType keeps them).
  const removeOthers = req.Target.AppendType === 'Remove';
  const bit = append ? ARCHIVE_PERMISSIONS.append : ARCHIVE_PERMISSIONS.merge;
  // The user's rights on every archive of the database (and every inbox), read once for all the parts.
  const archives = new Map((await archivesWithRights(db, dbId, actor.userId)).map((a) => [a.id, a]));
  let inboxes: Map<number, InboxRow> | null = null;
  const parts: MergePart[] = [];
  for (const [i, ref] of refs.entries()) {
    // The base changes, and so does every other part when it is removed.
    const changes = i === 0 || removeOthers;
    if ('InboxID' in ref) {
      inboxes ??= new Map((await inboxesWithRights(db, actor.userId)).map((x) => [x.id, x]));
      const inbox = inboxes.get(ref.InboxID);
      if (!inbox) throw Errors.notFound(`Inbox ${ref.InboxID} does not exist`);
      if ((inbox.rights & INBOX_RIGHTS.view) === 0) throw Errors.forbidden(`You do not have permission to view inbox ${inbox.name}`);
      if (inbox.database_id !== null && inbox.database_id !== dbId) throw Errors.badRequest(`Inbox ${inbox.name} belongs to another database`);
      if (changes && (inbox.rights & INBOX_RIGHTS.edit) === 0) throw Errors.forbidden(`You do not have permission to change inbox ${inbox.name}`);
      parts.push({ kind: 'inbox', inbox, file: await inboxFile(db, inbox.id, ref.Path) });
      continue;
    }
    const archive = archives.get(ref.ArchiveID);
    if (!archive) throw Errors.notFound(`Archive ${ref.ArchiveID} does not exist`);
    if ((archive.rights & ARCHIVE_PERMISSIONS.view) === 0) throw Errors.forbidden(`You do not have permission to view archive ${archive.name}`);
    // A versions archive keeps earlier versions as they were.
    if (i === 0 && (archive.props & ARCHIVE_PROPS.versionsArchive) !== 0) throw Errors.badRequest('A document of a versions archive cannot be merged into');
    if (changes && (archive.rights & bit) === 0) {
      throw Errors.forbidden(`You do not have permission to ${append ? 'append to' : 'merge'} documents of archive ${archive.name}`);
    }
    // A removed document is deleted: the same right as deleting it (bit 8) on its own archive.
    if (i > 0 && removeOthers && (archive.rights & ARCHIVE_PERMISSIONS.delete) === 0) {
      throw Errors.forbidden(`You do not have permission to delete documents of archive ${archive.name}`);
    }
    const doc = await loadDoc(db, archive, ref.DocID);
    // As for copy, move and delete: checking out counts in a revision-controlled archive only.
    const revision = (archive.props & ARCHIVE_PROPS.revisionControl) !== 0;
    if (changes && revision && doc.checked_out_by !== null && doc.checked_out_by !== actor.userId) throw checkedOut();
    parts.push({ kind: 'doc', doc });
  }
  return { parts, append, removeOthers };
}

/** An inbox file's pages: it has no page rows, so every page of its one file, in order. */
const inboxPages = (f: InboxFileRow): PageRow[] =>
  Array.from({ length: f.page_count }, (_, k) => ({ document_id: f.id, page_no: k + 1, rotation: 0, text: null, page_in_file: k, sha256: f.sha256, file_type: f.file_type }));

/** `name` with a .pdf extension, not yet taken by another file of the inbox. */
async function freePdfName(tx: Queryable, inboxId: number, fileId: number, name: string): Promise<string> {
  const stem = name.replace(/\.[^./\\]*$/, '');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${stem}.pdf` : `${stem} (${n}).pdf`;
    const taken = await tx.query('SELECT 1 FROM inbox_files WHERE inbox_id = $1 AND file_name = $2 AND id <> $3', [inboxId, candidate, fileId]);
    if (taken.rows.length === 0) return candidate;
  }
}

/** The pages of the documents, each document's in page order, with the file each lies in. */
export async function pagesOf(db: Queryable, docIds: number[]): Promise<PageRow[]> {
  const r = await db.query<PageRow>(
    `SELECT p.document_id, p.page_no, p.rotation, p.text, p.page_in_file, f.sha256, f.file_type
       FROM document_pages p LEFT JOIN document_files f ON f.id = p.file_id
      WHERE p.document_id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint) ORDER BY p.document_id, p.page_no`,
    // A JSON list: array parameters do not pass the PGlite worker's message boundary.
    [JSON.stringify(docIds)],
  );
  return r.rows.map((p) => ({ ...p, document_id: Number(p.document_id) }));
}

/** A page as `pagesToPdf` reads it: where its image or PDF page is stored and how it is turned. */
export interface PdfSourcePage {
  document_id: number;
  page_no: number;
  /** Degrees clockwise, as document_pages stores it. */
  rotation: number;
  page_in_file: number;
  sha256: string | null;
  file_type: string | null;
}

export interface PagesToPdfOptions {
  /**
   * Turn each page by its rotation. Merge leaves it off: the rotation stays in the page rows, and
   * turning the pages as well would turn them twice. An export applies it (the file leaves us).
   */
  rotate?: boolean;
  /** Image pages in black and white (1 bit), as export's ConvertToBW asks. PDF pages stay as they are. */
  toBw?: boolean;
}

const IMAGE_TYPES = new Set(['TIF', 'TIFF', 'PNG', 'JPG', 'JPEG']);
export const isImageType = (type: string | null) => IMAGE_TYPES.has((type ?? '').toUpperCase());

/** Quarter turns in degrees (0, 90, 180, 270) of a stored rotation. */
export const quarterTurns = (rotation: number) => ((Math.round((rotation || 0) / 90) % 4) + 4) % 4 * 90;

/**
 * One PDF of the given pages, in the given order (merge, export's ConvertToPDF, a single export of
 * several files). PDF pages are copied with pdf-lib (text and vectors kept); an image page (TIFF,
 * PNG, JPEG) goes through sharp and is drawn on a page of its physical size (from its resolution;
 * none or a screen one is taken as DEFAULT_TIFF_DPI): a bilevel page (or any with toBw) as a 1-bit
 * image, others as a greyscale JPEG.
 */
export async function pagesToPdf(files: FileStore, pages: PdfSourcePage[], opts: PagesToPdfOptions = {}): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const pdfs = new Map<string, PDFDocument>();
  const images = new Map<string, Buffer>();
  for (const p of pages) {
    if (!p.sha256) throw Errors.badRequest(`Page ${p.page_no} of document ${p.document_id} has no file`);
    const turn = opts.rotate ? quarterTurns(p.rotation) : 0;
    if (isPdf(p.file_type)) {
      let src = pdfs.get(p.sha256);
      if (!src) {
        src = await loadPdf(await files.get(p.sha256));
        pdfs.set(p.sha256, src);
      }
      if (p.page_in_file >= src.getPageCount()) throw Errors.badRequest(`Page ${p.page_no} of document ${p.document_id} is missing from its file`);
      const [copied] = await out.copyPages(src, [p.page_in_file]);
      if (turn) copied!.setRotation(degrees((copied!.getRotation().angle + turn) % 360));
      out.addPage(copied!);
    } else if (isImageType(p.file_type)) {
      let bytes = images.get(p.sha256);
      if (!bytes) {
        bytes = await files.get(p.sha256);
        images.set(p.sha256, bytes);
      }
      await decoding(`Page ${p.page_no} of document ${p.document_id}`, () => addImagePage(out, bytes, p, turn, opts.toBw ?? false));
    } else {
      throw Errors.badRequest(`Document ${p.document_id} has a ${p.file_type ?? 'unknown'} file, which cannot be combined into a PDF`);
    }
  }
  return out.save();
}

async function addImagePage(out: PDFDocument, bytes: Buffer, p: PdfSourcePage, turn: number, toBw: boolean) {
  const page = await imagePage(bytes, p.page_in_file, () => Errors.badRequest(`Page ${p.page_no} of document ${p.document_id} is missing from its file`));
  const { meta } = page;
  const dpi = meta.density && meta.density > 72 ? meta.density : DEFAULT_TIFF_DPI;
  let w = (page.width * 72) / dpi;
  let h = (page.height * 72) / dpi;
  if (turn === 90 || turn === 270) [w, h] = [h, w];
  const grey = page.image().flatten({ background: '#ffffff' }).greyscale().rotate(turn);
  const added = out.addPage([w, h]);
  if (toBw || meta.bitsPerSample === 1) {
    // Bilevel: a lossless 1-bit Flate image. A scanned text page is ~1-3 KB this way, a greyscale
    // JPEG of it ~75 KB, and black stays black (no JPEG ringing around the letters).
    const { data, info } = await grey.threshold(128).raw().toBuffer({ resolveWithObject: true });
    const stream = out.context.stream(deflateSync(packBits(data, info.width, info.height)), {
      Type: 'XObject', Subtype: 'Image', Width: info.width, Height: info.height, BitsPerComponent: 1, ColorSpace: 'DeviceGray', Filter: 'FlateDecode',
    });
    const name = added.node.newXObject('Im', out.context.register(stream));
    added.pushOperators(pushGraphicsState(), concatTransformationMatrix(w, 0, 0, h, 0, 0), drawObject(name), popGraphicsState());
  } else {
    // Greyscale or colour pages: a JPEG embeds in ~1 ms (embedPng takes ~150 ms a page).
    const image = await out.embedJpg(await grey.jpeg({ quality: 80 }).toBuffer());
    added.drawImage(image, { x: 0, y: 0, width: w, height: h });
  }
}

/** One byte a pixel (0 or 255) to PDF's 1-bit rows: most significant bit first, each row whole bytes, 1 = white. */
export function packBits(pixels: Buffer, width: number, height: number): Buffer {
  const rowBytes = Math.ceil(width / 8);
  const out = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const from = y * width;
    const to = y * rowBytes;
    for (let x = 0; x < width; x++) if (pixels[from + x]! >= 128) out[to + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  return out;
}

/**
 * The document's file and pages replaced by one new file holding `pages` in order (each keeping its
 * rotation and text), in the caller's transaction: merge's base, and a burst source that loses the
 * burst pages. The system fields the archive shows (Page Count, File Type, Last Modified By: Prop 16,
 * 1024, 256) are stored values: they follow the new file, or the grid would show the old page count.
 * contentText null keeps the document's own.
 */
export async function replaceDocumentFile(
  tx: Queryable,
  d: { docId: number; archiveId: number; file: { sha256: string; file_name: string; file_type: string; page_count: number }; pages: readonly { rotation: number; text: string | null }[]; contentText: string | null; now: Date; userName: string },
): Promise<void> {
  await tx.query('DELETE FROM document_pages WHERE document_id = $1', [d.docId]);
  await tx.query('DELETE FROM document_files WHERE document_id = $1', [d.docId]);
  const f = await tx.query<{ id: number }>(
    'INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count) VALUES ($1, 0, $2, $3, $4, $5) RETURNING id',
    [d.docId, d.file.sha256, d.file.file_name, d.file.file_type, d.file.page_count],
  );
  const fileId = Number(f.rows[0]!.id);
  const params: unknown[] = [d.docId, fileId];
  const values = d.pages.map((p, i) => {
    params.push(i + 1, i, p.rotation, p.text);
    const k = params.length;
    return `($1, $${k - 3}, $2, $${k - 2}, $${k - 1}, $${k})`;
  });
  if (values.length) await tx.query(`INSERT INTO document_pages (document_id, page_no, file_id, page_in_file, rotation, text) VALUES ${values.join(', ')}`, params);
  await tx.query(
    `UPDATE documents SET page_count = $2, file_name = $3, file_type = $4, content_text = COALESCE($5, content_text), modified_at = $6, modified_by = $7,
            fields = fields || COALESCE((SELECT jsonb_object_agg(f.id::text, CASE WHEN (f.prop & $9) <> 0 THEN to_jsonb($2::int::text) WHEN (f.prop & $10) <> 0 THEN to_jsonb($4::text) ELSE to_jsonb($7::text) END)
                                           FROM archive_fields af JOIN fields f ON f.id = af.field_id
                                          WHERE af.archive_id = $8 AND NOT f.multi_value AND (f.prop & ($9 | $10 | $11)) <> 0), '{}'::jsonb)
      WHERE id = $1`,
    [d.docId, d.file.page_count, d.file.file_name, d.file.file_type, d.contentText, d.now, d.userName, d.archiveId, FIELD_PROPS.pageCount, FIELD_PROPS.fileType, FIELD_PROPS.lastModifiedBy],
  );
}

const pdfName = (name: string | null, id: number) => `${(name ?? `document-${id}`).replace(/\.[^./\\]*$/, '')}.pdf`;

/** Does the merge or append of `req` for `actor`; see the file comment and the contract. */
export async function mergeDocuments(deps: MergeDeps, dbId: number, actor: Actor, req: MergeRequest): Promise<MergeAnswer> {
  const { store, files, now } = deps;
  const { parts, append, removeOthers } = await checkMerge(store, dbId, actor, req);
  const docs = parts.flatMap((p) => (p.kind === 'doc' ? [p.doc] : []));
  const byDoc = new Map<number, PageRow[]>();
  for (const p of await pagesOf(store, docs.map((d) => d.id))) byDoc.set(p.document_id, [...(byDoc.get(p.document_id) ?? []), p]);
  const pagesOfPart = (p: MergePart) => (p.kind === 'doc' ? (byDoc.get(p.doc.id) ?? []) : inboxPages(p.file));
  const ordered = parts.flatMap(pagesOfPart);
  const pdf = await pagesToPdf(files, ordered);
  const blob = await files.put(pdf);
  const base = parts[0]!;
  const others = parts.slice(1);
  const otherDocs = others.flatMap((p) => (p.kind === 'doc' ? [p.doc] : []));
  const otherFiles = others.flatMap((p) => (p.kind === 'inbox' ? [p] : []));
  const contentText = docs.map((d) => d.content_text ?? '').filter((t) => t !== '').join('\n');
  const refOf = (p: MergePart) => (p.kind === 'doc' ? { ArchiveID: p.doc.archive.id, DocID: p.doc.id } : { InboxID: p.inbox.id, Path: p.file.file_name });
  let answer: MergeAnswer = { PageCount: ordered.length };

  await store.transaction(async (tx) => {
    // Again under lock: a part changed or removed since it was read would make the PDF wrong.
    for (const p of parts) {
      if (p.kind === 'doc') {
        const current = await loadDoc(tx, p.doc.archive, p.doc.id, true);
        if (current.page_count !== p.doc.page_count) throw new ApiError(409, 'A document changed while it was being merged; try again');
      } else {
        const current = await inboxFile(tx, p.inbox.id, p.file.file_name, true);
        if (current.sha256 !== p.file.sha256) throw new ApiError(409, 'An inbox file changed while it was being merged; try again');
      }
    }
    await tx.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [blob.sha256, blob.size, 'application/pdf']);
    if (base.kind === 'inbox') {
      // The combined PDF replaces the inbox file, under its name with .pdf.
      const name = await freePdfName(tx, base.inbox.id, base.file.id, base.file.file_name);
      await tx.query('UPDATE inbox_files SET file_name = $2, file_type = $3, sha256 = $4, size = $5, page_count = $6, date_modified = $7 WHERE id = $1', [
        base.file.id, name, 'PDF', blob.sha256, blob.size, ordered.length, now,
      ]);
      answer = { InboxID: base.inbox.id, Path: name, PageCount: ordered.length };
    } else {
      const b = base.doc;
      await replaceDocumentFile(tx, {
        docId: b.id,
        archiveId: b.archive.id,
        file: { sha256: blob.sha256, file_name: pdfName(b.file_name, b.id), file_type: 'PDF', page_count: ordered.length },
        pages: ordered,
        contentText,
        now,
        userName: actor.userName,
      });
      answer = { DocID: b.id, ArchiveID: b.archive.id, PageCount: ordered.length };
    }
    if (removeOthers && otherDocs.length) {
      await tx.query('UPDATE documents SET deleted = true, deleted_at = $2, modified_at = $2, modified_by = $3 WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint) AND NOT deleted', [JSON.stringify(otherDocs.map((d) => d.id)), now, actor.userName]);
    }
    // Inbox files have no soft delete (nor history): a merged one leaves its inbox.
    if (removeOthers && otherFiles.length) {
      await tx.query('DELETE FROM inbox_files WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint)', [JSON.stringify(otherFiles.map((p) => p.file.id))]);
    }
    const entries: AuditEntryInput[] = [];
    const documents = others.map(refOf);
    if (base.kind === 'doc') {
      const b = base.doc;
      const added = ordered.length - pagesOfPart(base).length;
      const fromInbox = otherFiles.length === 1 && others.length === 1 ? otherFiles[0]!.inbox.name : undefined;
      entries.push(
        append
          ? {
              databaseId: dbId, archiveId: b.archive.id, documentId: b.id, category: 'appended',
              message: `Appended ${partsWords(others, false)} (${added} pages)`, time: now, userName: actor.userName, userId: actor.userId,
              // From an inbox the seed's sentence: the inbox and the pages now; else the pages added.
              event: fromInbox ? { Kind: 'page-appended', Inbox: fromInbox, Count: ordered.length } : { Kind: 'document-appended', Count: added },
              details: { Documents: documents },
            }
          : {
              databaseId: dbId, archiveId: b.archive.id, documentId: b.id, category: 'updated',
              message: `Merged with ${partsWords(others, true)} (${ordered.length} pages)`, time: now, userName: actor.userName, userId: actor.userId,
              details: { Documents: documents },
            },
      );
    }
    if (removeOthers) {
      const into = base.kind === 'doc' ? `document ${base.doc.id}` : `inbox file ${answer.Path ?? ''} of ${base.inbox.name}`;
      for (const d of otherDocs) {
        entries.push({
          databaseId: dbId, archiveId: d.archive.id, documentId: d.id, category: 'deleted',
          message: `${append ? 'Appended' : 'Merged'} into ${into}`, time: now, userName: actor.userName, userId: actor.userId,
          event: { Kind: 'document-deleted' }, details: { MergedInto: base.kind === 'doc' ? refOf(base) : { InboxID: base.inbox.id, Path: answer.Path } },
        });
      }
    }
    if (entries.length) await writeAudit(tx, ...entries);
  });
  return answer;
}
