/**
 * PGlite backend: the engine lives in a worker thread (pglite-worker.mjs); this side sends one
 * message per statement. PGlite is a single connection, so every statement goes through one queue;
 * a transaction holds the queue from BEGIN to COMMIT so no other statement lands inside it.
 */
import { Worker } from 'node:worker_threads';
import { DbError, STATEMENT_TIMEOUT_MS, assertIdent, toCsv, type Queryable, type QueryResult, type Store } from './store.js';

interface Reply {
  id: number;
  ok: boolean;
  ready?: boolean;
  rows?: unknown[];
  rowCount?: number;
  bytes?: Uint8Array;
  error?: { message: string; code?: string; detail?: string };
}

/** `snapshot`: a Store.snapshot() to start from (memory:// only). */
export async function openPglite(dataDir: string, statementTimeoutMs = STATEMENT_TIMEOUT_MS, snapshot?: Uint8Array): Promise<Store> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, statementTimeoutMs, snapshot },
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    const onFirst = (m: Reply) => {
      if (m.id !== 0) return;
      worker.off('message', onFirst);
      if (m.ok) resolve();
      else reject(new DbError(m.error?.message ?? 'PGlite failed to open'));
    };
    worker.on('message', onFirst);
  });
  worker.on('message', (m: Reply) => {
    if (m.id === 0) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    p.resolve(m);
  });
  worker.on('error', (e) => {
    failure = e instanceof Error ? e : new Error(String(e));
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  });
  await ready;

  function send(op: 'query' | 'exec' | 'close' | 'snapshot', sql = '', params: unknown[] = [], csv?: string): Promise<Reply> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<Reply>((resolve, reject) => {
      // A stuck statement cannot be cancelled from here; the caller at least gets an answer.
      const timer = setTimeout(() => {
        if (pending.delete(id)) reject(new DbError('Query timed out', '57014'));
      }, statementTimeoutMs + 5_000);
      timer.unref();
      pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          if (r.ok) resolve(r);
          else reject(new DbError(r.error?.message ?? 'query failed', r.error?.code, r.error?.detail));
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      worker.postMessage({ id, op, sql, params: params.map(normaliseParam), csv });
    });
  }

  // One queue: each job runs after the previous one settles.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(job: () => Promise<T>): Promise<T> {
    const run = tail.then(job, job);
    tail = run.catch(() => undefined);
    return run;
  }

  const direct: Queryable = {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const r = await send('query', sql, params);
      return { rows: (r.rows ?? []) as T[], rowCount: r.rowCount ?? 0 };
    },
    async exec(sql: string) {
      await send('exec', sql);
    },
  };

  const store: Store = {
    kind: 'pglite',
    hasTrgm: false,
    query: (sql, params) => serial(() => direct.query(sql, params)),
    exec: (sql) => serial(() => direct.exec(sql)),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return serial(async () => {
        await send('exec', 'BEGIN');
        try {
          const out = await fn(direct);
          await send('exec', 'COMMIT');
          return out;
        } catch (e) {
          await send('exec', 'ROLLBACK').catch(() => undefined);
          throw e;
        }
      });
    },
    bulkInsert(table, columns, rows) {
      if (rows.length === 0) return Promise.resolve();
      const cols = columns.map(assertIdent).join(', ');
      return serial(async () => {
        await send('query', `COPY ${assertIdent(table)} (${cols}) FROM '/dev/blob' WITH (FORMAT csv)`, [], toCsv(rows));
      });
    },
    snapshot: () => serial(async () => (await send('snapshot')).bytes as Uint8Array),
    async close() {
      await serial(() => send('close')).catch(() => undefined);
      await worker.terminate();
    },
  };
  return store;
}

/** Values that do not survive structured cloning as PGlite expects are turned into text/json first. */
function normaliseParam(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date || v === null || typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) return v;
  return JSON.stringify(v);
}
