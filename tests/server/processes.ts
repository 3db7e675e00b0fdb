/**
 * The real server as a child process (node --import tsx server/main.ts, as bench/server.mjs starts
 * it: node itself, not npx, so that a signal reaches the server and not a wrapper), for tests that
 * kill it with SIGKILL or run two of them on one PostgreSQL. Only HTTP and the process are used: the
 * tests stay valid whatever the server's internals are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './pg-cluster';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  base: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>;
  /** SIGKILL by default: no shutdown hook runs, like a crash or an OOM kill. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  databaseUrl?: string;
  /** Document files (and the embedded database when databaseUrl is unset). */
  dataDir: string;
  port?: number;
  /** Documents the seed writes into an empty database (main.ts SEED_DOCS). */
  seedDocs?: number;
  env?: Record<string, string>;
  /** How long to wait for "Archive is ready" (default 90 s: a seed on a busy machine). */
  readyTimeoutMs?: number;
}

export async function startServerProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    SEED_DOCS: String(opts.seedDocs ?? 20),
    LOG_LEVEL: 'warn',
    DIST_DIR: join(root, '.tmp', 'no-dist'),
    ...opts.env,
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  // A test run that dies (or times out) without its afterAll takes its servers with it.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.removeListener('exit', onExit));
  const timeoutMs = opts.readyTimeoutMs ?? 90_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server on port ${port} not ready after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      if (out.includes('Archive is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server on port ${port} exited (${code}) before it was ready:\n${out}`));
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid as number,
    child,
    output: () => out,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Signs in over HTTP (GET api/licenses with Basic auth) and answers the licence token. */
export async function signInHttp(base: string, user: string, password = user): Promise<string> {
  const r = await fetch(`${base}/api/licenses`, { headers: { authorization: basicAuth(user, password) } });
  if (r.status !== 200) throw new Error(`sign-in of ${user} at ${base} answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { Token: string }).Token;
}

/** Runs fn over items with at most `limit` calls in flight; answers the results in order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}
