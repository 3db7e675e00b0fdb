/**
 * Archives and sub-archives of the administration console (src/api/admin-archives.ts) over the
 * archives and archive_fields tables (migration 001), which the user app reads (routes/archives.ts,
 * search/model.ts): what is saved here is what the next read there answers.
 *
 * - views jsonb is { enabled, statusField, values: [{ label, value, color }] } (as routes/archives.ts
 *   reads it for the view tabs); notifications jsonb is { to, from, subject, message }.
 * - Revision control is props bit 1; the Versions archive (props 16) is shown but not special here.
 * - A new archive takes its parent's permissions; a top-level one gives full rights to the
 *   administrator who made it and to the administrators' groups (security is set elsewhere).
 * - The notification message is HTML from the console's rich-text editor: sanitised here with
 *   sanitize-html (allow-list; a disallowed tag such as <script> is kept as escaped text, so it is
 *   stored and shown inert, never run).
 */
import sanitizeHtml from 'sanitize-html';
import { INDEX_REBUILD_JOB_KIND, viewLabelProblem, type AdminArchive, type ArchiveEdit, type ArchiveNotifications, type Notification } from '../../src/api/admin-archives.js';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS } from '../../src/api/archives.js';
import { archivesWithRights, withDescendants } from '../auth/permissions.js';
import { intArray, type Queryable, type Store } from '../db/store.js';
import { ApiError, Errors } from '../http/errors.js';
import { prepareFieldSearch } from '../search/field-counts.js';

interface ArchiveDbRow {
  id: number;
  parent_id: number | null;
  name: string;
  props: number;
  content_search: boolean;
  convert_pdf: boolean;
  base_path: string | null;
  base_path_default: boolean;
  views: { enabled?: boolean; statusField?: number | null; values?: { label?: string; value?: string; color?: string }[] } | null;
  notifications: { to?: string; from?: string; subject?: string; message?: string } | null;
}

const COLUMNS = 'id, parent_id, name, props, content_search, convert_pdf, base_path, base_path_default, views, notifications';
const FULL_RIGHTS = Object.values(ARCHIVE_PERMISSIONS).reduce((a, b) => a | b, 0);

const bad = (message: string, key: string) => new ApiError(400, message, key);

function notificationToWire(n: ArchiveDbRow['notifications']): Notification {
  return { To: n?.to ?? '', From: n?.from ?? '', Subject: n?.subject ?? '', Message: n?.message ?? '' };
}

function toWire(a: ArchiveDbRow, fields: number[]): AdminArchive {
  const v = a.views ?? {};
  return {
    Id: Number(a.id),
    Name: a.name,
    Parent: a.parent_id === null ? null : Number(a.parent_id),
    Fields: fields,
    Views: {
      Enabled: v.enabled ?? false,
      StatusField: v.statusField ?? null,
      Values: (v.values ?? []).map((x) => ({ Label: x.label ?? '', Value: x.value ?? '', Color: x.color ?? '#cccccc' })),
    },
    Notifications: notificationToWire(a.notifications),
    BasePath: { Path: a.base_path ?? '', Default: a.base_path_default },
    ContentSearch: a.content_search,
    ConvertPdf: a.convert_pdf,
    RevisionControl: (a.props & ARCHIVE_PROPS.revisionControl) !== 0 ? 1 : 0,
    IsVersions: (a.props & ARCHIVE_PROPS.versionsArchive) !== 0,
  };
}

async function fieldsOf(db: Queryable, archiveIds: number[]): Promise<Map<number, number[]>> {
  const r = await db.query<{ archive_id: number; field_id: number }>('SELECT archive_id, field_id FROM archive_fields WHERE archive_id = ANY($1::int[]) ORDER BY archive_id, position, field_id', [intArray(archiveIds)]);
  const out = new Map<number, number[]>();
  for (const x of r.rows) out.set(Number(x.archive_id), [...(out.get(Number(x.archive_id)) ?? []), Number(x.field_id)]);
  return out;
}

/** Every archive of the database, parents before children (the user app's order). */
export async function listArchives(db: Queryable, dbId: number): Promise<AdminArchive[]> {
  const order = await archivesWithRights(db, dbId, 0);
  const rows = new Map((await db.query<ArchiveDbRow>(`SELECT ${COLUMNS} FROM archives WHERE database_id = $1`, [dbId])).rows.map((r) => [Number(r.id), r]));
  const fields = await fieldsOf(db, order.map((a) => a.id));
  return order.map((a) => toWire(rows.get(a.id)!, fields.get(a.id) ?? []));
}

export async function getArchive(db: Queryable, dbId: number, archiveId: number): Promise<AdminArchive> {
  const r = await db.query<ArchiveDbRow>(`SELECT ${COLUMNS} FROM archives WHERE database_id = $1 AND id = $2`, [dbId, archiveId]);
  if (!r.rows[0]) throw Errors.notFound(`Archive ${archiveId} does not exist`);
  return toWire(r.rows[0], (await fieldsOf(db, [archiveId])).get(archiveId) ?? []);
}

/** Checks an archive's edit against the database; the values to store. */
async function checkEdit(tx: Queryable, dbId: number, archiveId: number | null, edit: ArchiveEdit) {
  const name = edit.Name.trim();
  if (!name) throw bad('An archive needs a name', 'ARCHIVE_NAME_REQUIRED');
  const fields = [...new Set(edit.Fields)];
  if (fields.length === 0) throw bad('An archive needs at least one field', 'ARCHIVE_FIELDS_REQUIRED');
  const known = await tx.query<{ id: number }>('SELECT id FROM fields WHERE database_id = $1 AND id = ANY($2::int[])', [dbId, intArray(fields)]);
  if (known.rowCount !== fields.length) {
    const ok = new Set(known.rows.map((x) => Number(x.id)));
    throw bad(`Field ${fields.find((f) => !ok.has(f))} is not a field of this database`, 'ERROR_INCORRECT_PARAMETERS');
  }
  if (edit.Parent !== null) {
    const all = await archivesWithRights(tx, dbId, 0);
    if (!all.some((a) => a.id === edit.Parent)) throw bad(`Archive ${edit.Parent} is not an archive of this database`, 'ERROR_INCORRECT_PARAMETERS');
    if (archiveId !== null && withDescendants(all, archiveId).includes(edit.Parent)) {
      throw bad('An archive cannot be moved under itself or one of its sub-archives', 'ARCHIVE_RELOCATE_CYCLE');
    }
  }
  const views = edit.Views;
  if (views) {
    const values = views.Values.map((v) => ({ label: v.Label, value: v.Value, color: v.Color.toLowerCase() }));
    for (let i = 0; i < values.length; i++) {
      const problem = viewLabelProblem(values, i);
      if (problem === 'VIEW_LABEL_REQUIRED') throw bad('Every view value needs a label', problem);
      if (problem) throw bad(`The view label '${values[i]!.label.trim()}' is used twice in this archive`, problem);
    }
    if (views.StatusField !== null && !fields.includes(views.StatusField)) throw bad('The status field must be one of the archive\'s fields', 'VIEW_STATUS_FIELD_INVALID');
  }
  const contentSearch = edit.ContentSearch;
  // §4: content search and PDF conversion exclude each other; content search wins.
  const convertPdf = contentSearch ? false : edit.ConvertPdf;
  return {
    name,
    fields,
    views: views ? { enabled: views.Enabled, statusField: views.StatusField, values: views.Values.map((v) => ({ label: v.Label.trim(), value: v.Value, color: v.Color.toLowerCase() })) } : undefined,
    contentSearch,
    convertPdf,
  };
}

async function writeFields(tx: Queryable, archiveId: number, fields: number[]) {
  await tx.query('DELETE FROM archive_fields WHERE archive_id = $1', [archiveId]);
  await tx.query('INSERT INTO archive_fields (archive_id, field_id, position) SELECT $1, f, (p - 1)::int FROM unnest($2::int[]) WITH ORDINALITY AS t(f, p)', [archiveId, intArray(fields)]);
}

export async function createArchive(store: Store, dbId: number, creatorId: number, edit: ArchiveEdit): Promise<AdminArchive> {
  const saved = await store.transaction(async (tx) => {
    const c = await checkEdit(tx, dbId, null, edit);
    const props = edit.RevisionControl === 1 ? ARCHIVE_PROPS.revisionControl : 0;
    const r = await tx.query<{ id: number }>(
      `INSERT INTO archives (database_id, parent_id, name, props, content_search, convert_pdf, base_path, base_path_default, views, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, (SELECT coalesce(max(position), 0) + 1 FROM archives WHERE database_id = $1)) RETURNING id`,
      [
        dbId,
        edit.Parent,
        c.name,
        props,
        c.contentSearch ?? false,
        c.convertPdf ?? false,
        edit.BasePath?.Path || null,
        edit.BasePath?.Default ?? true,
        JSON.stringify(c.views ?? { enabled: false, statusField: null, values: [] }),
      ],
    );
    const id = Number(r.rows[0]!.id);
    await writeFields(tx, id, c.fields);
    if (edit.Parent !== null) {
      await tx.query('INSERT INTO archive_permissions (archive_id, user_id, group_id, rights) SELECT $1, user_id, group_id, rights FROM archive_permissions WHERE archive_id = $2', [id, edit.Parent]);
    } else {
      await tx.query('INSERT INTO archive_permissions (archive_id, user_id, rights) VALUES ($1, $2, $3)', [id, creatorId, FULL_RIGHTS]);
      await tx.query('INSERT INTO archive_permissions (archive_id, group_id, rights) SELECT $1, id, $2 FROM groups WHERE is_admin_group', [id, FULL_RIGHTS]);
    }
    return getArchive(tx, dbId, id);
  });
  await prepareFieldSearch(store);
  return saved;
}

export async function updateArchive(store: Store, dbId: number, archiveId: number, edit: ArchiveEdit): Promise<AdminArchive> {
  const saved = await store.transaction(async (tx) => {
    const cur = await tx.query<{ props: number; views: unknown; content_search: boolean; convert_pdf: boolean }>(
      'SELECT props, views, content_search, convert_pdf FROM archives WHERE database_id = $1 AND id = $2 FOR UPDATE',
      [dbId, archiveId],
    );
    const row = cur.rows[0];
    if (!row) throw Errors.notFound(`Archive ${archiveId} does not exist`);
    const c = await checkEdit(tx, dbId, archiveId, edit);
    const props = edit.RevisionControl === undefined ? row.props : edit.RevisionControl === 1 ? row.props | ARCHIVE_PROPS.revisionControl : row.props & ~ARCHIVE_PROPS.revisionControl;
    const contentSearch = c.contentSearch ?? row.content_search;
    const convertPdf = contentSearch ? false : (c.convertPdf ?? row.convert_pdf);
    await tx.query(
      `UPDATE archives SET name = $3, parent_id = $4, props = $5, content_search = $6, convert_pdf = $7,
              base_path = CASE WHEN $8::boolean THEN $9 ELSE base_path END, base_path_default = CASE WHEN $8::boolean THEN $10 ELSE base_path_default END,
              views = coalesce($11::jsonb, views)
        WHERE database_id = $1 AND id = $2`,
      [dbId, archiveId, c.name, edit.Parent, props, contentSearch, convertPdf, edit.BasePath !== undefined, edit.BasePath?.Path || null, edit.BasePath?.Default ?? true, c.views ? JSON.stringify(c.views) : null],
    );
    await writeFields(tx, archiveId, c.fields);
    return getArchive(tx, dbId, archiveId);
  });
  // A field new to the archive gets its sort indexes, a new status field its counts.
  await prepareFieldSearch(store);
  return saved;
}

/** Deletes the archive with its sub-archives and their documents; the ids removed. */
export async function deleteArchive(store: Store, dbId: number, archiveId: number): Promise<{ Id: number; Deleted: number[] }> {
  return store.transaction(async (tx) => {
    const all = await archivesWithRights(tx, dbId, 0);
    if (!all.some((a) => a.id === archiveId)) throw Errors.notFound(`Archive ${archiveId} does not exist`);
    const ids = withDescendants(all, archiveId);
    await tx.query('DELETE FROM archives WHERE database_id = $1 AND id = ANY($2::int[])', [dbId, intArray(ids)]);
    return { Id: archiveId, Deleted: ids };
  });
}

/** Allow-list of the notification message's HTML; anything else is kept as escaped text. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'blockquote', 'font'],
  allowedAttributes: { a: ['href', 'title'], span: ['data-field'], font: ['color'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  disallowedTagsMode: 'escape',
};

export function sanitizeMessage(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

async function globalNotifications(db: Queryable): Promise<Notification | null> {
  const r = await db.query<{ value: ArchiveDbRow['notifications'] }>("SELECT value FROM settings WHERE key = 'notifications'");
  return r.rows[0] ? notificationToWire(r.rows[0].value) : null;
}

export async function getNotifications(db: Queryable, dbId: number, archiveId: number, includeGlobal: boolean): Promise<ArchiveNotifications> {
  const a = await getArchive(db, dbId, archiveId);
  return { ...a.Notifications, ...(includeGlobal ? { Global: await globalNotifications(db) } : {}) };
}

export async function putNotifications(db: Queryable, dbId: number, archiveId: number, n: Notification): Promise<ArchiveNotifications> {
  const stored = { to: n.To.trim(), from: n.From.trim(), subject: n.Subject, message: sanitizeMessage(n.Message) };
  const r = await db.query('UPDATE archives SET notifications = $3::jsonb WHERE database_id = $1 AND id = $2', [dbId, archiveId, JSON.stringify(stored)]);
  if (r.rowCount === 0) throw Errors.notFound(`Archive ${archiveId} does not exist`);
  return getNotifications(db, dbId, archiveId, false);
}

/**
 * The content-search index rebuild of one archive as a server job (kind index-rebuild) over its
 * documents: each document's searchable text is made again from its pages' text (the tsvector
 * column follows). docCount is how many documents one pass of the runner takes.
 */
export async function startIndexRebuild(store: Store, dbId: number, archiveId: number, ownerId: number, docCount: number, now: Date): Promise<{ JobId: number; Count: number }> {
  return store.transaction(async (tx) => {
    await getArchive(tx, dbId, archiveId);
    const n = Number((await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE archive_id = $1 AND NOT deleted', [archiveId])).rows[0]?.n ?? 0);
    const r = await tx.query<{ id: number }>(
      `INSERT INTO jobs (kind, state, total, received, owner_id, database_id, archive_id, payload, notes, created_at, updated_at, finished_at)
       VALUES ($1, CASE WHEN $2::int = 0 THEN 'done' ELSE 'queued' END, $2::int, $2::int, $3, $4, $5, $6::jsonb, '[]'::jsonb, $7, $7, CASE WHEN $2::int = 0 THEN $7::timestamptz END) RETURNING id`,
      [INDEX_REBUILD_JOB_KIND, n, ownerId, dbId, archiveId, JSON.stringify({ docCount }), now],
    );
    const id = Number(r.rows[0]!.id);
    await tx.query(
      `INSERT INTO job_items (job_id, position, archive_id, document_id, state)
       SELECT $1, (row_number() OVER (ORDER BY id) - 1)::int, $2, id, 'pending' FROM documents WHERE archive_id = $2 AND NOT deleted`,
      [id, archiveId],
    );
    return { JobId: id, Count: n };
  });
}

/** One document of an index-rebuild job (in the runner's item transaction). */
export async function reindexDocument(tx: Queryable, archiveId: number, docId: number): Promise<boolean> {
  const r = await tx.query(
    `UPDATE documents d SET content_text = coalesce(
        (SELECT string_agg(p.text, E'\\n' ORDER BY p.page_no) FROM document_pages p WHERE p.document_id = d.id AND coalesce(p.text, '') <> ''),
        d.content_text)
      WHERE d.id = $1 AND d.archive_id = $2 AND NOT d.deleted`,
    [docId, archiveId],
  );
  return r.rowCount > 0;
}
