/* global Blob */
// The PGlite engine, alone in a worker thread: PGlite runs each query synchronously in WASM and
// would otherwise block the HTTP thread for the whole query. Plain JavaScript so the worker
// starts the same way under tsx, vitest and plain node. Protocol (one message at a time):
//   { id, op: 'query', sql, params, csv? } -> { id, ok: true, rows, rowCount }
//   { id, op: 'exec', sql }                -> { id, ok: true }
//   { id, op: 'close' }                    -> { id, ok: true }
//   { id, op: 'snapshot' }                 -> { id, ok: true, bytes } (gzipped tar of the data folder)
// workerData.snapshot (bytes of such a tar, memory:// only) is the database it starts with.
// Errors come back as { id, ok: false, error: { message, code, detail } }.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const toNumber = (v) => (v === null ? null : Number(v));
let db;
try {
  db = await PGlite.create(workerData.dataDir, {
    extensions: { pg_trgm },
    parsers: { 20: toNumber, 1700: toNumber },
    ...(workerData.snapshot ? { loadDataDir: new Blob([workerData.snapshot], { type: 'application/x-gzip' }) } : {}),
  });
  try {
    await db.exec(`SET statement_timeout = ${Number(workerData.statementTimeoutMs) || 30000}`);
  } catch {
    // older builds ignore or refuse it; the caller side has its own timeout
  }
  parentPort.postMessage({ id: 0, ok: true, ready: true });
} catch (e) {
  parentPort.postMessage({ id: 0, ok: false, error: { message: String(e && e.message ? e.message : e) } });
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.op === 'query') {
      const opts = msg.csv !== undefined ? { blob: new Blob([msg.csv]) } : undefined;
      const res = await db.query(msg.sql, msg.params ?? [], opts);
      parentPort.postMessage({ id: msg.id, ok: true, rows: res.rows, rowCount: res.fields && res.fields.length > 0 ? res.rows.length : (res.affectedRows ?? 0) });
    } else if (msg.op === 'exec') {
      await db.exec(msg.sql);
      parentPort.postMessage({ id: msg.id, ok: true, rows: [], rowCount: 0 });
    } else if (msg.op === 'snapshot') {
      const bytes = new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer());
      parentPort.postMessage({ id: msg.id, ok: true, rows: [], rowCount: 0, bytes }, [bytes.buffer]);
    } else if (msg.op === 'close') {
      await db.close();
      parentPort.postMessage({ id: msg.id, ok: true, rows: [], rowCount: 0 });
    }
  } catch (e) {
    parentPort.postMessage({
      id: msg.id,
      ok: false,
      error: { message: String(e && e.message ? e.message : e), code: e && e.code, detail: e && e.detail },
    });
  }
});
