/**
 * Viewer sessions (the user-app spec §3, §7 POST session; contract src/api/viewer.ts): the documents of a
 * result page, stored as the request's JSON in viewer_sessions.payload (001_schema.sql) for the user
 * who made it, so the viewer's
 * next/previous document works in a new tab and after a reload, on any server process. Rights are
 * checked when the session is made (every document, at once) and again when it is read, since they
 * may have changed in between. Sessions older than SESSION_KEEP_MS are removed when one is made.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import type { ViewerDocumentInfo, ViewerSession, ViewerSessionRequest } from '../../src/api/viewer.js';
import { archivesWithRights } from '../auth/permissions.js';
import { intArray, type Queryable } from '../db/store.js';
import { Errors } from '../http/errors.js';
import { requireDatabase } from './documents.js';

const VIEW = ARCHIVE_PERMISSIONS.view;
export const SESSION_KEEP_MS = 7 * 86_400_000;

interface DocInfoRow {
  id: number;
  archive_id: number;
  secure_hash: string;
  file_name: string | null;
  file_type: string | null;
  files: number;
  first_type: string | null;
  pages: number;
  title: string | null;
  /** The files' contents and the pages' rotations, in order: what the pages look like. */
  shape: string | null;
}

/**
 * The version of a document's pages: changes when a file, the page order or a rotation changes
 * (a new file version, a burst, a rotate), not when index values do. A device keeping the document
 * offline compares it to fetch the pages again (src/sync/pins.ts).
 */
export const pagesVersion = (shape: string | null, pages: number): string =>
  createHash('sha256').update(`${pages}|${shape ?? ''}`).digest('hex').slice(0, 20);

/** The live documents among ids, with what the viewer shows of them. */
async function documentInfo(db: Queryable, ids: number[]): Promise<Map<number, DocInfoRow>> {
  const r = await db.query<DocInfoRow>(
    `SELECT d.id, d.archive_id, d.secure_hash, d.file_name, d.file_type,
            (SELECT count(*) FROM document_files f WHERE f.document_id = d.id)::int AS files,
            (SELECT f.file_type FROM document_files f WHERE f.document_id = d.id ORDER BY f.position, f.id LIMIT 1) AS first_type,
            (SELECT count(*) FROM document_pages p WHERE p.document_id = d.id)::int AS pages,
            -- What names the document to a person, as the grid does (src/fields/document-label.ts):
            -- its first character field with a value, in its archive's field order.
            (SELECT btrim(d.fields->>f.id::text) FROM archive_fields af JOIN fields f ON f.id = af.field_id
              WHERE af.archive_id = d.archive_id AND f.type = 1 AND f.parent_id IS NULL AND NOT f.multi_value
                AND btrim(coalesce(d.fields->>f.id::text, '')) <> ''
              ORDER BY af.position, f.id LIMIT 1) AS title,
            (SELECT string_agg(coalesce(f.sha256, '') || ':' || p.page_in_file || ':' || p.rotation, ',' ORDER BY p.page_no)
               FROM document_pages p LEFT JOIN document_files f ON f.id = p.file_id WHERE p.document_id = d.id) AS shape
       FROM documents d WHERE d.id = ANY($1::bigint[]) AND NOT d.deleted`,
    [intArray(ids)],
  );
  return new Map(r.rows.map((row) => [Number(row.id), { ...row, id: Number(row.id), files: Number(row.files), pages: Number(row.pages) }]));
}

/** Viewable archives of the database for the user (view bit). */
async function viewable(db: Queryable, dbId: number, userId: number): Promise<{ all: Set<number>; view: Set<number> }> {
  const archives = await archivesWithRights(db, dbId, userId);
  return { all: new Set(archives.map((a) => a.id)), view: new Set(archives.filter((a) => (a.rights & VIEW) !== 0).map((a) => a.id)) };
}

export async function createViewerSession(db: Queryable, userId: number, req: ViewerSessionRequest, now: Date): Promise<string> {
  await requireDatabase(db, req.Database);
  const rights = await viewable(db, req.Database, userId);
  const docs = await documentInfo(db, req.Documents.map((d) => d.Id));
  for (const d of req.Documents) {
    if (!rights.all.has(d.Archive)) throw Errors.notFound(`Archive ${d.Archive} does not exist`);
    if (!rights.view.has(d.Archive)) throw Errors.forbidden('You do not have permission to view this archive');
    const row = docs.get(d.Id);
    if (!row || row.archive_id !== d.Archive) throw Errors.notFound(`Document ${d.Id} does not exist in archive ${d.Archive}`);
    if (row.secure_hash !== d.Hash) throw Errors.forbidden('The secure id does not match this document');
  }
  await db.query('DELETE FROM viewer_sessions WHERE created_at < $1', [new Date(now.getTime() - SESSION_KEEP_MS)]);
  const id = randomUUID();
  await db.query(
    'INSERT INTO viewer_sessions (id, user_id, payload, created_at) VALUES ($1, $2, $3::jsonb, $4)',
    [id, userId, JSON.stringify(req), now],
  );
  return id;
}

export async function getViewerSession(db: Queryable, userId: number, id: string): Promise<ViewerSession> {
  const r = await db.query<{ payload: ViewerSessionRequest | string }>('SELECT payload FROM viewer_sessions WHERE id = $1 AND user_id = $2', [id, userId]);
  const row = r.rows[0];
  if (!row) throw Errors.notFound('This viewer session does not exist');
  const req = typeof row.payload === 'string' ? (JSON.parse(row.payload) as ViewerSessionRequest) : row.payload;
  const stored = req.Documents;
  const rights = await viewable(db, req.Database, userId);
  const docs = await documentInfo(db, stored.map((d) => d.Id));
  const Documents: ViewerDocumentInfo[] = stored.map((d) => {
    const info = docs.get(d.Id);
    const base = { Archive: d.Archive, Id: d.Id, Hash: d.Hash, ContentSearchTerms: d.ContentSearchTerms ?? null };
    if (!info || info.archive_id !== d.Archive || info.secure_hash !== d.Hash || !rights.view.has(d.Archive)) return { ...base, Available: false };
    // A document of several files is served as one PDF (services/document-file.ts).
    const type = info.files > 1 ? 'PDF' : (info.first_type ?? info.file_type);
    return { ...base, Available: true, FileName: info.file_name, Title: info.title, FileType: type, Pages: info.pages, Version: pagesVersion(info.shape, info.pages) };
  });
  return { Id: id, Database: req.Database, SearchId: req.SearchId ?? null, SearchCriteria: req.SearchCriteria ?? null, Documents };
}
