/**
 * Data-exchange (DXC) sources of an archive and the connection test (the console spec §3, §5, §7;
 * contract src/api/admin-dxc.ts), stored in dxc_sources (mapping jsonb [{ archiveField, mappedField,
 * required }]).
 *   GET/POST api/admin/databases/{db}/archives/{a}/dxc, GET/PUT/DELETE .../dxc/{dxcId}
 *   PUT api/admin/DXTables { ConnectionString }
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { DXC_TABLES_MAX, DXC_TEST_TIMEOUT_MS, DxcSource, DxcSourceInput, DxcSourceList, DxcTestRequest, DxcTestResult, isTestableConnection } from '../../../src/api/admin-dxc.js';
import { DbError, type Queryable } from '../../db/store.js';
import type { ServerContext } from '../../http/context.js';
import { ApiError, Errors } from '../../http/errors.js';
import { requireAnyDbAdmin, requireDbAdmin } from './require-admin.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const ListParams = z.object({ db: Id, archiveId: Id });
const OneParams = z.object({ db: Id, archiveId: Id, dxcId: Id });

export const DXC_NAME_EXISTS_KEY = 'DXC_SOURCE_NAME_EXISTS';
const nameExists = (name: string) => new ApiError(409, `A data-exchange source named "${name}" already exists for this archive`, DXC_NAME_EXISTS_KEY);

interface DxcRow {
  id: number;
  archive_id: number;
  name: string;
  connection_string: string | null;
  mapping: { archiveField?: unknown; mappedField?: unknown; required?: unknown }[] | null;
}

const toWire = (r: DxcRow): DxcSource =>
  DxcSource.parse({
    Id: r.id,
    ArchiveId: r.archive_id,
    Name: r.name,
    ConnectionString: r.connection_string ?? '',
    Mapping: (Array.isArray(r.mapping) ? r.mapping : [])
      .filter((m) => Number.isInteger(m.archiveField) && typeof m.mappedField === 'string' && m.mappedField.trim() !== '')
      .map((m) => ({ ArchiveField: m.archiveField as number, MappedField: String(m.mappedField).trim(), Required: m.required === true })),
  });

async function requireArchive(db: Queryable, dbId: number, archiveId: number): Promise<void> {
  const r = await db.query('SELECT 1 FROM archives WHERE id = $1 AND database_id = $2', [archiveId, dbId]);
  if (r.rowCount === 0) throw Errors.notFound(`Archive ${archiveId} does not exist`);
}

/** The body checked against the archive: unique name (§5), mapping fields of this archive, each once. */
async function checkedInput(db: Queryable, archiveId: number, body: unknown, selfId: number | null) {
  const input = DxcSourceInput.parse(body);
  const taken = await db.query('SELECT 1 FROM dxc_sources WHERE archive_id = $1 AND lower(name) = lower($2) AND id <> $3', [archiveId, input.Name, selfId ?? 0]);
  if (taken.rowCount) throw nameExists(input.Name);
  const fields = new Set((await db.query<{ field_id: number }>('SELECT field_id FROM archive_fields WHERE archive_id = $1', [archiveId])).rows.map((r) => r.field_id));
  const seen = new Set<number>();
  for (const m of input.Mapping) {
    if (!fields.has(m.ArchiveField)) throw Errors.badRequest(`Incorrect parameters: field ${m.ArchiveField} is not a field of this archive`);
    if (seen.has(m.ArchiveField)) throw Errors.badRequest(`Incorrect parameters: field ${m.ArchiveField} is mapped twice`);
    seen.add(m.ArchiveField);
  }
  const mapping = input.Mapping.map((m) => ({ archiveField: m.ArchiveField, mappedField: m.MappedField, required: m.Required }));
  return { name: input.Name, connection: input.ConnectionString.trim(), mapping: JSON.stringify(mapping) };
}

/** The unique index (archive, lower(name)) may still refuse a name another request took meanwhile. */
function uniqueViolation(e: unknown, name: string): never {
  if (e instanceof DbError && e.code === '23505') throw nameExists(name);
  throw e;
}

const SSL_MODES: Record<string, pg.ClientConfig['ssl']> = {
  disable: false,
  allow: false,
  prefer: false,
  require: { rejectUnauthorized: false },
  'no-verify': { rejectUnauthorized: false },
  'verify-ca': true,
  'verify-full': true,
};

/**
 * The connection a DXC test may make, from a postgres:// address: a network host and port, a
 * database, a user and password, and sslmode; null for anything else. The driver's own parsing is
 * not used: it also takes unix sockets (no host, or host=/path) and reads files named in the string
 * (sslcert, sslkey, sslrootcert), none of which an administrator's test has any business reaching.
 */
export function dxcClientConfig(connectionString: string): pg.ClientConfig | null {
  const s = connectionString.trim();
  if (!isTestableConnection(s)) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  // A URL's host cannot start with '/', but an escaped one would be decoded into a socket path.
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host || /[%/\\]/.test(host)) return null;
  let database: string, user: string, password: string;
  try {
    database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    user = decodeURIComponent(u.username);
    password = decodeURIComponent(u.password);
  } catch {
    return null;
  }
  if (database.includes('/')) return null;
  let ssl: pg.ClientConfig['ssl'] = false;
  for (const [name, value] of u.searchParams) {
    if (name !== 'sslmode' || !(value in SSL_MODES)) return null;
    ssl = SSL_MODES[value];
  }
  return { host, port: u.port ? Number(u.port) : 5432, ...(database ? { database } : {}), ...(user ? { user } : {}), password, ssl };
}

/** Every way of not reaching a PostgreSQL server reads the same, and takes the same time. */
const unreachable = (): DxcTestResult => ({ Success: false, Key: 'DXC_CONNECTION_UNREACHABLE', Message: '', Tables: [] });

/**
 * Tries a PostgreSQL address (dxcClientConfig): connect, list up to DXC_TABLES_MAX tables,
 * disconnect. What a PostgreSQL server itself answers (a wrong password, no such database) is passed
 * on with its words. Anything else (refused, no such host, a timeout, a port where something other
 * than PostgreSQL listens) is one answer, DXC_CONNECTION_UNREACHABLE, given when the timeout is up:
 * the test must not tell which hosts and ports of the server's network are open.
 */
export async function testConnection(connectionString: string, timeoutMs = DXC_TEST_TIMEOUT_MS): Promise<DxcTestResult> {
  const config = dxcClientConfig(connectionString);
  if (!config) return { Success: false, Key: 'DXC_CONNECTION_UNSUPPORTED', Message: '', Tables: [] };
  const started = Date.now();
  const client = new pg.Client({ ...config, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, statement_timeout: timeoutMs });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  const attempt = (async (): Promise<DxcTestResult | null> => {
    try {
      await client.connect();
      const r = await client.query<{ name: string }>(
        `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
          WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1 LIMIT ${DXC_TABLES_MAX}`,
      );
      return { Success: true, Key: 'DXC_CONNECTION_OK', Message: '', Tables: r.rows.map((x) => x.name) };
    } catch (e) {
      // A DatabaseError is an ErrorResponse of the PostgreSQL protocol: a database server answered.
      return e instanceof pg.DatabaseError ? { Success: false, Key: 'DXC_CONNECTION_FAILED', Message: e.message, Tables: [] } : null;
    }
  })();
  try {
    const result = await Promise.race([attempt, timeout]);
    if (result) return result;
    await new Promise((r) => setTimeout(r, Math.max(0, timeoutMs - (Date.now() - started))));
    return unreachable();
  } finally {
    clearTimeout(timer);
    void client.end().catch(() => undefined);
  }
}

export function adminDxcRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;
  const COLUMNS = 'id, archive_id, name, connection_string, mapping';

  app.get('/api/admin/databases/:db/archives/:archiveId/dxc', async (request) => {
    const { db, archiveId } = ListParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    await requireArchive(store, db, archiveId);
    const r = await store.query<DxcRow>(`SELECT ${COLUMNS} FROM dxc_sources WHERE archive_id = $1 ORDER BY lower(name), id`, [archiveId]);
    return DxcSourceList.parse(r.rows.map(toWire));
  });

  app.post('/api/admin/databases/:db/archives/:archiveId/dxc', async (request) => {
    const { db, archiveId } = ListParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    await requireArchive(store, db, archiveId);
    const v = await checkedInput(store, archiveId, request.body, null);
    const r = await store
      .query<DxcRow>(`INSERT INTO dxc_sources (archive_id, name, connection_string, mapping) VALUES ($1, $2, $3, $4::jsonb) RETURNING ${COLUMNS}`, [archiveId, v.name, v.connection, v.mapping])
      .catch((e: unknown) => uniqueViolation(e, v.name));
    return toWire(r.rows[0]!);
  });

  app.get('/api/admin/databases/:db/archives/:archiveId/dxc/:dxcId', async (request) => {
    const { db, archiveId, dxcId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    await requireArchive(store, db, archiveId);
    const r = await store.query<DxcRow>(`SELECT ${COLUMNS} FROM dxc_sources WHERE archive_id = $1 AND id = $2`, [archiveId, dxcId]);
    if (!r.rows[0]) throw Errors.notFound(`Data-exchange source ${dxcId} does not exist`);
    return toWire(r.rows[0]);
  });

  app.put('/api/admin/databases/:db/archives/:archiveId/dxc/:dxcId', async (request) => {
    const { db, archiveId, dxcId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    await requireArchive(store, db, archiveId);
    const v = await checkedInput(store, archiveId, request.body, dxcId);
    const r = await store
      .query<DxcRow>(`UPDATE dxc_sources SET name = $3, connection_string = $4, mapping = $5::jsonb WHERE archive_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [
        archiveId,
        dxcId,
        v.name,
        v.connection,
        v.mapping,
      ])
      .catch((e: unknown) => uniqueViolation(e, v.name));
    if (!r.rows[0]) throw Errors.notFound(`Data-exchange source ${dxcId} does not exist`);
    return toWire(r.rows[0]);
  });

  app.delete('/api/admin/databases/:db/archives/:archiveId/dxc/:dxcId', async (request, reply) => {
    const { db, archiveId, dxcId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    await requireArchive(store, db, archiveId);
    const r = await store.query('DELETE FROM dxc_sources WHERE archive_id = $1 AND id = $2', [archiveId, dxcId]);
    if (r.rowCount === 0) throw Errors.notFound(`Data-exchange source ${dxcId} does not exist`);
    return reply.code(204).send();
  });

  app.put('/api/admin/DXTables', async (request) => {
    await requireAnyDbAdmin(store, request);
    const { ConnectionString } = DxcTestRequest.parse(request.body ?? {});
    return DxcTestResult.parse(await testConnection(ConnectionString));
  });
}
