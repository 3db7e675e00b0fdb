/** PostgreSQL backend (DATABASE_URL): a `pg` Pool with a per-connection statement timeout. */
import pg from 'pg';
import { DbError, STATEMENT_TIMEOUT_MS, assertIdent, type Queryable, type QueryResult, type Store } from './store.js';

const toNumber = (v: string) => Number(v);
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return toNumber;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function wrapError(e: unknown): Error {
  if (e instanceof Error && 'code' in e) {
    const pe = e as Error & { code?: string; detail?: string };
    return new DbError(pe.message, pe.code, pe.detail);
  }
  return e instanceof Error ? e : new Error(String(e));
}

function normaliseParam(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date || v === null || typeof v !== 'object' || Buffer.isBuffer(v)) return v;
  return JSON.stringify(v);
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      try {
        const r = await client.query({ text: sql, values: params.map(normaliseParam), types });
        return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
      } catch (e) {
        throw wrapError(e);
      }
    },
    async exec(sql: string) {
      try {
        await client.query(sql);
      } catch (e) {
        throw wrapError(e);
      }
    },
  };
}

export async function openPg(connectionString: string, statementTimeoutMs = STATEMENT_TIMEOUT_MS): Promise<Store> {
  const pool = new pg.Pool({ connectionString, max: 10, options: `-c statement_timeout=${statementTimeoutMs}` });
  pool.on('error', () => undefined); // idle client errors: the next query reports them
  const base = queryable(pool);
  await base.query('SELECT 1');
  return {
    kind: 'pg',
    hasTrgm: false,
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(queryable(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw wrapError(e);
      } finally {
        client.release();
      }
    },
    async bulkInsert(table, columns, rows) {
      if (rows.length === 0) return;
      const cols = columns.map(assertIdent).join(', ');
      const per = Math.max(1, Math.floor(30_000 / columns.length));
      for (let i = 0; i < rows.length; i += per) {
        const batch = rows.slice(i, i + per);
        const params: unknown[] = [];
        const tuples = batch.map((r) => {
          const ph = r.map((v) => {
            params.push(v);
            return `$${params.length}`;
          });
          return `(${ph.join(',')})`;
        });
        await base.query(`INSERT INTO ${assertIdent(table)} (${cols}) VALUES ${tuples.join(',')}`, params);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
