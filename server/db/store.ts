/**
 * The storage interface every part of the server uses. Two backends implement it: PGlite (the
 * default, an embedded PostgreSQL 18 running in a worker thread, data in `${dataDir}/pg`) and a
 * `pg` Pool (when DATABASE_URL is set, PostgreSQL 15 or later). Both return int8 and numeric as
 * JS numbers, timestamptz as Date and jsonb as parsed values, so callers never see the difference.
 */

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export interface Store extends Queryable {
  readonly kind: 'pglite' | 'pg';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Fast bulk load of many rows (COPY on PGlite, multi-row INSERT on pg). Values: string, number, boolean, Date, object (json), null. */
  bulkInsert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  /** Whether the pg_trgm extension could be created. */
  hasTrgm: boolean;
  /** PGlite only: the whole database as a gzipped tar, which openStore's `snapshot` starts from (tests start from a seeded one). */
  snapshot?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export class DbError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'DbError';
  }
}

/** A PostgreSQL array literal of integers: PGlite does not take JS arrays as parameters. */
export const intArray = (ids: readonly number[]): string => `{${ids.join(',')}}`;

export const STATEMENT_TIMEOUT_MS = 30_000;

/** Serialises a value as one CSV field for COPY ... (FORMAT csv). */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (v instanceof Date) s = v.toISOString();
  else if (typeof v === 'object') s = JSON.stringify(v);
  else s = String(v);
  if (s === '' || /[",\n\r]/.test(s)) return `"${s.replace(/"/g, '""')}"`;
  return s;
}

export function toCsv(rows: readonly unknown[][]): string {
  let out = '';
  for (const r of rows) out += r.map(csvField).join(',') + '\n';
  return out;
}

export function assertIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad identifier ${name}`);
  return name;
}
