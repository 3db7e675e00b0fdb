/**
 * Burst (the archive-ops spec §4, §5, §7; the contract: src/api/burst.ts): chosen pages of one PDF or
 * TIFF document copied into a new import document, which the user then indexes into an archive; on
 * request the burst pages then leave the source (a new version of it).
 *
 * What is kept where: the import document is a finished upload of the caller (an `uploads` row with
 * purpose 'burst', state 'done'), so it lives beside the other staged files and no table is added:
 * its bytes are a content-addressed blob (files/file-store.ts), `file_name` the name the new document's
 * file takes, `target` the source (DatabaseID, ArchiveID, DocID, the source's page count then and the
 * pages taken), `result` its page count. Indexing it makes the document (services/new-document.ts,
 * the same checks as an inbox file's send to an archive) and removes the row. A row never indexed
 * stays until the user drops it (DELETE) or the hourly purge removes it after UPLOAD_KEEP_MS
 * (services/upload.ts purgeUploads); its blob stays, as every unreferenced blob does.
 *
 * PDF pages are copied with pdf-lib (pagesToPdf: copyPages, text and vectors kept); TIFF pages go
 * through sharp one by one (a bilevel page as CCITT G4, others LZW) and are joined into one TIFF. The
 * page's rotation is applied to the import document (it leaves the source's page rows); the source
 * keeps its rotations when it loses pages.
 */
import { randomUUID } from 'node:crypto';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS } from '../../src/api/archives.js';
import { BURST_KEYS, BURST_MAX_PAGES, burstPages, burstRefusal, isBurstable, type BurstAnswer, type BurstIndexBody, type BurstIndexed } from '../../src/api/burst.js';
import type { FieldDataInvalid } from '../../src/api/documents.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { decoding, imagePage } from '../files/page-budget.js';
import { ApiError, Errors } from '../http/errors.js';
import { archiveFields } from '../search/model.js';
import { writeAudit } from './audit.js';
import { refuseReadOnly } from './bulk-update.js';
import { safeBaseName } from './document-file.js';
import { checkedOut, loadDocument, type Actor } from './documents.js';
import { DEFAULT_TIFF_DPI, pagesOf, pagesToPdf, quarterTurns, replaceDocumentFile, type PageRow } from './merge.js';
import { g4Page, joinTiffs } from './export-convert.js';
import { archiveToAddTo, checkNewValues, insertDocument } from './new-document.js';

export interface BurstDeps {
  store: Store;
  files: FileStore;
  now: Date;
}

export interface BurstRequest {
  dbId: number;
  archiveId: number;
  docId: number;
  secureId: string;
  pages: number[];
  fileName?: string;
  deletePages: boolean;
}

interface BurstTarget {
  DatabaseID: number;
  ArchiveID: number;
  DocID: number;
  /** The source's pages when it was burst: a source changed since is not cut (409). */
  SourcePages: number;
  Pages: number[];
  /** The pages' recognised text, in order (PDF text; null where a page has none): the new document's, for content search. */
  Texts?: (string | null)[];
}

interface ImportDocRow {
  id: string;
  file_name: string;
  file_type: string;
  sha256: string;
  size: number;
  target: BurstTarget;
  result: { Pages: number };
}

const refusal = (key: string, message: string) => new ApiError(400, message, key);
const MESSAGES: Record<string, string> = {
  [BURST_KEYS.noThumbnail]: 'No page is selected to burst',
  [BURST_KEYS.edoc]: 'Only TIFF and PDF documents can be burst',
  [BURST_KEYS.multipleDocs]: 'Only one document can be burst at a time',
  [BURST_KEYS.removeAll]: 'Removing the burst pages would leave the document with no pages',
};

/** The type the pages make: PDF when any is a PDF page (image pages are drawn into it), else TIF; null when one cannot be burst. */
function outputType(pages: readonly PageRow[]): 'PDF' | 'TIF' | null {
  if (pages.some((p) => !p.sha256 || !isBurstable(p.file_type))) return null;
  return pages.some((p) => (p.file_type ?? '').toUpperCase() === 'PDF') ? 'PDF' : 'TIF';
}

/**
 * A source's pages as one file of its kind: a PDF of copied pages, or a multi-page TIFF. A page that
 * cannot be read or is over the page budget refuses the burst (422, files/page-budget.ts).
 */
async function fileOfPages(files: FileStore, pages: readonly PageRow[], type: 'PDF' | 'TIF', rotate: boolean): Promise<Buffer> {
  if (type === 'PDF') return Buffer.from(await pagesToPdf(files, [...pages], { rotate }));
  const parts: Buffer[] = [];
  const blobs = new Map<string, Buffer>();
  for (const p of pages) {
    let bytes = blobs.get(p.sha256!);
    if (!bytes) {
      bytes = await files.get(p.sha256!);
      blobs.set(p.sha256!, bytes);
    }
    const page = rotate ? p : { ...p, rotation: 0 };
    const source = bytes;
    parts.push(
      await decoding(`Page ${p.page_no} of document ${p.document_id}`, async () => {
        const image = await imagePage(source, p.page_in_file, () => Errors.badRequest(`Page ${p.page_no} of document ${p.document_id} is missing from its file`));
        const { meta } = image;
        if (meta.bitsPerSample === 1) return g4Page(source, page);
        const perMm = (meta.density && meta.density > 72 ? meta.density : DEFAULT_TIFF_DPI) / 25.4;
        return image.image().rotate(quarterTurns(page.rotation)).tiff({ compression: 'lzw', xres: perMm, yres: perMm, resolutionUnit: 'inch' }).toBuffer();
      }),
    );
  }
  return joinTiffs(parts);
}

/** '3, 5-7' for the history's sentence. */
export function pagesWords(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    out.push(j === i ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** The source for a burst: view and add (2) on its archive, its Hash, and not the read-only licence. */
async function burstSource(db: Queryable, actor: Actor, r: Pick<BurstRequest, 'dbId' | 'archiveId' | 'docId' | 'secureId'>) {
  refuseReadOnly(actor, 'burst');
  const found = await loadDocument(db, actor.userId, r.dbId, r.archiveId, r.docId, r.secureId, ARCHIVE_PERMISSIONS.view);
  if ((found.archive.rights & ARCHIVE_PERMISSIONS.add) === 0) throw Errors.forbidden(`You do not have permission to add documents to archive ${found.archive.name}`);
  return found;
}

/** GET files?action=burst: the import document of the chosen pages; see the contract. */
export async function burstDocument(deps: BurstDeps, actor: Actor, r: BurstRequest): Promise<BurstAnswer> {
  const { store, files, now } = deps;
  const { archive, doc } = await burstSource(store, actor, r);
  const all = await pagesOf(store, [doc.id]);
  const info = await store.query<{ file_name: string | null; file_type: string | null }>('SELECT file_name, file_type FROM documents WHERE id = $1', [doc.id]);
  const type = all.length ? outputType(all) : null;
  const wanted = burstPages(r.pages);
  if (wanted.some((p) => p > all.length)) throw Errors.badRequest(`Incorrect parameters: RequestedPages past the document's last page (${all.length})`);
  if (wanted.length > BURST_MAX_PAGES) throw Errors.badRequest(`Incorrect parameters: at most ${BURST_MAX_PAGES} pages are burst at once`);
  const refused = burstRefusal({ documents: 1, fileType: type ?? info.rows[0]?.file_type, pages: wanted, total: all.length, deletePages: r.deletePages }) ?? (type ? null : BURST_KEYS.edoc);
  if (refused) throw refusal(refused, MESSAGES[refused]!);
  if (r.deletePages) await checkCanCut(store, actor, r.dbId, archive.id, doc.id);

  const chosen = wanted.map((n) => all[n - 1]!);
  const bytes = await fileOfPages(files, chosen, type!, true);
  const put = await files.put(bytes);
  const ext = type === 'PDF' ? 'pdf' : 'tif';
  const stem = safeBaseName((r.fileName ?? info.rows[0]?.file_name ?? `document-${doc.id}`).replace(/\.[^./\\]*$/, '')) || `document-${doc.id}`;
  const fileName = `${stem} (${pagesWords(wanted)}).${ext}`.slice(-200);
  const id = randomUUID();
  const target: BurstTarget = { DatabaseID: r.dbId, ArchiveID: archive.id, DocID: doc.id, SourcePages: all.length, Pages: wanted, Texts: chosen.map((p) => p.text) };
  await store.transaction(async (tx) => {
    await tx.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [put.sha256, put.size, type === 'PDF' ? 'application/pdf' : 'image/tiff']);
    await tx.query(
      `INSERT INTO uploads (id, owner_id, purpose, file_name, file_type, size, total_chunks, next_index, state, sha256, target, database_id, result, created_at, updated_at, finished_at)
       VALUES ($1, $2, 'burst', $3, $4, $5, 0, 0, 'done', $6, $7::jsonb, $8, $9::jsonb, $10, $10, $10)`,
      [id, actor.userId, fileName, type, put.size, put.sha256, JSON.stringify(target), r.dbId, JSON.stringify({ Pages: chosen.length }), now],
    );
  });
  return { ImportDoc: id, FileName: fileName, FileType: type!, Pages: chosen.length, RequestedPages: wanted };
}

/** Removing pages from the source: edit (1024) on its archive, and not checked out by another user. */
async function checkCanCut(db: Queryable, actor: Actor, dbId: number, archiveId: number, docId: number) {
  const r = await db.query<{ checked_out_by: number | null; props: number; rights: number }>(
    `SELECT d.checked_out_by, a.props,
            COALESCE((SELECT bit_or(p.rights) FROM archive_permissions p
                       WHERE p.archive_id = a.id AND (p.user_id = $3 OR p.group_id IN (SELECT group_id FROM group_members WHERE user_id = $3))), 0)::bigint AS rights
       FROM documents d JOIN archives a ON a.id = d.archive_id WHERE d.id = $1 AND d.archive_id = $2 AND a.database_id = $4 AND NOT d.deleted`,
    [docId, archiveId, actor.userId, dbId],
  );
  const row = r.rows[0];
  if (!row) throw Errors.notFound(`Document ${docId} does not exist in archive ${archiveId}`);
  if ((Number(row.rights) & ARCHIVE_PERMISSIONS.edit) === 0) throw Errors.forbidden('You do not have permission to change documents of this archive');
  if ((row.props & ARCHIVE_PROPS.revisionControl) !== 0 && row.checked_out_by !== null && Number(row.checked_out_by) !== actor.userId) throw checkedOut();
}

/** The caller's import document (another user's is as unknown as one that never was). */
export async function importDoc(db: Queryable, actor: Actor, name: string, lock = false): Promise<ImportDocRow> {
  const r = await db.query<ImportDocRow>(
    `SELECT id, file_name, file_type, sha256, size, target, result FROM uploads WHERE id = $1 AND owner_id = $2 AND purpose = 'burst' AND state = 'done'${lock ? ' FOR UPDATE' : ''}`,
    [name, actor.userId],
  );
  const row = r.rows[0];
  if (!row) throw new ApiError(404, `Import document ${name} does not exist`, 'FILE_DOES_NOT_EXIST');
  return { ...row, size: Number(row.size) };
}

export async function dropImportDoc(store: Store, actor: Actor, name: string): Promise<void> {
  await importDoc(store, actor, name);
  await store.query("DELETE FROM uploads WHERE id = $1 AND owner_id = $2 AND purpose = 'burst'", [name, actor.userId]);
}

export type BurstIndexOutcome = { status: 200; body: BurstIndexed } | { status: 400; body: FieldDataInvalid };

/**
 * POST files?fileName={ImportDoc}&destinationDatabaseId&destinationArchiveId&deleteBurstedPages: the
 * import document as a new document of the archive with the values given (checked as an inbox file's
 * send checks them); with deleteBurstedPages the burst pages leave the source, which gets a new
 * version holding the remaining pages.
 */
export async function indexImportDoc(
  deps: BurstDeps,
  actor: Actor,
  name: string,
  req: { dbId: number; archiveId: number; deletePages: boolean; body: BurstIndexBody },
): Promise<BurstIndexOutcome> {
  const { store, files, now } = deps;
  refuseReadOnly(actor, 'index');
  const staged = await importDoc(store, actor, name);
  const archive = await archiveToAddTo(store, req.dbId, actor, req.archiveId);
  const fields = await archiveFields(store, archive.id);
  const { values, mvals, checks } = await checkNewValues(store, fields, req.body.Fields);
  if (checks.length) return { status: 400, body: { Message: checks.map((c) => c.Message).join('; '), Key: 'ERROR_INCORRECT_PARAMETERS', Fields: checks } };

  const src = staged.target;
  // The source's remaining pages, written before the transaction (as merge does): a blob nobody
  // points at is harmless, and the transaction checks again that the source did not change.
  let cut: { pages: PageRow[]; sha256: string; type: 'PDF' | 'TIF'; fileName: string; sourceName: string } | null = null;
  if (req.deletePages) {
    if (src.Pages.length >= src.SourcePages) throw refusal(BURST_KEYS.removeAll, MESSAGES[BURST_KEYS.removeAll]!);
    await checkCanCut(store, actor, src.DatabaseID, src.ArchiveID, src.DocID);
    const all = await pagesOf(store, [src.DocID]);
    if (all.length !== src.SourcePages) throw new ApiError(409, 'The source document changed since it was burst; burst it again');
    const taken = new Set(src.Pages);
    const pages = all.filter((p) => !taken.has(p.page_no));
    const type = outputType(pages)!;
    const put = await files.put(await fileOfPages(files, pages, type, false));
    await store.query('INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [put.sha256, put.size, type === 'PDF' ? 'application/pdf' : 'image/tiff']);
    const info = await store.query<{ file_name: string | null; name: string }>('SELECT d.file_name, a.name FROM documents d JOIN archives a ON a.id = d.archive_id WHERE d.id = $1', [src.DocID]);
    const stem = (info.rows[0]?.file_name ?? `document-${src.DocID}`).replace(/\.[^./\\]*$/, '');
    cut = { pages, sha256: put.sha256, type, fileName: `${stem}.${type === 'PDF' ? 'pdf' : 'tif'}`, sourceName: info.rows[0]?.name ?? String(src.ArchiveID) };
  }

  return store.transaction(async (tx) => {
    // Once: a second index of the same import document (a double tap) finds it gone.
    await importDoc(tx, actor, name, true);
    const words = pagesWords(src.Pages);
    const { docId, hash } = await insertDocument(tx, {
      dbId: req.dbId,
      archiveId: archive.id,
      fields,
      values,
      mvals,
      file: { sha256: staged.sha256, file_name: staged.file_name, file_type: staged.file_type, page_count: staged.result.Pages },
      actor,
      now,
      comment: `Burst from document ${src.DocID} (pages ${words})`,
      audit: {
        message: `Burst from document ${src.DocID} (pages ${words})`,
        event: { Kind: 'indexed' },
        details: { BurstFrom: { ArchiveID: src.ArchiveID, DocID: src.DocID, Pages: src.Pages } },
      },
    });
    // The pages' text goes with them (content search finds the new document by it).
    const texts = src.Texts ?? [];
    if (texts.some((t) => t)) {
      await tx.query(
        `UPDATE document_pages p SET text = t.text FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS t(text, n) WHERE p.document_id = $1 AND p.page_no = t.n`,
        [docId, JSON.stringify(texts.map((t) => t ?? ''))],
      );
      await tx.query('UPDATE documents SET content_text = $2 WHERE id = $1', [docId, texts.filter((t) => t).join('\n')]);
    }
    let sourcePages: number | undefined;
    if (cut) {
      const locked = await tx.query<{ page_count: number; version: number; fields: unknown; mvals: unknown }>(
        'SELECT page_count, version, fields, mvals FROM documents WHERE id = $1 AND archive_id = $2 AND NOT deleted FOR UPDATE',
        [src.DocID, src.ArchiveID],
      );
      const row = locked.rows[0];
      if (!row) throw Errors.notFound(`Document ${src.DocID} does not exist in archive ${src.ArchiveID}`);
      if (Number(row.page_count) !== src.SourcePages) throw new ApiError(409, 'The source document changed since it was burst; burst it again');
      await replaceDocumentFile(tx, {
        docId: src.DocID,
        archiveId: src.ArchiveID,
        file: { sha256: cut.sha256, file_name: cut.fileName, file_type: cut.type, page_count: cut.pages.length },
        pages: cut.pages,
        contentText: cut.pages.map((p) => p.text ?? '').filter((t) => t !== '').join('\n') || null,
        now,
        userName: actor.userName,
      });
      // A new version of the source: the remaining pages, its values as they are now.
      const version = Number(row.version) + 1;
      await tx.query('UPDATE documents SET version = $2 WHERE id = $1', [src.DocID, version]);
      await tx.query(
        `INSERT INTO document_versions (document_id, version, fields, mvals, files, comment, created_at, created_by)
         SELECT id, $2, fields, mvals, $3::jsonb, $4, $5, $6 FROM documents WHERE id = $1`,
        [src.DocID, version, JSON.stringify([{ sha256: cut.sha256, fileName: cut.fileName, fileType: cut.type, pages: cut.pages.length }]), `Pages ${words} burst into document ${docId}`, now, actor.userName],
      );
      // One entry a page taken, last first, so each names the page as it was numbered when it went.
      await writeAudit(
        tx,
        ...[...src.Pages].reverse().map((page) => ({
          databaseId: src.DatabaseID,
          archiveId: src.ArchiveID,
          documentId: src.DocID,
          category: 'updated' as const,
          message: `Page ${page} burst into document ${docId} of archive ${archive.name}`,
          time: now,
          userName: actor.userName,
          userId: actor.userId,
          event: { Kind: 'page-deleted', Page: page },
          details: { BurstInto: { ArchiveID: archive.id, DocID: docId } },
        })),
      );
      sourcePages = cut.pages.length;
    }
    await tx.query('DELETE FROM uploads WHERE id = $1', [name]);
    return { status: 200 as const, body: { DocID: docId, ArchiveID: archive.id, Hash: hash, FileName: staged.file_name, Pages: staged.result.Pages, ...(sourcePages !== undefined ? { SourcePages: sourcePages } : {}) } };
  });
}
