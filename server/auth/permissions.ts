/** Permission queries shared by routes: database visibility and administrator status. */
import type { Queryable } from '../db/store.js';

const MY_GROUPS = 'SELECT group_id FROM group_members WHERE user_id = $1';

export async function visibleDatabases(db: Queryable, userId: number, isAdminAll: boolean): Promise<{ id: number; name: string }[]> {
  const r = await db.query<{ id: number; name: string }>(
    `SELECT d.id, d.name FROM databases d
      WHERE $2::boolean
         OR EXISTS (SELECT 1 FROM database_admins a WHERE a.database_id = d.id AND (a.user_id = $1 OR a.group_id IN (${MY_GROUPS})))
         OR EXISTS (SELECT 1 FROM database_permissions p WHERE p.database_id = d.id AND (p.rights & 1) <> 0 AND (p.user_id = $1 OR p.group_id IN (${MY_GROUPS})))
         OR EXISTS (SELECT 1 FROM archive_permissions p JOIN archives a ON a.id = p.archive_id
                     WHERE a.database_id = d.id AND (p.rights & 1) <> 0 AND (p.user_id = $1 OR p.group_id IN (${MY_GROUPS})))
      ORDER BY d.position, d.id`,
    [userId, isAdminAll],
  );
  return r.rows;
}

export async function adminDatabaseIds(db: Queryable, userId: number): Promise<number[]> {
  const r = await db.query<{ id: number }>(`SELECT DISTINCT database_id AS id FROM database_admins WHERE user_id = $1 OR group_id IN (${MY_GROUPS}) ORDER BY 1`, [userId]);
  return r.rows.map((x) => x.id);
}

export async function isDbAdmin(db: Queryable, userId: number, isAdminAll: boolean, dbId: number): Promise<boolean> {
  if (isAdminAll) return true;
  return (await adminDatabaseIds(db, userId)).includes(dbId);
}

export async function delegationDbIds(db: Queryable, userId: number): Promise<number[]> {
  const r = await db.query<{ id: number }>('SELECT database_id AS id FROM delegation_rights WHERE user_id = $1 ORDER BY 1', [userId]);
  return r.rows.map((x) => x.id);
}

export interface ArchiveRow {
  id: number;
  parent_id: number | null;
  name: string;
  props: number;
  folder_options: number;
  content_search: boolean;
  views: { enabled?: boolean; statusField?: number; values?: { label: string; value: string; color?: string }[] };
  position: number;
  /** The user's rights: bit-or of the user's own and their groups' archive permissions. */
  rights: number;
}

/** Every archive of a database with the user's rights on each, parents before children. */
export async function archivesWithRights(db: Queryable, dbId: number, userId: number): Promise<ArchiveRow[]> {
  const r = await db.query<ArchiveRow>(
    `SELECT a.id, a.parent_id, a.name, a.props, a.folder_options, a.content_search, a.views, a.position,
            COALESCE((SELECT bit_or(p.rights) FROM archive_permissions p
                       WHERE p.archive_id = a.id AND (p.user_id = $2 OR p.group_id IN (${MY_GROUPS.replace('$1', '$2')}))), 0)::bigint AS rights
       FROM archives a WHERE a.database_id = $1
      ORDER BY a.position, a.id`,
    [dbId, userId],
  );
  const rows = r.rows.map((a) => ({ ...a, rights: Number(a.rights) }));
  // Parents before children, keeping designer order among siblings.
  const byParent = new Map<number | null, ArchiveRow[]>();
  for (const a of rows) {
    const k = a.parent_id !== null && rows.some((p) => p.id === a.parent_id) ? a.parent_id : null;
    byParent.set(k, [...(byParent.get(k) ?? []), a]);
  }
  const out: ArchiveRow[] = [];
  const walk = (parent: number | null) => {
    for (const a of byParent.get(parent) ?? []) {
      out.push(a);
      walk(a.id);
    }
  };
  walk(null);
  return out;
}

/** The archive and all its descendants (ids). */
export function withDescendants(archives: readonly ArchiveRow[], rootId: number): number[] {
  const out = [rootId];
  for (let i = 0; i < out.length; i++) for (const a of archives) if (a.parent_id === out[i] && !out.includes(a.id)) out.push(a.id);
  return out;
}

export interface InboxRow {
  id: number;
  name: string;
  database_id: number | null;
  /** The user's rights (1 view, 4 edit): bit-or of the user's own and their groups' inbox permissions. */
  rights: number;
}

/** Every inbox with the user's rights on it (0 when none), in name order. */
export async function inboxesWithRights(db: Queryable, userId: number): Promise<InboxRow[]> {
  const r = await db.query<InboxRow>(
    `SELECT i.id, i.name, i.database_id,
            COALESCE((SELECT bit_or(p.rights) FROM inbox_permissions p
                       WHERE p.inbox_id = i.id AND (p.user_id = $1 OR p.group_id IN (${MY_GROUPS}))), 0)::bigint AS rights
       FROM inboxes i ORDER BY lower(i.name), i.id`,
    [userId],
  );
  return r.rows.map((i) => ({ ...i, id: Number(i.id), rights: Number(i.rights), database_id: i.database_id === null ? null : Number(i.database_id) }));
}
