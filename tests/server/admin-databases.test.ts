import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signIn, type TestServer } from './helpers';

/** DATABASES mode of the console (src/api/admin-databases.ts): rights, name filter, MDB, delete with drop, rebuild. */
let server: TestServer;
let admin: string;
let user: string;
let viewer: string;

beforeAll(async () => {
  server = await startServer();
  admin = await signIn(server, 'admin');
  user = await signIn(server, 'user');
  viewer = await signIn(server, 'viewer');
});
afterAll(() => server.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  server.app.inject({ method, url, headers: { 'auth-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('admin databases', () => {
  it('lists the databases an administrator administers', async () => {
    const r = await call(admin, 'GET', '/api/admin/databases');
    expect(r.statusCode).toBe(200);
    expect(r.json().map((d: { Name: string }) => d.Name)).toEqual(['Demo Archive', 'Records']);
    expect(r.json()[0]).toMatchObject({ Id: 1, Catalog: 'demo', Server: 'local', AuthType: 0 });
  });

  it('refuses every call to a non-administrator with 403', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/databases'],
      ['POST', '/api/admin/databases', { Name: 'Mine' }],
      ['GET', '/api/admin/databases/1'],
      ['GET', '/api/admin/databases/1?rebuild=true'],
      ['PUT', '/api/admin/databases/1', { Name: 'Taken' }],
      ['DELETE', '/api/admin/databases/1?drop=true'],
      ['GET', '/api/admin/databases/999'],
    ] as const) {
      const r = await call(user, method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    }
    expect((await call(admin, 'GET', '/api/admin/databases/1')).json().Name).toBe('Demo Archive');
  });

  it('refuses changes to a read-only licence, the rebuild GET included', async () => {
    await server.store.query('INSERT INTO database_admins (database_id, user_id) VALUES (1, 3)');
    try {
      expect((await call(viewer, 'GET', '/api/admin/databases/1')).statusCode).toBe(200);
      expect((await call(viewer, 'GET', '/api/admin/databases/1?rebuild=true')).statusCode).toBe(403);
      expect((await call(viewer, 'PUT', '/api/admin/databases/1', { Name: 'RO' })).statusCode).toBe(403);
    } finally {
      await server.store.query('DELETE FROM database_admins WHERE database_id = 1 AND user_id = 3');
    }
    expect((await call(admin, 'GET', '/api/admin/databases/1')).json().Name).toBe('Demo Archive');
  });

  it('filters names as §5 says and refuses an empty one', async () => {
    const r = await call(admin, 'POST', '/api/admin/databases', { Name: 'Sales 2026 <EU>/#1 (é)!^+={}[;$,._-`' });
    expect(r.statusCode).toBe(200);
    const created = r.json();
    expect(created.Name).toBe('Sales2026EU1(é)!^+={}[;$,._-`');
    const renamed = await call(admin, 'PUT', `/api/admin/databases/${created.Id}`, { Name: 'Sales Archive' });
    expect(renamed.json().Name).toBe('SalesArchive');
    const empty = await call(admin, 'PUT', `/api/admin/databases/${created.Id}`, { Name: ' <>/ ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().Key).toBe('DATABASE_NAME_REQUIRED');
    expect((await call(admin, 'POST', '/api/admin/databases', { Name: '' })).json().Key).toBe('DATABASE_NAME_REQUIRED');
    // The creator administers it, and the user app lists it for them.
    const dbs = await server.app.inject({ method: 'GET', url: `/api/dbs?token=${admin}` });
    expect(dbs.json().map((d: { Name: string }) => d.Name)).toContain('SalesArchive');
    expect((await call(admin, 'DELETE', `/api/admin/databases/${created.Id}`)).statusCode).toBe(200);
  });

  it('needs the MDB feature for more than one database', async () => {
    await server.store.query("UPDATE features SET enabled = false WHERE code = 'MDB'");
    try {
      const r = await call(admin, 'POST', '/api/admin/databases', { Name: 'Third' });
      expect(r.statusCode).toBe(403);
      expect(r.json().Key).toBe('MULTIPLE_DATABASES_NOT_LICENSED');
    } finally {
      await server.store.query("UPDATE features SET enabled = true WHERE code = 'MDB'");
    }
    const ok = await call(admin, 'POST', '/api/admin/databases', { Name: 'Third' });
    expect(ok.statusCode).toBe(200);
    await call(admin, 'DELETE', `/api/admin/databases/${ok.json().Id}`);
  });

  it('deletes a database with archives only with drop', async () => {
    const db = (await call(admin, 'POST', '/api/admin/databases', { Name: 'Doomed' })).json();
    const field = await server.store.query<{ id: number }>("INSERT INTO fields (database_id, name, type) VALUES ($1, 'Title', 1) RETURNING id", [db.Id]);
    const a = await call(admin, 'POST', `/api/admin/databases/${db.Id}/archives`, { Name: 'Box', Parent: null, Fields: [field.rows[0]!.id] });
    expect(a.statusCode).toBe(200);
    const refused = await call(admin, 'DELETE', `/api/admin/databases/${db.Id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().Key).toBe('DATABASE_NOT_EMPTY');
    const dropped = await call(admin, 'DELETE', `/api/admin/databases/${db.Id}?drop=true`);
    expect(dropped.json()).toEqual({ Id: db.Id, Dropped: true });
    expect((await server.store.query('SELECT 1 FROM archives WHERE database_id = $1', [db.Id])).rowCount).toBe(0);
    expect((await call(admin, 'GET', `/api/admin/databases/${db.Id}`)).statusCode).toBe(404);
  });

  it('rebuilds the SQL indexes on GET with rebuild=true', async () => {
    const r = await call(admin, 'GET', '/api/admin/databases/1?rebuild=true');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ Id: 1, Rebuilt: true });
    // The statistics are fresh: ANALYZE ran on the documents table.
    const s = await server.store.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'documents'");
    expect(Number(s.rows[0]!.n)).toBeGreaterThan(0);
  });
});
