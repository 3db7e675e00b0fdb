/**
 * Page rotation (the Processing handler), annotations and stamps (the contract: src/api/annotations.ts;
 * the user-app spec §6, §7; the archive-ops spec §3; the console spec stamps).
 *
 * What is stored where:
 * - A rotation rewrites the stored file: a PDF page's /Rotate (pdf-lib; text and vectors kept), a
 *   TIFF or image page's pixels (sharp; a bilevel page stays a lossless CCITT G4 page, others LZW).
 *   The new bytes are a new content-addressed blob; the document's files row points at it (another
 *   document sharing the old blob, a copy, keeps it), so thumbnails (cached by blob) and the viewer
 *   draw the turned page. The document gets version + 1 (document_versions, with its files) and an
 *   'updated' history entry; its annotations on that page are turned with it.
 * - Annotations: the annotations table (migration 015), one row each, keyed by the client's id.
 * - Stamps: the stamps table (id, text; unique text).
 */
import { degrees } from 'pdf-lib';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS } from '../../src/api/archives.js';
import {
  STAMP_COLOR,
  STAMP_EXISTS_KEY,
  STAMP_EXISTS_MESSAGE,
  type Annotation,
  type AnnotationInput,
  type DocumentAnnotations,
  type ProcessingAnswer,
  type ProcessingRequest,
  type Stamp,
} from '../../src/api/annotations.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { decoding, imagePage, loadPdf } from '../files/page-budget.js';
import { ApiError, Errors } from '../http/errors.js';
import { singleTiffPage } from './annotation-burn.js';
import { writeAudit } from './audit.js';
import { refuseReadOnly } from './bulk-update.js';
import { checkedOut, loadDocument, type Actor } from './documents.js';
import { joinTiffs } from './export-convert.js';
import { isImageType, quarterTurns } from './merge.js';

const { view: VIEW, edit: EDIT, annotations: ANNOTATE } = ARCHIVE_PERMISSIONS;

export interface DocRef {
  dbId: number;
  archiveId: number;
  docId: number;
  secureId: string;
}

// ---- Rotation ----

interface PageFileRow {
  file_id: number;
  page_in_file: number;
  sha256: string;
  file_type: string;
}

/** Width and height of a page as it is shown (a PDF page's /Rotate applied). */
type Dims = { width: number; height: number };

/** The PDF with page `index` turned by `turn` degrees clockwise, and the page's shown size before. */
export async function rotatePdfPage(bytes: Uint8Array, index: number, turn: number): Promise<{ bytes: Uint8Array; before: Dims }> {
  const pdf = await loadPdf(bytes);
  if (index >= pdf.getPageCount()) throw Errors.badRequest(`Page ${index + 1} is missing from the document's file`);
  const page = pdf.getPage(index);
  const current = quarterTurns(page.getRotation().angle);
  const { width, height } = page.getSize();
  const before = current === 90 || current === 270 ? { width: height, height: width } : { width, height };
  page.setRotation(degrees((current + turn) % 360));
  return { bytes: await pdf.save(), before };
}

/**
 * The image file with page `index` turned: a (multi-page) TIFF page by page, a PNG or JPEG as itself.
 * Every page is decoded again, so a file with any page over the page budget is refused (422).
 */
export function rotateImagePage(bytes: Buffer, fileType: string, index: number, turn: number): Promise<{ bytes: Buffer; before: Dims }> {
  return decoding('The image file', async () => {
    const type = fileType.toUpperCase();
    const page = await imagePage(bytes, index, () => Errors.badRequest(`Page ${index + 1} is missing from the document's file`));
    const before = { width: page.width, height: page.height };
    if (type === 'PNG' || type === 'JPG' || type === 'JPEG') {
      const img = page.image().rotate(turn).withMetadata(page.meta.density ? { density: page.meta.density } : {});
      return { bytes: type === 'PNG' ? await img.png().toBuffer() : await img.jpeg({ quality: 92 }).toBuffer(), before };
    }
    const parts: Buffer[] = [];
    for (let k = 0; k < page.pages; k++) parts.push(await singleTiffPage(bytes, k, k === index ? turn : 0));
    return { bytes: joinTiffs(parts), before };
  });
}

export interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
  fontSize: number;
}

/**
 * Where an annotation goes when its page turns by `turn` clockwise (page shown `before` the turn):
 * its centre turns with the page, its size on the page (and its text's) stays, and it stays upright.
 */
export function turnPlacement(a: Placed, turn: number, before: Dims): Placed {
  const cx = a.x + a.width / 2;
  const cy = a.y + a.height / 2;
  const quarter = turn === 90 || turn === 270;
  const after = quarter ? { width: before.height, height: before.width } : before;
  const [nx, ny] = turn === 90 ? [1 - cy, cx] : turn === 180 ? [1 - cx, 1 - cy] : turn === 270 ? [cy, 1 - cx] : [cx, cy];
  const width = Math.min(1, (a.width * before.width) / after.width);
  const height = Math.min(1, (a.height * before.height) / after.height);
  const clamp = (v: number, size: number) => Math.min(Math.max(0, v - size / 2), 1 - size);
  return { x: clamp(nx, width), y: clamp(ny, height), width, height, fontSize: (a.fontSize * before.width) / after.width };
}

/** The POST Processing handler's rotate; see the file comment. */
export async function rotatePage(deps: { store: Store; files: FileStore }, actor: Actor, req: ProcessingRequest, now: Date): Promise<ProcessingAnswer> {
  const { store, files } = deps;
  refuseReadOnly(actor, 'rotate pages of');
  const { archive, doc } = await loadDocument(store, actor.userId, req.db, req.archive, req.doc, req.secureId, VIEW);
  if ((archive.rights & EDIT) === 0) throw Errors.forbidden('You do not have permission to change documents of this archive');
  if ((archive.props & ARCHIVE_PROPS.versionsArchive) !== 0) throw Errors.badRequest('A document of a versions archive cannot be changed');
  if ((archive.props & ARCHIVE_PROPS.revisionControl) !== 0 && doc.checked_out_by !== null && doc.checked_out_by !== actor.userId) throw checkedOut();
  const turn = quarterTurns(req.angle);
  const row = (
    await store.query<PageFileRow>(
      `SELECT p.file_id, p.page_in_file, f.sha256, f.file_type FROM document_pages p JOIN document_files f ON f.id = p.file_id
        WHERE p.document_id = $1 AND p.page_no = $2`,
      [req.doc, req.page],
    )
  ).rows[0];
  if (!row) throw Errors.badRequest(`Document ${req.doc} has no page ${req.page}`);
  const type = row.file_type.toUpperCase();
  const old = await files.get(row.sha256);
  let turned: { bytes: Uint8Array; before: Dims };
  if (type === 'PDF') turned = await rotatePdfPage(old, row.page_in_file, turn);
  else if (isImageType(type)) turned = await rotateImagePage(old, type, row.page_in_file, turn);
  else throw Errors.badRequest(`A page of a ${row.file_type} file cannot be turned`);
  const blob = await files.put(turned.bytes);
  const mime = (await store.query<{ mime: string | null }>('SELECT mime FROM blobs WHERE sha256 = $1', [row.sha256])).rows[0]?.mime ?? null;

  return store.transaction(async (tx) => {
    const current = await tx.query<{ sha256: string; version: number; fields: unknown; mvals: unknown }>(
      `SELECT f.sha256, d.version, d.fields, d.mvals FROM documents d JOIN document_files f ON f.document_id = d.id AND f.id = $2
        WHERE d.id = $1 AND NOT d.deleted FOR UPDATE OF d`,
      [req.doc, row.file_id],
    );
    const c = current.rows[0];
    if (!c || c.sha256 !== row.sha256) throw new ApiError(409, 'The document changed while its page was being turned; try again');
    const version = Number(c.version) + 1;
    await tx.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [blob.sha256, blob.size, mime]);
    await tx.query('UPDATE document_files SET sha256 = $2 WHERE id = $1', [row.file_id, blob.sha256]);
    await tx.query('UPDATE documents SET version = $2, modified_at = $3, modified_by = $4 WHERE id = $1', [req.doc, version, now, actor.userName]);
    const fileList = (
      await tx.query<{ sha256: string; file_name: string; file_type: string; page_count: number }>(
        'SELECT sha256, file_name, file_type, page_count FROM document_files WHERE document_id = $1 ORDER BY position, id',
        [req.doc],
      )
    ).rows.map((f) => ({ sha256: f.sha256, fileName: f.file_name, fileType: f.file_type, pages: f.page_count }));
    await tx.query(
      `INSERT INTO document_versions (document_id, version, fields, mvals, files, comment, created_at, created_by) VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6, $7, $8)
       ON CONFLICT (document_id, version) DO NOTHING`,
      [req.doc, version, JSON.stringify(c.fields ?? {}), JSON.stringify(c.mvals ?? {}), JSON.stringify(fileList), `Page ${req.page} rotated by ${turn} degrees`, now, actor.userName],
    );
    // The page's annotations turn with it.
    const notes = await tx.query<{ id: string } & Placed>('SELECT id, x, y, width, height, font_size AS "fontSize" FROM annotations WHERE document_id = $1 AND page = $2', [req.doc, req.page]);
    for (const a of notes.rows) {
      const p = turnPlacement(a, turn, turned.before);
      await tx.query('UPDATE annotations SET x = $2, y = $3, width = $4, height = $5, font_size = $6, updated_at = $7 WHERE id = $1', [a.id, p.x, p.y, p.width, p.height, p.fontSize, now]);
    }
    await writeAudit(tx, {
      databaseId: req.db,
      archiveId: req.archive,
      documentId: req.doc,
      category: 'updated',
      message: `Page ${req.page} rotated by ${turn} degrees`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      event: { Kind: 'page-rotated', Page: req.page, Angle: turn },
    });
    const pages = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM document_pages WHERE document_id = $1', [req.doc])).rows[0]?.n ?? 0;
    return { Version: version, Page: req.page, Rotation: turn, Pages: Number(pages) };
  });
}

// ---- Annotations ----

export interface AnnotationRow {
  id: string;
  page: number;
  kind: Annotation['Kind'];
  x: number;
  y: number;
  width: number;
  height: number;
  font_size: number;
  text: string;
  color: string;
  created_by: number | null;
  created_by_name: string | null;
  created_at: Date;
}

const COLUMNS = 'id, page, kind, x, y, width, height, font_size, text, color, created_by, created_by_name, created_at';

/** A document's annotations in page order, oldest first (export draws them in that order too). */
export async function annotationsOf(db: Queryable, docId: number): Promise<AnnotationRow[]> {
  const r = await db.query<AnnotationRow>(`SELECT ${COLUMNS} FROM annotations WHERE document_id = $1 ORDER BY page, created_at, id`, [docId]);
  return r.rows.map((a) => ({ ...a, page: Number(a.page), x: Number(a.x), y: Number(a.y), width: Number(a.width), height: Number(a.height), font_size: Number(a.font_size) }));
}

const toWire = (a: AnnotationRow, userId: number): Annotation => ({
  Id: a.id,
  Kind: a.kind,
  Page: a.page,
  X: a.x,
  Y: a.y,
  Width: a.width,
  Height: a.height,
  FontSize: a.font_size,
  Text: a.text,
  Color: a.color,
  CreatedBy: a.created_by_name,
  Mine: a.created_by === userId,
  CreatedAt: new Date(a.created_at).toISOString(),
});

export async function listAnnotations(db: Queryable, actor: Actor, ref: DocRef): Promise<DocumentAnnotations> {
  const { archive } = await loadDocument(db, actor.userId, ref.dbId, ref.archiveId, ref.docId, ref.secureId, VIEW);
  return { Permissions: archive.rights, Annotations: (await annotationsOf(db, ref.docId)).map((a) => toWire(a, actor.userId)) };
}

/** The document after the checks every annotation change needs: view and 2048, not licence 4. */
async function annotatable(db: Queryable, actor: Actor, ref: DocRef) {
  refuseReadOnly(actor, 'annotate');
  const loaded = await loadDocument(db, actor.userId, ref.dbId, ref.archiveId, ref.docId, ref.secureId, VIEW);
  if ((loaded.archive.rights & ANNOTATE) === 0) throw Errors.forbidden('You do not have permission to annotate documents of this archive');
  return loaded;
}

const notOwn = () => Errors.forbidden('Only the user who made an annotation can change or remove it');

export async function putAnnotation(store: Store, actor: Actor, ref: DocRef, id: string, input: AnnotationInput, now: Date): Promise<Annotation> {
  await annotatable(store, actor, ref);
  const pages = (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_pages WHERE document_id = $1', [ref.docId])).rows[0]?.n ?? 0;
  if (input.Page > Number(pages)) throw Errors.badRequest(`Document ${ref.docId} has no page ${input.Page}`);
  const text = input.Text ?? '';
  if (input.Kind !== 'highlight' && text.trim() === '') throw Errors.badRequest('A note or stamp needs a text');
  const color = input.Color ?? STAMP_COLOR;
  return store.transaction(async (tx) => {
    const found = (await tx.query<AnnotationRow & { document_id: number }>(`SELECT ${COLUMNS}, document_id FROM annotations WHERE id = $1 FOR UPDATE`, [id])).rows[0];
    const values = [id, ref.docId, input.Page, input.Kind, input.X, input.Y, input.Width, input.Height, input.FontSize ?? 0, text, color];
    let event;
    if (!found) {
      await tx.query(
        `INSERT INTO annotations (id, document_id, page, kind, x, y, width, height, font_size, text, color, created_by, created_by_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
        [...values, actor.userId, actor.userName, now],
      );
      event = input.Kind === 'stamp' ? { Kind: 'stamp-applied', Stamp: text, Page: input.Page } : { Kind: 'annotation-added', Page: input.Page };
    } else {
      if (Number(found.document_id) !== ref.docId) throw new ApiError(409, 'This annotation id belongs to another document');
      if (found.created_by !== actor.userId) throw notOwn();
      if (found.kind !== input.Kind) throw Errors.badRequest('An annotation keeps its kind');
      if (found.kind === 'stamp' && found.text !== text) throw Errors.badRequest("A stamp's text cannot be changed");
      await tx.query('UPDATE annotations SET page = $3, x = $5, y = $6, width = $7, height = $8, font_size = $9, text = $10, color = $11, updated_at = $12 WHERE id = $1 AND document_id = $2 AND kind = $4', [
        ...values,
        now,
      ]);
      event = { Kind: 'annotation-changed', Page: input.Page };
    }
    await writeAudit(tx, {
      databaseId: ref.dbId,
      archiveId: ref.archiveId,
      documentId: ref.docId,
      category: 'annotation',
      message: event.Kind === 'stamp-applied' ? `Stamp ${text} applied on page ${input.Page}` : event.Kind === 'annotation-added' ? `Annotation added on page ${input.Page}` : `Annotation changed on page ${input.Page}`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      event,
      details: { AnnotationId: id },
    });
    const saved = (await tx.query<AnnotationRow>(`SELECT ${COLUMNS} FROM annotations WHERE id = $1`, [id])).rows[0]!;
    return toWire({ ...saved, x: Number(saved.x), y: Number(saved.y), width: Number(saved.width), height: Number(saved.height), font_size: Number(saved.font_size) }, actor.userId);
  });
}

export async function deleteAnnotation(store: Store, actor: Actor, ref: DocRef, id: string, now: Date): Promise<{ Deleted: boolean }> {
  await annotatable(store, actor, ref);
  return store.transaction(async (tx) => {
    const found = (await tx.query<{ page: number; created_by: number | null }>('SELECT page, created_by FROM annotations WHERE id = $1 AND document_id = $2 FOR UPDATE', [id, ref.docId])).rows[0];
    // Gone already (a resend after the first was applied): nothing to do.
    if (!found) return { Deleted: false };
    if (found.created_by !== actor.userId) throw notOwn();
    await tx.query('DELETE FROM annotations WHERE id = $1', [id]);
    await writeAudit(tx, {
      databaseId: ref.dbId,
      archiveId: ref.archiveId,
      documentId: ref.docId,
      category: 'annotation',
      message: `Annotation removed from page ${found.page}`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      event: { Kind: 'annotation-deleted', Page: Number(found.page) },
      details: { AnnotationId: id },
    });
    return { Deleted: true };
  });
}

// ---- Stamps ----

/** Every stamp, sorted alphabetically (the console spec: "Stamps are listed alphabetically"). */
export async function listStamps(db: Queryable): Promise<Stamp[]> {
  const r = await db.query<{ id: number; text: string }>('SELECT id, text FROM stamps ORDER BY lower(text), text, id');
  return r.rows.map((s) => ({ Id: s.id, Text: s.text }));
}

/** Stamps are changed by an administrator of all databases only (the console spec). */
async function requireAdminAll(db: Queryable, actor: Actor) {
  const r = await db.query<{ is_admin_all: boolean }>('SELECT is_admin_all FROM users WHERE id = $1', [actor.userId]);
  if (!r.rows[0]?.is_admin_all) throw Errors.forbidden('Only an administrator of all databases can change stamps');
}

export async function addStamp(store: Store, actor: Actor, text: string): Promise<Stamp> {
  await requireAdminAll(store, actor);
  const t = text.trim();
  if (!t) throw Errors.badRequest('A stamp needs a text');
  return store.transaction(async (tx) => {
    const taken = await tx.query('SELECT 1 FROM stamps WHERE lower(text) = lower($1)', [t]);
    if (taken.rows.length) throw new ApiError(409, STAMP_EXISTS_MESSAGE, STAMP_EXISTS_KEY);
    const r = await tx.query<{ id: number }>('INSERT INTO stamps (text) VALUES ($1) RETURNING id', [t]);
    return { Id: r.rows[0]!.id, Text: t };
  });
}

export async function deleteStamp(store: Store, actor: Actor, id: number): Promise<{ Deleted: boolean }> {
  await requireAdminAll(store, actor);
  const r = await store.query('DELETE FROM stamps WHERE id = $1', [id]);
  if (r.rowCount === 0) throw Errors.notFound(`Stamp ${id} does not exist`);
  return { Deleted: true };
}
