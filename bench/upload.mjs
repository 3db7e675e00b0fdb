#!/usr/bin/env node
// Chunked upload against a plain POST (issue 11 item 6, docs/development.md "Budgets": an upload of a
// 200 MiB file over loopback within 20% of a single plain POST of the same file; completes across
// 200 random disconnects with at most one chunk re-sent per disconnect).
//
// The real server (buildServer, embedded PGlite in a fresh data folder, the demo seed) listens on a
// loopback port in this process. The same server gets one extra route for the comparison,
// POST /api/bench-plain-upload: the whole file as one request body, streamed to a file while it is
// hashed and then taken into the file store, the same work the upload's last chunk ends with, behind
// the same hooks (sign-in token, idempotency, compression). Measured in the same run, alternating:
// - plain: one POST of the 200 MiB buffer;
// - chunked: POST api/upload, then 200 POST api/upload/chunk of 1 MiB one after the other (as the
//   worker sends them), the last one answering with the inbox file.
// Each is run BENCH_UPLOAD_ROUNDS times (3); the best of each is compared.
// Then a chunked upload with BENCH_UPLOAD_CUTS (200) random disconnects: chosen chunk requests are
// aborted at a random moment (before, during or after the body is sent); after each the client asks
// GET api/upload for NextIndex and goes on, as the worker does. It prints the chunks re-sent (sent
// more than once by the client) and the server's Repeated count, and checks the stored file's SHA-256.
//
// The client (both kinds of upload, and the disconnects) runs in a worker thread, as a browser is
// another process than the server: in one thread the client's own request work (undici building
// and reading 200 requests) took turns with the server's on one event loop, which the plain POST's
// single request barely pays.
//
// Knobs: BENCH_UPLOAD_MIB (200), BENCH_UPLOAD_ROUNDS (3), BENCH_UPLOAD_CUTS (200),
// BENCH_UPLOAD_DIR (where the data folder goes, default .tmp; /dev/shm takes the disk out of the
// figures), BENCH_UPLOAD_SKIP=1 skips this bench.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

if (process.env.BENCH_UPLOAD_SKIP === '1') {
  console.log('upload bench skipped (BENCH_UPLOAD_SKIP=1)');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 200);
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
const CUTS = Number(process.env.BENCH_UPLOAD_CUTS ?? 200);
const CHUNK = 1_048_576;
const INBOX = 1; // Scans (user has edit, 4)

if (isMainThread) {
  const { buildServer } = await tsImport('../server/app.ts', import.meta.url);
  const dataDir = join(process.env.BENCH_UPLOAD_DIR ?? join(root, '.tmp'), `bench-upload-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const server = await buildServer({ dataDir, distDir: join(dataDir, 'no-dist'), seed: { docs: 20 }, jobs: { run: false } });

  // The comparison route (see the header): streamed to disk while hashed, then into the file store.
  await server.app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { bodyLimit: 8 * 1024 * 1024 * 1024 }, (_req, payload, done) => done(null, payload));
    scope.post('/api/bench-plain-upload', async (request) => {
      const hash = createHash('sha256');
      const tmp = join(server.files.root, 'uploads', `plain-${randomBytes(4).toString('hex')}.part`);
      mkdirSync(join(server.files.root, 'uploads'), { recursive: true });
      const hashing = new Transform({
        transform(chunk, _enc, cb) {
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      await pipeline(request.body, hashing, createWriteStream(tmp));
      const sha256 = hash.digest('hex');
      await server.files.adopt(tmp, sha256);
      return { Sha256: sha256 };
    });
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${server.app.server.address().port}`;
  const worker = new Worker(new URL(import.meta.url), { workerData: { base } });
  const result = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const stored = result.sha256 ? createHash('sha256').update(await server.files.get(result.sha256)).digest('hex') : null;
  console.log(`  checksum of the stored file: ${stored === result.sha ? 'equal' : 'DIFFERENT'}`);
  await worker.terminate();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (stored !== result.sha || result.state !== 'done') process.exit(1);
} else {
const { base } = workerData;
const basic = `Basic ${Buffer.from('user:user').toString('base64')}`;
const token = (await (await fetch(`${base}/api/licenses`, { headers: { authorization: basic } })).json()).Token;
const headers = { 'auth-token': token };

const file = randomBytes(MIB * CHUNK);
const sha = createHash('sha256').update(file).digest('hex');
const chunks = Math.ceil(file.byteLength / CHUNK);
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const rate = (ms) => `${((file.byteLength / CHUNK) / (ms / 1000)).toFixed(0)} MiB/s`;

async function json(r) {
  const text = await r.text();
  if (!r.ok) throw new Error(`${r.status} ${text}`);
  return JSON.parse(text);
}

let uploadN = 0;
async function startUpload() {
  return json(
    await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${process.pid}-${++uploadN}` },
      body: JSON.stringify({ FileName: `bench-${uploadN}.bin`, Size: file.byteLength, Sha256: sha, Target: { InboxID: INBOX } }),
    }),
  );
}

const sendChunk = (jobId, i, signal) =>
  fetch(`${base}/api/upload/chunk?JobID=${jobId}&Index=${i}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    body: file.subarray(i * CHUNK, Math.min(file.byteLength, (i + 1) * CHUNK)),
    signal,
  });

async function plain() {
  const t0 = performance.now();
  const r = await json(await fetch(`${base}/api/bench-plain-upload`, { method: 'POST', headers: { ...headers, 'content-type': 'application/octet-stream' }, body: file }));
  const ms = performance.now() - t0;
  if (r.Sha256 !== sha) throw new Error('plain POST: checksum differs');
  return ms;
}

async function chunked() {
  const t0 = performance.now();
  const job = await startUpload();
  let st;
  for (let i = 0; i < chunks; i++) st = await json(await sendChunk(job.JobID, i));
  const ms = performance.now() - t0;
  if (st.State !== 'done' || st.Result.Sha256 !== sha) throw new Error(`chunked: ended ${JSON.stringify(st)}`);
  return ms;
}

console.log(`upload of ${MIB} MiB over loopback (${chunks} chunks of 1 MiB), ${ROUNDS} rounds each, alternating`);
const plainMs = [];
const chunkedMs = [];
for (let r = 0; r < ROUNDS; r++) {
  plainMs.push(await plain());
  chunkedMs.push(await chunked());
  console.log(`  round ${r + 1}: plain POST ${seconds(plainMs.at(-1))}, chunked ${seconds(chunkedMs.at(-1))}`);
}
const bestPlain = Math.min(...plainMs);
const bestChunked = Math.min(...chunkedMs);
const ratio = bestChunked / bestPlain;
console.log(`  plain POST (best):   ${seconds(bestPlain)} (${rate(bestPlain)})`);
console.log(`  chunked (best):      ${seconds(bestChunked)} (${rate(bestChunked)})`);
console.log(`  chunked / plain:     ${ratio.toFixed(2)}  (budget <= 1.20: ${ratio <= 1.2 ? 'within' : 'OVER'})`);

// --- random disconnects ----------------------------------------------------------------------
// Which chunk requests are cut: CUTS distinct attempts, spread at random over the upload.
let seed = Number(process.env.BENCH_UPLOAD_SEED ?? 11);
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const t0 = performance.now();
const job = await startUpload();
const sentCount = new Map();
let cuts = 0;
let attempts = 0;
let next = 0;
let st;
while (next < chunks) {
  attempts++;
  sentCount.set(next, (sentCount.get(next) ?? 0) + 1);
  // Cut about as often as needed to spend CUTS cuts over the chunks still to send.
  const cut = cuts < CUTS && random() < Math.min(1, (CUTS - cuts) / Math.max(1, chunks - next));
  const ctrl = new AbortController();
  if (cut) {
    cuts++;
    const delay = random() * 6;
    setTimeout(() => ctrl.abort(), delay);
  }
  try {
    st = await json(await sendChunk(job.JobID, next, ctrl.signal));
    next = st.NextIndex;
  } catch {
    // The connection dropped: where the server is, it says.
    st = await json(await fetch(`${base}/api/upload?JobID=${job.JobID}`, { headers }));
    next = st.NextIndex;
  }
}
const ms = performance.now() - t0;
// The last answer may have been lost: the state says how it ended.
st = await json(await fetch(`${base}/api/upload?JobID=${job.JobID}`, { headers }));
const resent = [...sentCount.values()].reduce((a, n) => a + n - 1, 0);
console.log(`with ${cuts} random disconnects: ${st.State} in ${seconds(ms)}; ${attempts} chunk requests for ${chunks} chunks`);
console.log(`  chunks re-sent: ${resent} (budget <= 1 per disconnect: ${resent <= cuts ? 'within' : 'OVER'}); server counted ${st.Repeated} repeated`);
parentPort.postMessage({ state: st.State, sha256: st.Result?.Sha256, sha });
}
