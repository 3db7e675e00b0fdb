/**
 * Inbox reads (the archive-ops spec §3, §7; the contract: src/api/inboxes.ts): the user's inboxes
 * and one page of an inbox's files, rights enforced (inbox_permissions: 1 view, 4 edit). Merge and
 * append (services/merge.ts) find an inbox file here too. The rest of the inbox calls come later
 * (issue 11).
 */
import { INBOX_RIGHTS, type Inbox, type InboxDocument, type InboxFiles, type InboxSortColumn } from '../../src/api/inboxes.js';
import { inboxesWithRights, type InboxRow } from '../auth/permissions.js';
import type { Queryable } from '../db/store.js';
import { Errors } from '../http/errors.js';

export interface InboxFileRow {
  id: number;
  inbox_id: number;
  file_name: string;
  new_name: string | null;
  file_type: string;
  sha256: string;
  size: number;
  page_count: number;
  date_created: Date;
  date_modified: Date;
}

const FILE_COLUMNS = 'id, inbox_id, file_name, new_name, file_type, sha256, size, page_count, date_created, date_modified';
const SORT_SQL: Record<InboxSortColumn, string> = {
  FileName: 'lower(file_name)',
  FileType: 'lower(file_type)',
  DateCreated: 'date_created',
  DateModified: 'date_modified',
};

const fileRow = (f: InboxFileRow): InboxFileRow => ({ ...f, id: Number(f.id), inbox_id: Number(f.inbox_id), size: Number(f.size), page_count: Number(f.page_count) });

/** The inboxes the user may view, with their file counts. */
export async function listInboxes(db: Queryable, userId: number): Promise<Inbox[]> {
  const visible = (await inboxesWithRights(db, userId)).filter((i) => (i.rights & INBOX_RIGHTS.view) !== 0);
  if (visible.length === 0) return [];
  const counts = await db.query<{ inbox_id: number; n: number }>(
    'SELECT inbox_id, count(*)::int AS n FROM inbox_files WHERE inbox_id IN (SELECT jsonb_array_elements_text($1::jsonb)::int) GROUP BY inbox_id',
    // A JSON list: array parameters do not pass the PGlite worker's message boundary.
    [JSON.stringify(visible.map((i) => i.id))],
  );
  const n = new Map(counts.rows.map((c) => [Number(c.inbox_id), Number(c.n)]));
  return visible.map((i) => ({ Id: i.id, Name: i.name, Count: n.get(i.id) ?? 0, Permissions: i.rights, DatabaseId: i.database_id }));
}

/** The inbox with the user's rights; 404 unknown, 403 without view (or without `need`). */
export async function inboxWithRights(db: Queryable, userId: number, inboxId: number, need: number = INBOX_RIGHTS.view): Promise<InboxRow> {
  const inbox = (await inboxesWithRights(db, userId)).find((i) => i.id === inboxId);
  if (!inbox) throw Errors.notFound(`Inbox ${inboxId} does not exist`);
  if ((inbox.rights & INBOX_RIGHTS.view) === 0) throw Errors.forbidden(`You do not have permission to view inbox ${inbox.name}`);
  if ((inbox.rights & need) !== need) throw Errors.forbidden(`You do not have permission to change inbox ${inbox.name}`);
  return inbox;
}

export function inboxDocument(f: InboxFileRow, rights: number): InboxDocument {
  return {
    FileName: f.file_name,
    NewName: f.new_name,
    FileType: f.file_type,
    DateCreated: f.date_created.toISOString(),
    DateModified: f.date_modified.toISOString(),
    Fields: [],
    Permissions: rights,
    InboxId: f.inbox_id,
    Path: f.file_name,
    PageCount: f.page_count,
  };
}

export interface InboxPage {
  pageNumber: number;
  numberOfDocuments: number;
  sort: { column: InboxSortColumn; desc: boolean }[];
}

/** One page of the inbox's files (the caller checked the rights). */
export async function inboxFiles(db: Queryable, inbox: InboxRow, page: InboxPage): Promise<InboxFiles> {
  const order = [...page.sort.map((s) => `${SORT_SQL[s.column]} ${s.desc ? 'DESC' : 'ASC'}`), 'id ASC'].join(', ');
  const [count, rows] = await Promise.all([
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbox_files WHERE inbox_id = $1', [inbox.id]),
    db.query<InboxFileRow>(`SELECT ${FILE_COLUMNS} FROM inbox_files WHERE inbox_id = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
      inbox.id,
      page.numberOfDocuments,
      (page.pageNumber - 1) * page.numberOfDocuments,
    ]),
  ]);
  return { Count: Number(count.rows[0]?.n ?? 0), Files: rows.rows.map((f) => inboxDocument(fileRow(f), inbox.rights)), Permissions: inbox.rights };
}

/** One file of an inbox by its Path (404 when it is not there). `lock`: FOR UPDATE, inside a transaction. */
export async function inboxFile(db: Queryable, inboxId: number, path: string, lock = false): Promise<InboxFileRow> {
  const r = await db.query<InboxFileRow>(`SELECT ${FILE_COLUMNS} FROM inbox_files WHERE inbox_id = $1 AND file_name = $2${lock ? ' FOR UPDATE' : ''}`, [inboxId, path]);
  const f = r.rows[0];
  if (!f) throw Errors.notFound(`File ${path} does not exist in inbox ${inboxId}`);
  return fileRow(f);
}
