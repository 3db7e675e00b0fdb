#!/usr/bin/env node
// Import of 5,000 documents with index data (issue 11 item 3, its check "Import 5,000 documents with a
// CSV containing quoted delimiters, line breaks in fields, bad dates and over-long values: good rows
// imported once, bad rows in the error file with reasons"), through the real server over HTTP, as the
// app sends it: each document's file uploaded to the archive's import staging (POST api/upload + its
// chunk, 8 in flight), the rows staged in batches of 2,000 (api/dbs/1/import/rows), ImportDocuments,
// then GET api/jobs/{id} polled until the job ends. The rows are what the browser's CSV worker hands
// over (values in wire form); 1 in 50 has a date that does not exist (2026-02-30) and 1 in 50 Notes of
// 501 characters (Size 500): the field rules refuse those in the browser already, and here the server
// must refuse them too, each as 'Line {n}: reason'. Afterwards the data folder is opened and every good
// row is checked to be exactly one document with its file; no bad row is.
//
// Prints: upload time, job time and rows/s, failed rows by key, and the checks.
// Knobs: BENCH_IMPORT_ROWS (5000), BENCH_IMPORT_SKIP=1 skips this bench.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { tsImport } from 'tsx/esm/api';

if (process.env.BENCH_IMPORT_SKIP === '1') {
  console.log('import bench skipped (BENCH_IMPORT_SKIP=1)');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 5_000);
const ARCHIVE = 5; // Correspondence
const F = { title: 1, documentDate: 3, notes: 23 };
const BATCH = 2_000;

const { startServerProcess, signInHttp, mapBounded } = await tsImport('../tests/server/processes.ts', import.meta.url);
const { openStore } = await tsImport('../server/db/open.ts', import.meta.url);

const dataDir = join(root, '.tmp', 'bench-import');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const server = await startServerProcess({ dataDir, seedDocs: 20 });
const sha = (b) => createHash('sha256').update(b).digest('hex');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const run = `b${Date.now().toString(36)}`;
let jobId;
let expected = 0;
try {
  const token = await signInHttp(server.base, 'user');
  const json = async (method, path, body, extra = {}) => {
    const r = await fetch(`${server.base}${path}`, {
      method,
      headers: { 'auth-token': token, ...(body !== undefined ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${text}`);
    return JSON.parse(text);
  };

  // The documents' files: small one-page PDFs, each different.
  const template = await PDFDocument.create();
  template.addPage([300, 300]);
  const base = await template.save({ useObjectStreams: false });
  const files = Array.from({ length: ROWS }, (_, i) => {
    const tail = new TextEncoder().encode(`\n% ${run} document ${i}\n`);
    const bytes = new Uint8Array(base.byteLength + tail.byteLength);
    bytes.set(base);
    bytes.set(tail, base.byteLength);
    return { name: `${run}-${i}.pdf`, bytes };
  });
  const rows = files.map((_, i) => {
    const bad = i % 50 === 7 ? 'date' : i % 50 === 13 ? 'long' : null;
    return {
      Line: i + 2,
      File: i,
      bad,
      Values: [
        { ID: F.title, VAL: `${run} "letter", no. ${i}` },
        { ID: F.documentDate, VAL: bad === 'date' ? '2026-02-30' : '2026-03-01' },
        { ID: F.notes, VAL: bad === 'long' ? 'x'.repeat(501) : `first line ${i}\nsecond; line, with delimiters` },
      ],
    };
  });

  let t0 = performance.now();
  const uploads = await mapBounded(files, 8, async (f) => {
    const st = await json('POST', '/api/upload', { FileName: f.name, Size: f.bytes.byteLength, Sha256: sha(f.bytes), Target: { DatabaseID: 1, ArchiveID: ARCHIVE } });
    const r = await fetch(`${server.base}/api/upload/chunk?JobID=${st.JobID}&Index=0`, { method: 'POST', headers: { 'auth-token': token, 'content-type': 'application/octet-stream' }, body: f.bytes });
    const done = await r.json();
    if (done.State !== 'done') throw new Error(`upload of ${f.name}: ${JSON.stringify(done)}`);
    return st.JobID;
  });
  const uploadMs = performance.now() - t0;
  console.log(`  ${ROWS.toLocaleString('en')} files uploaded in ${seconds(uploadMs)}`);

  t0 = performance.now();
  const key = `bench-import-${run}`;
  for (let i = 0; i * BATCH < rows.length; i++) {
    await json('POST', '/api/dbs/1/import/rows', { Key: key, Index: i, Total: rows.length, Rows: rows.slice(i * BATCH, (i + 1) * BATCH).map(({ bad: _bad, ...r }) => r) });
  }
  const accepted = await json('POST', '/api/dbs/1/import/ImportDocuments', {
    Database: 1,
    Archive: ARCHIVE,
    csvPath: `${run}.csv`,
    errorPath: `${run}-errors.csv`,
    FieldMapping: [
      { FieldID: F.title, RowID: 0, Checked: true },
      { FieldID: F.documentDate, RowID: 1, Checked: true },
      { FieldID: F.notes, RowID: 2, Checked: true },
    ],
    Key: key,
    Total: rows.length,
    Files: files.map((f, i) => ({ Name: f.name, Upload: uploads[i] })),
  });
  jobId = accepted.JobId;
  let job;
  for (;;) {
    job = await json('GET', `/api/jobs/${jobId}`);
    if (['done', 'failed', 'cancelled'].includes(job.State)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const jobMs = performance.now() - t0;
  const bad = rows.filter((r) => r.bad);
  expected = ROWS - bad.length;
  const byKey = {};
  for (const f of job.Failures ?? []) byKey[f.Key ?? 'none'] = (byKey[f.Key ?? 'none'] ?? 0) + 1;
  console.log(`  rows staged and imported in ${seconds(jobMs)}: ${Math.round(ROWS / (jobMs / 1000)).toLocaleString('en')} rows/s; job ${job.State}, ${job.Succeeded} imported, ${job.Failed} failed ${JSON.stringify(byKey)}`);
  const failedLines = new Set((job.Failures ?? []).map((f) => f.Line));
  const wrongFailures = bad.filter((r) => !failedLines.has(r.Line)).length + (job.Failures ?? []).filter((f) => !/^Line \d+: /.test(f.Message)).length;
  if (job.Failed !== bad.length || wrongFailures) throw new Error(`expected exactly the ${bad.length} bad rows to fail, got ${job.Failed} (${wrongFailures} wrong)`);
} finally {
  await server.kill('SIGTERM');
}

// Every good row exactly once, with its own file; no bad row.
const store = await openStore({ dataDir });
try {
  const r = await store.query(
    `SELECT d.fields->>'1' AS title, count(*)::int AS n, min(f.sha256) AS sha FROM documents d LEFT JOIN document_files f ON f.document_id = d.id
      WHERE d.archive_id = $1 AND d.fields->>'1' LIKE $2 GROUP BY 1`,
    [ARCHIVE, `${run} %`],
  );
  const twice = r.rows.filter((x) => x.n !== 1).length;
  const withoutFile = r.rows.filter((x) => !x.sha).length;
  console.log(`  check: ${r.rows.length.toLocaleString('en')} documents (expected ${expected.toLocaleString('en')}), ${twice} imported twice, ${withoutFile} without their file`);
  if (r.rows.length !== expected || twice || withoutFile) process.exitCode = 1;
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
