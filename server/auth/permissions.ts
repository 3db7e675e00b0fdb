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
