/**
 * A throwaway PostgreSQL cluster for tests and benches that need a real server (several processes on
 * one database, a process killed mid-job): initdb in a temp folder, pg_ctl start on a free port,
 * databases created on demand, stopped and removed after. Uses Debian's PostgreSQL
 * (/usr/lib/postgresql/<version>/bin), pg_ctl on PATH, or PG_BIN. `.ci/run` installs it when missing;
 * without it startPgCluster throws (the caller fails rather than skips: the proof must run in CI).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:{port}/postgres */
  url: string;
  port: number;
  /** e.g. 'PostgreSQL 15.18' */
  version: string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (immediate: nothing here needs a clean shutdown) and removes its folder. */
  stop(): Promise<void>;
}

export const PG_MISSING_MESSAGE =
  'PostgreSQL (pg_ctl, initdb) was not found: these tests start a throwaway PostgreSQL cluster. Install it ' +
  '(Debian: apt-get install -y postgresql; .ci/run does this) or set PG_BIN to its bin folder.';

/** The folder holding initdb and pg_ctl, or null. The newest Debian version wins. */
export function findPgBin(): string | null {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'pg_ctl')) ? fromEnv : null;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const found = which.status === 0 ? which.stdout.trim() : '';
  return found ? found.replace(/\/pg_ctl$/, '') : null;
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

// PostgreSQL refuses to run as root: as root, its tools run as the `postgres` user (which Debian's
// package creates), on a folder that user owns.
const asRoot = process.getuid?.() === 0;

function run(bin: string, tool: string, args: string[]): void {
  const cmd = join(bin, tool);
  const r = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' })
    : spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout || r.error?.message}`);
}

/**
 * A detached shell that stops the cluster and removes its folder once this process is gone, however
 * it ended: the 'exit' handler does not run when a test process is killed (a worker ended at a
 * timeout, SIGKILL), and a fresh-clone run once left `postgres -D /tmp/archive-pg-*` running.
 */
function watchOwner(bin: string, dataDir: string, base: string): void {
  const stop = `${asRoot ? 'runuser -u postgres -- ' : ''}'${join(bin, 'pg_ctl')}' -D '${dataDir}' -m immediate -w stop`;
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; if [ -d '${dataDir}' ]; then ${stop} >/dev/null 2>&1; rm -rf '${base}'; fi`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

export interface PgClusterOptions {
  /**
   * Extra server settings (-c name=value). Tests pass fsync=off (a SIGKILL of our server never
   * touches PostgreSQL, so durability is not what they prove); benches keep the defaults.
   */
  settings?: Record<string, string | number>;
}

export async function startPgCluster(opts: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error(PG_MISSING_MESSAGE);
  const base = mkdtempSync(join(tmpdir(), 'archive-pg-'));
  const dataDir = join(base, 'data');
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0) throw new Error('running as root but there is no `postgres` user to run PostgreSQL as (install Debian\'s postgresql package)');
    chownSync(base, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const port = await freePort();
  let started = false;
  const remove = () => {
    if (started) {
      try {
        run(bin, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      started = false;
    }
    rmSync(base, { recursive: true, force: true });
  };
  // A test run that dies without its afterAll still stops the cluster.
  const onExit = () => remove();
  process.once('exit', onExit);
  try {
    run(bin, 'initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
    const settings: Record<string, string | number> = {
      listen_addresses: '127.0.0.1',
      port,
      unix_socket_directories: base,
      max_connections: 100,
      ...opts.settings,
    };
    const o = Object.entries(settings)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    try {
      run(bin, 'pg_ctl', ['-D', dataDir, '-l', join(base, 'server.log'), '-o', o, '-w', '-t', '60', 'start']);
    } catch (e) {
      const log = existsSync(join(base, 'server.log')) ? readFileSync(join(base, 'server.log'), 'utf8') : '';
      throw new Error(`${(e as Error).message}\n${log}`, { cause: e });
    }
    started = true;
    watchOwner(bin, dataDir, base);
  } catch (e) {
    process.removeListener('exit', onExit);
    remove();
    throw e;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const v = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return {
    url,
    port,
    version: `PostgreSQL ${/\) ([\d.]+)/.exec(v)?.[1] ?? '?'}`,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.removeListener('exit', onExit);
      remove();
    },
  };
}
