#!/usr/bin/env node
// Export of documents to a zip as a server job (issue 10, item 5), beside `zip -qr` of the same files
// measured in the same run, with the server's peak memory, for 1,000 and 10,000 documents, on PGlite
// and on PostgreSQL.
//
// For each backend, once: the demo seed (300 documents, so 300 distinct generated PDFs and G4 TIFFs)
// and the largest size's documents cloned in SQL into Invoices (fields, files and pages;
// tests/server/clone-documents.ts); on PGlite kept in .tmp/bench-export-template for later runs. For
// each size: the real server (node server/main.ts) started afresh (on PGlite on a copy of the
// template), signed in as `user`, one POST api/dbs/1/export of that many documents (Docs, with the
// CSV of four fields, history entries on as by default), GET api/jobs until the job is done, then
// GET api/dbs/1/export?jobid streamed to a file and its entries counted. The server's memory: VmRSS
// before the export, the highest VmRSS sampled every 50 ms from the POST to the end of the download,
// and VmHWM (peak of the process's whole life, start-up included). On PGlite the database runs
// inside the server process (a worker thread) and its memory counts; with PostgreSQL it is another
// process, so that figure is the export's own. Then the same documents' files are written into a
// temporary folder (one folder a document, as in the zip) and `zip -qr` of it is timed.
// MB/s = the documents' files (MB, 10^6 bytes) / seconds. The machine is shared: figures are noisy.
//
// Knobs: BENCH_EXPORT_DOCS (1000,10000), BENCH_EXPORT_BACKENDS (pglite,pg), BENCH_EXPORT_SKIP=1 skips
// this bench. PostgreSQL is a throwaway cluster (tests/server/pg-cluster.ts), skipped, and said so,
// when its binaries are missing. Needs `zip` (Debian: apt-get install -y zip); without it the zip -r
// row is left out, and said so.
import { spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

if (process.env.BENCH_EXPORT_SKIP === '1') {
  console.log('export bench skipped (BENCH_EXPORT_SKIP=1)');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const SIZES = (process.env.BENCH_EXPORT_DOCS ?? '1000,10000').split(',').map(Number);
const BACKENDS = (process.env.BENCH_EXPORT_BACKENDS ?? 'pglite,pg').split(',');
const MAX = Math.max(...SIZES);
const DB = 1;
const ARCHIVE = 1; // Invoices: `user` has export (128) there
const FIELDS = [1, 2, 3, 4]; // Title, Invoice Number, Document Date, Amount
const SEED_DOCS = 300;
const JOB_TIMEOUT_MS = 20 * 60_000;

const { startServerProcess, signInHttp } = await tsImport('../tests/server/processes.ts', import.meta.url);
const { startPgCluster, findPgBin } = await tsImport('../tests/server/pg-cluster.ts', import.meta.url);
const { cloneDocuments } = await tsImport('../tests/server/clone-documents.ts', import.meta.url);
const { openStore } = await tsImport('../server/db/open.ts', import.meta.url);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => bytes / 1e6;
let phaseStart = performance.now();
const phase = (msg) => {
  console.log(`  [${seconds(performance.now() - phaseStart)}] ${msg}`);
  phaseStart = performance.now();
};

/** Clones MAX documents into ARCHIVE and answers them with their files (name, sha256, size). */
async function cloneWithFiles(store) {
  const made = await store.transaction(async (tx) => {
    // Cloning 20,000 documents takes longer than the server's statement timeout on a busy machine.
    await tx.query('SET LOCAL statement_timeout = 0');
    return cloneDocuments(tx, { archiveId: ARCHIVE, count: MAX, prefix: 'bench-export-' });
  });
  const files = await store.query(
    `SELECT f.document_id, f.sha256, f.file_name, b.size FROM document_files f JOIN blobs b ON b.sha256 = f.sha256
      WHERE f.document_id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint) ORDER BY f.document_id, f.position`,
    [JSON.stringify(made.map((d) => d.id))],
  );
  const byDoc = new Map(made.map((d) => [d.id, []]));
  for (const f of files.rows) byDoc.get(Number(f.document_id)).push({ sha256: f.sha256, name: f.file_name, size: Number(f.size) });
  await store.exec('VACUUM ANALYZE');
  return made.map((d) => ({ id: d.id, files: byDoc.get(d.id) }));
}

/** PGlite: the data folder with the demo and MAX cloned documents, made once; each server starts on a copy. */
async function onPglite() {
  const dir = join(root, '.tmp', 'bench-export-template');
  const marker = join(dir, 'bench-export.json');
  let docs;
  if (existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8'));
    // A template made for a larger run serves a smaller one.
    if (kept.count >= MAX) {
      phase('demo and cloned documents from the kept template');
      docs = kept.docs.slice(0, MAX);
    }
  }
  if (!docs) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // PGlite has one owner: the server seeds and stops, then the bench clones.
    const seeder = await startServerProcess({ dataDir: dir, seedDocs: SEED_DOCS, readyTimeoutMs: 300_000 });
    await seeder.kill('SIGTERM');
    phase(`demo seeded (${SEED_DOCS} documents)`);
    const store = await openStore({ dataDir: dir });
    try {
      docs = await cloneWithFiles(store);
      await store.exec('CHECKPOINT');
    } finally {
      await store.close();
    }
    writeFileSync(marker, JSON.stringify({ count: MAX, docs }));
    phase(`${MAX.toLocaleString('en')} documents cloned (kept for later runs)`);
  }
  const runDir = join(root, '.tmp', 'bench-export-run');
  return {
    label: 'PGlite (in the server process)',
    docs,
    filesRoot: join(dir, 'files'),
    async start() {
      rmSync(runDir, { recursive: true, force: true });
      cpSync(dir, runDir, { recursive: true });
      return startServerProcess({ dataDir: runDir, seedDocs: 0 });
    },
    async done() {
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL: a throwaway cluster seeded through the server, MAX documents cloned; each server starts on it. */
async function onPostgres() {
  const cluster = await startPgCluster();
  const dataDir = join(root, '.tmp', 'bench-export-pg-files');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const url = await cluster.createDatabase('bench_export');
  const seeder = await startServerProcess({ databaseUrl: url, dataDir, seedDocs: SEED_DOCS, readyTimeoutMs: 300_000 });
  await seeder.kill('SIGTERM');
  phase(`demo seeded (${SEED_DOCS} documents)`);
  const store = await openStore({ databaseUrl: url });
  let docs;
  try {
    docs = await cloneWithFiles(store);
  } finally {
    await store.close();
  }
  phase(`${MAX.toLocaleString('en')} documents cloned`);
  return {
    label: `${cluster.version} (another process)`,
    docs,
    filesRoot: join(dataDir, 'files'),
    start: () => startServerProcess({ databaseUrl: url, dataDir, seedDocs: 0 }),
    async done() {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const status = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (text, key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;

/** Entries in a zip, from its end-of-central-directory record (ZIP64's when the count overflows). */
function zipEntries(path) {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, 65_557 + 20 + 56));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) throw new Error(`${path} is not a zip`);
    const count = tail.readUInt16LE(eocd + 10);
    if (count !== 0xffff) return count;
    const z64 = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]));
    return Number(tail.readBigUInt64LE(z64 + 32));
  } finally {
    closeSync(fd);
  }
}

async function exportRun(backend, docs) {
  const server = await backend.start();
  const out = join(root, '.tmp', 'bench-export-result.zip');
  try {
    const token = await signInHttp(server.base, 'user');
    const headers = { 'auth-token': token };
    const rssBefore = kb(status(server.pid), 'VmRSS');
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, kb(status(server.pid), 'VmRSS'));
      } catch {
        // the process ended; its figures were read before
      }
    }, 50);
    try {
      const t0 = performance.now();
      const body = { DatabaseID: DB, ArchiveID: ARCHIVE, Docs: docs.map((d) => ({ ArchiveID: ARCHIVE, DocID: d.id })), ExportWithCSV: true, FieldIDs: FIELDS, Format: 'zip' };
      const r = await fetch(`${server.base}/api/dbs/${DB}/export`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-export-${docs.length}-${Date.now()}` },
        body: JSON.stringify(body),
      });
      const accepted = await r.json();
      if (r.status !== 200) throw new Error(`export answered ${r.status}: ${JSON.stringify(accepted)}`);
      let job;
      let told = performance.now();
      for (;;) {
        const j = await fetch(`${server.base}/api/jobs`, { headers });
        job = (await j.json()).find((x) => x.Id === accepted.JobId);
        if (!job) throw new Error(`job ${accepted.JobId} is not in the job list`);
        if (['done', 'failed', 'cancelled'].includes(job.State)) break;
        if (performance.now() - told > 15_000) {
          console.log(`    ${job.Processed.toLocaleString('en')} of ${job.Count.toLocaleString('en')} handled`);
          told = performance.now();
        }
        if (performance.now() - t0 > JOB_TIMEOUT_MS) throw new Error(`export not done after ${seconds(JOB_TIMEOUT_MS)}`);
        await new Promise((res) => setTimeout(res, 100));
      }
      const jobMs = performance.now() - t0;
      if (job.State !== 'done' || job.Succeeded !== docs.length) throw new Error(`the export ended ${job.State}: ${job.Succeeded} succeeded, ${job.Failed} failed`);
      phase(`export job of ${docs.length.toLocaleString('en')} documents done`);
      const d = await fetch(`${server.base}/api/dbs/${DB}/export?jobid=${accepted.JobId}`, { headers });
      if (d.status !== 200) throw new Error(`download answered ${d.status}: ${await d.text()}`);
      await pipeline(Readable.fromWeb(d.body), createWriteStream(out));
      const totalMs = performance.now() - t0;
      phase('zip downloaded');
      const st = status(server.pid);
      const hwm = kb(st, 'VmHWM');
      peakRss = Math.max(peakRss, kb(st, 'VmRSS'));
      const files = docs.reduce((n, doc) => n + doc.files.length, 0);
      const entries = zipEntries(out);
      // Every file and the CSV (a folder entry or two would be fine too, fewer is not).
      if (entries < files + 1) throw new Error(`the zip has ${entries} entries for ${files} files and the CSV`);
      return { jobMs, totalMs, zipBytes: statSync(out).size, entries, rssBefore, peakRss, hwm };
    } finally {
      clearInterval(sampler);
    }
  } catch (e) {
    // The server's last words (an out-of-memory end, a stack) say more than the bench's fetch error.
    console.log(server.output().split('\n').slice(-30).join('\n'));
    throw e;
  } finally {
    await server.kill('SIGTERM');
    rmSync(out, { force: true });
  }
}

/** The same files in a folder, one folder a document, then `zip -qr` of it timed. */
function zipRun(filesRoot, docs) {
  const dir = join(root, '.tmp', 'bench-export-files');
  const out = join(root, '.tmp', 'bench-export-zip-r.zip');
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { force: true });
  for (const d of docs) {
    const folder = join(dir, String(d.id));
    mkdirSync(folder, { recursive: true });
    for (const f of d.files) cpSync(join(filesRoot, f.sha256.slice(0, 2), f.sha256.slice(2, 4), f.sha256), join(folder, f.name));
  }
  try {
    const t0 = performance.now();
    const r = spawnSync('zip', ['-qr', out, '.'], { cwd: dir, stdio: 'inherit' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`zip -qr exited ${r.status}`);
    return { ms, zipBytes: statSync(out).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { force: true });
  }
}

const hasZip = spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;
if (!hasZip) console.log('zip -r left out: `zip` not found (Debian: apt-get install -y zip)');
const fileCount = (docs) => docs.reduce((n, d) => n + d.files.length, 0);
const fileBytes = (docs) => docs.reduce((n, d) => n + d.files.reduce((m, f) => m + f.size, 0), 0);
const tables = [];
let zipR;
for (const name of BACKENDS) {
  if (name === 'pg' && !findPgBin()) {
    console.log('PostgreSQL skipped: initdb/pg_ctl not found (Debian: apt-get install -y postgresql, or set PG_BIN)');
    continue;
  }
  phaseStart = performance.now();
  console.log(`${name}: ${MAX.toLocaleString('en')} documents, then exports of ${SIZES.map((n) => n.toLocaleString('en')).join(' and ')} documents...`);
  const backend = name === 'pg' ? await onPostgres() : await onPglite();
  try {
    const results = [];
    for (const size of SIZES) results.push({ size, docs: backend.docs.slice(0, size), exp: await exportRun(backend, backend.docs.slice(0, size)) });
    // zip -r of the same files once (the seed is deterministic: both backends have the same files).
    if (hasZip && !zipR) {
      zipR = SIZES.map((size) => zipRun(backend.filesRoot, backend.docs.slice(0, size)));
      phase('zip -qr of the same files');
    }
    tables.push({ label: backend.label, results });
  } finally {
    await backend.done();
  }
}

const rate = (bytes, ms) => `${(mb(bytes) / (ms / 1000)).toFixed(1)} MB/s`;
const MiB = (b) => `${(b / 1048576).toFixed(0)} MiB`;
const print = (title, header, rows) => {
  console.log(`\n${title}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
};
const sizeHeader = ['what', ...SIZES.map((n) => `${n.toLocaleString('en')} documents`)];
for (const t of tables) {
  const rs = t.results;
  print(`Export to a zip through the API on ${t.label}; CSV of ${FIELDS.length} fields, history entries on`, sizeHeader, [
    ["documents' files", ...rs.map((r) => `${fileCount(r.docs).toLocaleString('en')} files, ${mb(fileBytes(r.docs)).toFixed(1)} MB`)],
    ['export job (POST to job done)', ...rs.map((r) => `${seconds(r.exp.jobMs)} = ${rate(fileBytes(r.docs), r.exp.jobMs)}`)],
    ['  with the download (POST to zip on disk)', ...rs.map((r) => `${seconds(r.exp.totalMs)} = ${rate(fileBytes(r.docs), r.exp.totalMs)}`)],
    ['  zip: entries, size', ...rs.map((r) => `${r.exp.entries.toLocaleString('en')}, ${mb(r.exp.zipBytes).toFixed(1)} MB`)],
    ...(zipR
      ? [
          ['zip -qr of the same files (same run)', ...zipR.map((z, i) => `${seconds(z.ms)} = ${rate(fileBytes(rs[i].docs), z.ms)}`)],
          ['  zip -qr size', ...zipR.map((z) => `${mb(z.zipBytes).toFixed(1)} MB`)],
        ]
      : []),
    ['server RSS before the export', ...rs.map((r) => MiB(r.exp.rssBefore))],
    ['server peak RSS, export and download', ...rs.map((r) => MiB(r.exp.peakRss))],
    ['  peak minus before', ...rs.map((r) => MiB(r.exp.peakRss - r.exp.rssBefore))],
    ['server VmHWM (whole life, start-up included)', ...rs.map((r) => MiB(r.exp.hwm))],
  ]);
}
