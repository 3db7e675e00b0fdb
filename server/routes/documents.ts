/**
 * Document thumbnails and histories (the user-app spec §7; the archive-ops spec §3, §7):
 *   GET api/dbs/{db}/archives/{a}/documents/{id}/thumb?SecureId=&Height=&Width=&Page= -> image/png
 *   GET api/dbs/{db}/archives/{a}/documents/{id}/audit?SecureId=                      -> DocumentHistory
 *   GET api/dbs/{db}/archives/{a}/audit?Page=&DocLimit=                                -> ArchiveHistory
 * Thumbnails need archive bit 1 (view), histories bit 512 (history). SecureId must be the
 * document's Hash. A missing page or file: 404 { Key: 'FILE_DOES_NOT_EXIST' }. A document's history
 * is read by its id (unique across archives), so a moved document keeps its earlier entries, which
 * stay filed under the archive they happened in (services/documents.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { ArchiveHistory, DocumentHistory, HISTORY_CATEGORIES, type HistoryCategory } from '../../src/api/audit.js';
import { HISTORY_PAGE_SIZE } from '../../src/api/constants.js';
import { historyEventOf } from '../audit/history-event.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { ApiError, Errors } from '../http/errors.js';
import { thumbAtSize, type Thumbnailer } from '../thumbs/thumbnailer.js';
import { archiveWithRights, loadDocument, requireDatabase } from '../services/documents.js';

const { view: VIEW, history: HISTORY } = ARCHIVE_PERMISSIONS;
const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DocParams = z.object({ db: Id, archiveId: Id, docId: Id });
const optionalInt = (min: number, max: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.coerce.number().int().min(min).max(max).optional());
const ThumbQuery = z.looseObject({
  SecureId: z.string().min(1),
  // Sizes above the cap are clamped to THUMB_MAX; 0 or less is not a size.
  Height: optionalInt(1, 100_000),
  Width: optionalInt(1, 100_000),
  Page: optionalInt(1, 100_000),
});
const DocAuditQuery = z.looseObject({ SecureId: z.string().min(1) });
const ArchiveAuditQuery = z.looseObject({ Page: optionalInt(1, 10_000_000), DocLimit: optionalInt(1, 1000) });

export const fileMissing = () => new ApiError(404, 'The file of this document does not exist', 'FILE_DOES_NOT_EXIST');

const category = (c: string): HistoryCategory => ((HISTORY_CATEGORIES as readonly string[]).includes(c) ? (c as HistoryCategory) : 'updated');

export function documentRoutes(app: FastifyInstance, ctx: ServerContext, thumbs: Thumbnailer) {
  const { store } = ctx;

  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/thumb', async (request, reply) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = DocParams.parse(request.params);
    const q = ThumbQuery.parse(request.query ?? {});
    await loadDocument(store, auth.userId, db, archiveId, docId, q.SecureId, VIEW);
    const page = q.Page ?? 1;
    const r = await store.query<{ page_in_file: number; sha256: string; file_type: string }>(
      `SELECT p.page_in_file, f.sha256, f.file_type FROM document_pages p JOIN document_files f ON f.id = p.file_id
        WHERE p.document_id = $1 AND p.page_no = $2`,
      [docId, page],
    );
    const row = r.rows[0];
    if (!row) throw fileMissing();
    const png = await thumbAtSize(thumbs, row.sha256, row.file_type, row.page_in_file, q);
    if (!png) throw fileMissing();
    return reply.type('image/png').header('Cache-Control', 'private, max-age=86400').send(png);
  });

  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/audit', async (request) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = DocParams.parse(request.params);
    const q = DocAuditQuery.parse(request.query ?? {});
    await loadDocument(store, auth.userId, db, archiveId, docId, q.SecureId, HISTORY, 'You do not have permission to see the history of this archive');
    const r = await store.query<{ time: Date; message: string; category: string; user_name: string | null; archive_id: number | null; database_id: number | null; document_id: number | null; old_archive_id: number | null; old_doc_id: number | null; details: unknown }>(
      `SELECT time, message, category, user_name, archive_id, database_id, document_id, old_archive_id, old_doc_id, details
         FROM audit_entries WHERE document_id = $1 ORDER BY time DESC, id DESC LIMIT 10000`,
      [docId],
    );
    return DocumentHistory.parse(
      r.rows.map((e) => ({
        Time: new Date(e.time).toISOString(),
        Message: e.message,
        Category: category(e.category),
        UserName: e.user_name,
        ArchiveID: e.archive_id,
        DatabaseID: e.database_id,
        DocumentID: e.document_id === null ? null : Number(e.document_id),
        OldArchiveID: e.old_archive_id,
        OldDocID: e.old_doc_id === null ? null : Number(e.old_doc_id),
        Event: historyEventOf(e.details),
      })),
    );
  });

  app.get('/api/dbs/:db/archives/:archiveId/audit', async (request) => {
    const auth = requireAuth(request);
    const { db, archiveId } = z.object({ db: Id, archiveId: Id }).parse(request.params);
    const q = ArchiveAuditQuery.parse(request.query ?? {});
    await requireDatabase(store, db);
    const archive = await archiveWithRights(store, db, auth.userId, archiveId);
    if ((archive.rights & HISTORY) === 0) throw Errors.forbidden('You do not have permission to see the history of this archive');
    const size = q.DocLimit ?? HISTORY_PAGE_SIZE;
    const page = q.Page ?? 1;
    const total = await store.query<{ n: number }>('SELECT count(*) AS n FROM audit_entries WHERE archive_id = $1', [archiveId]);
    const r = await store.query<{ time: Date; message: string; category: string; user_name: string | null; document_id: number | null; details: unknown }>(
      `SELECT time, message, category, user_name, document_id, details FROM audit_entries WHERE archive_id = $1
        ORDER BY time DESC, id DESC LIMIT $2 OFFSET $3`,
      [archiveId, size, (page - 1) * size],
    );
    return ArchiveHistory.parse({
      Total: Number(total.rows[0]?.n ?? 0),
      Items: r.rows.map((e) => ({
        Date: new Date(e.time).toISOString(),
        Message: e.message,
        Category: category(e.category),
        UserName: e.user_name,
        DocumentID: e.document_id === null ? null : Number(e.document_id),
        Event: historyEventOf(e.details),
      })),
    });
  });
}
