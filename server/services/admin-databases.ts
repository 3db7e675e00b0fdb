/**
 * Databases of the administration console (src/api/admin-databases.ts): list, create, edit, delete
 * and the SQL index rebuild, over the databases table (migration 001). Names are filtered as
 * the console spec §5 says; a second database needs the MDB feature licence (features table).
 */
import { filterDatabaseName, MDB_FEATURE, type AdminDatabase, type DatabaseEdit } from '../../src/api/admin-databases.js';
import { adminDatabaseIds } from '../auth/permissions.js';
import { intArray, type Queryable, type Store } from '../db/store.js';
import { ApiError, Errors } from '../http/errors.js';

interface DatabaseRow {
  id: number;
  name: string;
  catalog: string | null;
  server: string | null;
  auth_type: number;
}

const COLUMNS = 'id, name, catalog, server, auth_type';

const toWire = (r: DatabaseRow): AdminDatabase => ({ Id: Number(r.id), Name: r.name, Catalog: r.catalog, Server: r.server, AuthType: Number(r.auth_type) });

export const DATABASE_NAME_REQUIRED = 'DATABASE_NAME_REQUIRED';
export const MULTIPLE_DATABASES_NOT_LICENSED = 'MULTIPLE_DATABASES_NOT_LICENSED';
export const DATABASE_NOT_EMPTY = 'DATABASE_NOT_EMPTY';

/** The name as stored: filtered (§5) and not empty (400 DATABASE_NAME_REQUIRED). */
export function databaseName(raw: string): string {
  const name = filterDatabaseName(raw);
  if (!name) throw new ApiError(400, 'A database needs a name (letters, digits and ` ! ^ ( ) + = { } [ ; $ , . _ -)', DATABASE_NAME_REQUIRED);
  return name;
}

/** The databases the user administers (every one for an administrator of all databases). */
export async function listAdminDatabases(db: Queryable, userId: number, isAdminAll: boolean): Promise<AdminDatabase[]> {
  const ids = isAdminAll ? null : await adminDatabaseIds(db, userId);
  const r = await db.query<DatabaseRow>(`SELECT ${COLUMNS} FROM databases WHERE $1::int[] IS NULL OR id = ANY($1::int[]) ORDER BY position, id`, [ids && intArray(ids)]);
  return r.rows.map(toWire);
}

export async function getAdminDatabase(db: Queryable, id: number): Promise<AdminDatabase> {
  const r = await db.query<DatabaseRow>(`SELECT ${COLUMNS} FROM databases WHERE id = $1`, [id]);
  if (!r.rows[0]) throw Errors.notFound(`Database ${id} does not exist`);
  return toWire(r.rows[0]);
}

async function mdbLicensed(db: Queryable): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM features WHERE code = $1 AND enabled', [MDB_FEATURE]);
  return r.rowCount > 0;
}

export async function createDatabase(store: Store, creatorId: number, edit: DatabaseEdit): Promise<AdminDatabase> {
  const name = databaseName(edit.Name);
  return store.transaction(async (tx) => {
    // One creation at a time, so two at once cannot both be "the first database".
    await tx.query('LOCK TABLE databases IN SHARE ROW EXCLUSIVE MODE');
    const n = Number((await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM databases')).rows[0]?.n ?? 0);
    if (n >= 1 && !(await mdbLicensed(tx))) {
      throw new ApiError(403, 'More than one database needs the multiple databases (MDB) feature licence', MULTIPLE_DATABASES_NOT_LICENSED);
    }
    const r = await tx.query<DatabaseRow>(
      `INSERT INTO databases (name, catalog, server, auth_type, position)
       VALUES ($1, $2, $3, $4, (SELECT coalesce(max(position), 0) + 1 FROM databases)) RETURNING ${COLUMNS}`,
      [name, edit.Catalog ?? null, edit.Server ?? null, edit.AuthType ?? 0],
    );
    const created = r.rows[0]!;
    await tx.query('INSERT INTO database_admins (database_id, user_id) VALUES ($1, $2)', [created.id, creatorId]);
    return toWire(created);
  });
}

export async function updateDatabase(db: Queryable, id: number, edit: DatabaseEdit): Promise<AdminDatabase> {
  const name = databaseName(edit.Name);
  const r = await db.query<DatabaseRow>(
    `UPDATE databases SET name = $2, catalog = coalesce($3, catalog), server = coalesce($4, server), auth_type = coalesce($5, auth_type)
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, name, edit.Catalog ?? null, edit.Server ?? null, edit.AuthType ?? null],
  );
  if (!r.rows[0]) throw Errors.notFound(`Database ${id} does not exist`);
  return toWire(r.rows[0]);
}

/**
 * Removes a database. Without drop a database that still has archives is refused (409
 * DATABASE_NOT_EMPTY); with drop its archives, documents, fields, lists and searches go with it.
 */
export async function deleteDatabase(store: Store, id: number, drop: boolean): Promise<{ Id: number; Dropped: boolean }> {
  return store.transaction(async (tx) => {
    const exists = await tx.query('SELECT 1 FROM databases WHERE id = $1 FOR UPDATE', [id]);
    if (exists.rowCount === 0) throw Errors.notFound(`Database ${id} does not exist`);
    const archives = Number((await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM archives WHERE database_id = $1', [id])).rows[0]?.n ?? 0);
    if (archives > 0 && !drop) throw new ApiError(409, `The database still has ${archives} archives: delete it with drop to remove them too`, DATABASE_NOT_EMPTY);
    await tx.query('DELETE FROM databases WHERE id = $1', [id]);
    return { Id: id, Dropped: drop };
  });
}

/** The tables whose indexes the rebuild renews (the documents' and the catalogue's). */
const REBUILT_TABLES = ['documents', 'document_pages', 'document_versions', 'archives', 'archive_fields', 'fields', 'lists', 'list_values', 'dynamic_list_rows', 'searches', 'search_archives'];

/**
 * GET admin/databases/{id}?rebuild=true: REINDEX and ANALYZE the tables that exist (the data of
 * every database shares them; a rebuild renews their indexes and the planner's statistics).
 */
export async function rebuildIndexes(db: Queryable): Promise<void> {
  const r = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY($1::text[])`,
    [`{${REBUILT_TABLES.join(',')}}`],
  );
  for (const { name } of r.rows) {
    await db.query(`REINDEX TABLE ${name}`);
    await db.query(`ANALYZE ${name}`);
  }
}
