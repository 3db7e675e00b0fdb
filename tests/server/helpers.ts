/**
 * One seeded server per test file, run in-process (app.inject). In-memory PGlite by default; with
 * TEST_DATABASE_URL set, each file gets a fresh PostgreSQL database created next to that one.
 *
 * In-memory servers start from a snapshot of the seeded database and files, made once per seed size
 * per run (tests/support/server-snapshots.ts gives the folder): a PGlite start with its initdb and the
 * seed cost ~7 s a file on 2 CPUs, a start from the snapshot ~2.3 s. The snapshot is what the seed
 * makes with the same clock, so a test sees the same data either way.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildServer, DEFAULT_SEED_DOCS, type BuildOptions, type BuiltServer } from '../../server/app';
import { isMemoryDir, openStore } from '../../server/db/open';
import { FileStore } from '../../server/files/file-store';
import { seed } from '../../server/seed/seed';
import { SNAPSHOTS_ENV } from '../support/server-snapshots';

/** The test servers' clock at start: the seed's timestamps. */
const START_TIME = Date.UTC(2026, 0, 5, 9, 0, 0);

export interface TestServer extends BuiltServer {
  clock: { t: number; advance(ms: number): void };
}

async function freshPgDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `archive_test_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The seeded snapshot of `docs` documents (null: the empty database a `seed: false` server starts
 * with, its schema made), made by the first file that needs it: even an empty in-memory start costs
 * an initdb of a few seconds, a start from the snapshot about one.
 */
async function seededSnapshot(docs: number | null): Promise<BuildOptions['snapshot']> {
  const root = process.env[SNAPSHOTS_ENV];
  if (!root) return undefined;
  const dir = join(root, docs === null ? 'empty' : `docs-${docs}`);
  if (!existsSync(dir)) {
    const store = await openStore({ dataDir: 'memory://' });
    const files = FileStore.open('memory://');
    try {
      if (docs !== null) await seed(store, files, { docs, now: () => START_TIME });
      const making = mkdtempSync(join(root, 'making-'));
      cpSync(files.root, join(making, 'files'), { recursive: true });
      writeFileSync(join(making, 'database.tgz'), await store.snapshot!());
      try {
        renameSync(making, dir);
      } catch {
        // Another test file made it first: theirs is the same.
        rmSync(making, { recursive: true, force: true });
      }
    } finally {
      await store.close();
      files.close();
    }
  }
  return { database: readFileSync(join(dir, 'database.tgz')), filesDir: join(dir, 'files') };
}

export async function startServer(opts: Partial<BuildOptions> = {}): Promise<TestServer> {
  const clock = {
    t: START_TIME,
    advance(ms: number) {
      clock.t += ms;
    },
  };
  const base = process.env.TEST_DATABASE_URL;
  const fresh = base ? await freshPgDatabase(base) : undefined;
  const seedOpts = opts.seed ?? { docs: 20 };
  const inMemory = !fresh && isMemoryDir(opts.dataDir);
  const snapshot = inMemory ? await seededSnapshot(seedOpts === false ? null : (seedOpts.docs ?? DEFAULT_SEED_DOCS)) : undefined;
  const server = await buildServer({
    dataDir: 'memory://',
    databaseUrl: fresh?.url,
    distDir: join(tmpdir(), 'no-such-dist-dir'),
    snapshot,
    ...opts,
    seed: seedOpts,
    now: () => clock.t,
  });
  return {
    ...server,
    clock,
    async close() {
      await server.close();
      await fresh?.drop();
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export async function signIn(server: BuiltServer, user: string, password = user): Promise<string> {
  const r = await server.app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: basic(user, password) } });
  if (r.statusCode !== 200) throw new Error(`sign-in of ${user} answered ${r.statusCode} ${r.body}`);
  return (r.json() as { Token: string }).Token;
}

/** A small built app: index.html, a service worker, a hashed asset and a language file. */
export function makeDist(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'languages'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Archive</title><div id="root"></div>');
  writeFileSync(join(dir, 'service-worker.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(join(dir, 'assets', 'index-3f9a1c.js'), 'console.log("app");');
  writeFileSync(join(dir, 'languages', 'en.json'), '{"MESSAGE_LOADING":"Loading..."}');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Archive"}');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A live document of an archive as the document tests use it. */
export interface PoolDoc {
  id: number;
  archive_id: number;
  secure_hash: string;
}

/**
 * The live documents of an archive (oldest first), handed out by `take(n)` so the tests of a file
 * never act on the same document and do not see each other's changes.
 */
export async function documentPool(server: BuiltServer, archiveId: number): Promise<{ size: number; take: (n: number) => PoolDoc[] }> {
  const r = await server.store.query<PoolDoc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id', [archiveId]);
  const pool = r.rows.map((d) => ({ ...d, id: Number(d.id) }));
  return {
    size: pool.length,
    take: (n) => {
      const out = pool.splice(0, n);
      if (out.length < n) throw new Error(`not enough documents in archive ${archiveId}`);
      return out;
    },
  };
}
