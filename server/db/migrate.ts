/**
 * Migrations: server/db/migrations/NNN_name.sql, applied in name order, each in a transaction,
 * recorded in schema_migrations. A file whose first line is `-- requires: pg_trgm` is skipped
 * (not recorded, so retried next start) when the extension is not available.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Store } from './store.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export function readMigration(name: string): string {
  return readFileSync(MIGRATIONS_DIR + name, 'utf8');
}

export async function ensureTrgm(store: Store): Promise<boolean> {
  try {
    await store.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    store.hasTrgm = true;
  } catch {
    const r = await store.query<{ n: number }>("SELECT count(*) AS n FROM pg_extension WHERE extname = 'pg_trgm'").catch(() => ({ rows: [{ n: 0 }] }));
    store.hasTrgm = (r.rows[0]?.n ?? 0) > 0;
  }
  return store.hasTrgm;
}

export async function migrate(store: Store): Promise<string[]> {
  await ensureTrgm(store);
  await store.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied = new Set((await store.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const done: string[] = [];
  for (const f of files) {
    if (applied.has(f)) continue;
    const sql = readMigration(f);
    if (/^--\s*requires:\s*pg_trgm/m.test(sql) && !store.hasTrgm) continue;
    await store.transaction(async (tx) => {
      // Several server processes may start at once against one PostgreSQL.
      await tx.query('SELECT pg_advisory_xact_lock(727274)');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [f]);
      if (again.rowCount > 0) return;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
    });
    done.push(f);
  }
  return done;
}

/** Index names created by 002/003, dropped around a bulk load and re-created after it. */
const DOC_INDEXES = ['documents_hash_uq', 'documents_archive_idx', 'documents_fields_gin', 'documents_tsv_gin', 'document_files_doc_idx', 'documents_fields_trgm', 'audit_doc_idx', 'audit_time_idx', 'audit_archive_time_idx', 'audit_document_idx', 'document_terms_rank'];

/** The audit indexes of 001/004 and the content-search hits index of 018, dropped with the document indexes around a bulk load. */
const LOAD_INDEXES = `
CREATE INDEX IF NOT EXISTS audit_doc_idx ON audit_entries (archive_id, document_id, time);
CREATE INDEX IF NOT EXISTS audit_time_idx ON audit_entries (archive_id, time);
CREATE INDEX IF NOT EXISTS audit_archive_time_idx ON audit_entries (archive_id, time DESC, id DESC);
CREATE INDEX IF NOT EXISTS audit_document_idx ON audit_entries (document_id, time);
CREATE INDEX IF NOT EXISTS document_terms_rank ON document_terms (term, hits DESC, document_id) INCLUDE (archive_id);`;

export async function dropDocumentIndexes(store: Store): Promise<void> {
  for (const name of DOC_INDEXES) await store.exec(`DROP INDEX IF EXISTS ${name}`);
}

export async function createDocumentIndexes(store: Store): Promise<void> {
  await store.exec(readMigration('002_document_indexes.sql'));
  if (store.hasTrgm) await store.exec(readMigration('003_trgm.sql'));
  await store.exec(LOAD_INDEXES);
  await createFieldIndexes(store);
}

/**
 * The sort indexes of every scalar field that archives use (sort_index_statements, 009), those still
 * missing, one statement each; ANALYZE after building any, so the planner knows their values.
 * Returns how many were built.
 */
export async function createFieldIndexes(store: Store): Promise<number> {
  const r = await store.query<{ sql: string }>('SELECT sort_index_statements() AS sql');
  for (const { sql } of r.rows) await store.exec(sql);
  if (r.rows.length) await store.exec('ANALYZE documents');
  return r.rows.length;
}
