/**
 * The documents' data version (migration 006): a number the database raises on every committed
 * change of the documents table, whoever makes it (any route, a job, the seed, another server
 * process on the same PostgreSQL). The count caches (search/run.ts, routes/archives.ts) keep a
 * count under the version it was computed at, so a write makes every older count unreachable
 * without any route having to remember to clear a cache.
 *
 * Read the version BEFORE the count it labels: the count's query then sees at least the data of
 * that version, so a count is never filed under a version newer than its data.
 */
import type { Queryable } from '../db/store.js';

async function readVersion(db: Queryable, table: 'data_version' | 'catalogue_version'): Promise<string> {
  const r = await db.query<{ version: number | string }>(`SELECT version FROM ${table}`);
  return String(r.rows[0]?.version ?? 0);
}

export const dataVersion = (db: Queryable): Promise<string> => readVersion(db, 'data_version');

/** The catalogue's version (migration 017; services/catalogue-version.ts), raised the same way by its tables. */
export const catalogueVersion = (db: Queryable): Promise<string> => readVersion(db, 'catalogue_version');
