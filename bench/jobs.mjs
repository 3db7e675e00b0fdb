#!/usr/bin/env node
// A copy of 10,000 documents as one server job (issue 9, item 7), on PGlite and on PostgreSQL, beside
// a plain SQL copy of the same rows (INSERT ... SELECT of documents, document_files and
// document_pages in one transaction) measured in the same run on the same database. The ratio of
// the two is the figure: what the job's per-document transactions, audit entries, progress and
// HTTP calls cost over the bare copy.
//
// For each backend: a fresh database with the demo seed (100 documents), then 10,000 source documents
// cloned in SQL into Paid Invoices (fields, files and pages; tests/server/clone-documents.ts; on
// PGlite made once into .tmp/bench-jobs-pglite-template and copied by later runs), the SQL copy of
// them into Invoices timed, then the real server (node server/main.ts) signed in as
// `user` gets the 10,000 Copy calls of one job (Job key, Count 10000, 8 in flight) and is polled
// (GET api/jobs/{id}) until the job ends. Documents per second = 10,000 / (first call to job end).
// PostgreSQL is a throwaway cluster (tests/server/pg-cluster.ts) with its default settings (fsync
// on); it is skipped, and said so, when its binaries are missing.
//
// Knobs: BENCH_JOBS_DOCS (10000), BENCH_JOBS_BACKENDS (pglite,pg), BENCH_JOBS_SKIP=1 skips this bench.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

if (process.env.BENCH_JOBS_SKIP === '1') {
  console.log('jobs bench skipped (BENCH_JOBS_SKIP=1)');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const DOCS = Number(process.env.BENCH_JOBS_DOCS ?? 10_000);
const BACKENDS = (process.env.BENCH_JOBS_BACKENDS ?? 'pglite,pg').split(',');
const CONCURRENCY = 8;
const DB = 1;
const SOURCE_ARCHIVE = 2; // Paid Invoices
const DESTINATION_ARCHIVE = 1; // Invoices
const JOB_TIMEOUT_MS = 10 * 60_000;

const { startPgCluster, findPgBin } = await tsImport('../tests/server/pg-cluster.ts', import.meta.url);
const { startServerProcess, signInHttp, mapBounded } = await tsImport('../tests/server/processes.ts', import.meta.url);
const { cloneDocuments, sqlCopyDocuments } = await tsImport('../tests/server/clone-documents.ts', import.meta.url);
const { openStore } = await tsImport('../server/db/open.ts', import.meta.url);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
let phaseStart = performance.now();
/** One line per phase, so a slow run shows where it is. */
const phase = (msg) => {
  console.log(`  [${seconds(performance.now() - phaseStart)}] ${msg}`);
  phaseStart = performance.now();
};

/** The job over HTTP: all Copy calls, then polls until it ends. */
async function runJob(server, docs) {
  const token = await signInHttp(server.base, 'user');
  const headers = { 'auth-token': token };
  const key = `bench-copy-${Date.now()}`;
  let jobId;
  const t0 = performance.now();
  await mapBounded(docs, CONCURRENCY, async (doc) => {
    const q = new URLSearchParams({ SecureId: doc.hash, Job: key, Count: String(docs.length), DestinationArchive: String(DESTINATION_ARCHIVE) });
    const r = await fetch(`${server.base}/api/dbs/${DB}/archives/${SOURCE_ARCHIVE}/documents/${doc.id}/Copy?${q}`, { headers });
    const body = await r.text();
    if (r.status >= 300) throw new Error(`Copy of ${doc.id} answered ${r.status}: ${body}`);
    jobId ??= JSON.parse(body).JobId;
  });
  const sentMs = performance.now() - t0;
  phase(`${docs.length} Copy calls answered`);
  let job;
  let told = performance.now();
  for (;;) {
    // The job list, not the job: GET api/jobs/{id} carries every handled document (10,000 Results),
    // and asking for that over and over would slow the job it measures.
    const r = await fetch(`${server.base}/api/jobs`, { headers });
    job = (await r.json()).find((j) => j.Id === jobId);
    if (!job) throw new Error(`job ${jobId} is not in the job list`);
    if (['done', 'failed', 'cancelled'].includes(job.State)) break;
    if (performance.now() - told > 15_000) {
      console.log(`    ${job.Processed.toLocaleString('en')} of ${job.Count.toLocaleString('en')} handled`);
      told = performance.now();
    }
    if (performance.now() - t0 > JOB_TIMEOUT_MS) throw new Error(`job not ended after ${seconds(JOB_TIMEOUT_MS)}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const totalMs = performance.now() - t0;
  phase(`job ${job.State}`);
  if (job.State !== 'done' || job.Succeeded !== docs.length) throw new Error(`the job ended ${job.State}: ${job.Succeeded} succeeded, ${job.Failed} failed`);
  return { sentMs, totalMs };
}

/**
 * The PGlite folder with the demo seed and the source documents, made once and kept in
 * .tmp/bench-jobs-pglite-template (later runs copy it: the seed and the clones take half a minute).
 */
async function pgliteTemplate() {
  const dir = join(root, '.tmp', 'bench-jobs-pglite-template');
  const marker = join(dir, 'bench-docs.json');
  if (existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8'));
    if (kept.count === DOCS) {
      phase('demo and source documents from the kept template');
      return { dir, docs: kept.docs };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The first start seeds the demo; PGlite has one owner, so the server stops while the bench writes.
  const seeder = await startServerProcess({ dataDir: dir, seedDocs: 100 });
  await seeder.kill('SIGTERM');
  phase('demo seeded');
  const store = await openStore({ dataDir: dir });
  let docs;
  try {
    docs = await store.transaction((tx) => cloneDocuments(tx, { archiveId: SOURCE_ARCHIVE, count: DOCS, prefix: 'bench-src-' }));
    await store.exec('VACUUM ANALYZE');
    await store.exec('CHECKPOINT');
  } finally {
    await store.close();
  }
  writeFileSync(marker, JSON.stringify({ count: DOCS, docs }));
  phase(`${DOCS} source documents cloned (kept for later runs)`);
  return { dir, docs };
}

async function onPglite() {
  const template = await pgliteTemplate();
  const dataDir = join(root, '.tmp', 'bench-jobs-pglite');
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(template.dir, dataDir, { recursive: true });
  const { docs } = template;
  const store = await openStore({ dataDir });
  phase('copied and opened');
  let sqlMs;
  try {
    const t0 = performance.now();
    const copied = await store.transaction((tx) => sqlCopyDocuments(tx, docs.map((d) => d.id), DESTINATION_ARCHIVE));
    sqlMs = performance.now() - t0;
    if (copied !== DOCS) throw new Error(`the SQL copy made ${copied} documents`);
    phase('SQL copy');
    await store.exec('CHECKPOINT');
  } finally {
    await store.close();
  }
  const server = await startServerProcess({ dataDir, seedDocs: 0 });
  try {
    return { label: 'PGlite (embedded)', sqlMs, ...(await runJob(server, docs)) };
  } finally {
    await server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const cluster = await startPgCluster();
  const dataDir = join(root, '.tmp', 'bench-jobs-pg-files');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  try {
    const url = await cluster.createDatabase('bench_jobs');
    const server = await startServerProcess({ databaseUrl: url, dataDir, seedDocs: 100 });
    phase('demo seeded');
    try {
      const store = await openStore({ databaseUrl: url });
      let docs;
      let sqlMs;
      try {
        docs = await store.transaction((tx) => cloneDocuments(tx, { archiveId: SOURCE_ARCHIVE, count: DOCS, prefix: 'bench-src-' }));
        await store.exec('VACUUM ANALYZE');
        phase(`${DOCS} source documents cloned`);
        const t0 = performance.now();
        const copied = await store.transaction((tx) => sqlCopyDocuments(tx, docs.map((d) => d.id), DESTINATION_ARCHIVE));
        sqlMs = performance.now() - t0;
        if (copied !== DOCS) throw new Error(`the SQL copy made ${copied} documents`);
        phase('SQL copy');
      } finally {
        await store.close();
      }
      const version = cluster.version;
      return { label: `${version} (default settings)`, sqlMs, ...(await runJob(server, docs)) };
    } finally {
      await server.kill('SIGTERM');
    }
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const backend of BACKENDS) {
  if (backend === 'pg' && !findPgBin()) {
    console.log('PostgreSQL skipped: initdb/pg_ctl not found (Debian: apt-get install -y postgresql, or set PG_BIN)');
    continue;
  }
  const t = performance.now();
  phaseStart = t;
  console.log(`${backend}: seeding, cloning ${DOCS.toLocaleString('en')} documents, SQL copy, then the job...`);
  results.push(backend === 'pg' ? await onPostgres() : await onPglite());
  console.log(`${backend}: done in ${seconds(performance.now() - t)}`);
}

const rate = (ms) => `${Math.round(DOCS / (ms / 1000)).toLocaleString('en')} docs/s`;
console.log(`\nCopy of ${DOCS.toLocaleString('en')} documents (fields, files, pages) as one job, vs a plain SQL INSERT ... SELECT of the same rows`);
const header = ['what', ...results.map((r) => r.label)];
const rows = [
  ['copy job: first call to job end', ...results.map((r) => `${seconds(r.totalMs)} = ${rate(r.totalMs)}`)],
  [`  of which the ${DOCS.toLocaleString('en')} calls (${CONCURRENCY} in flight)`, ...results.map((r) => seconds(r.sentMs))],
  ['plain SQL INSERT ... SELECT (one transaction)', ...results.map((r) => `${seconds(r.sqlMs)} = ${rate(r.sqlMs)}`)],
  ['ratio (job time / SQL time)', ...results.map((r) => `${(r.totalMs / r.sqlMs).toFixed(1)}x`)],
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));
