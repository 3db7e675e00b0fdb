#!/usr/bin/env node
// The export job's own memory against its size (issue 10 item 5: "a 10,000-document export's peak
// memory stays flat"). bench/export.mjs prints the server process's peak RSS, which also holds what
// V8 has not collected yet and grows with the allocation rate; this one measures what the export
// keeps: the JS heap after a full GC, sampled five times a second while the job runs, minus the heap
// before it. In this process: the real server (buildServer, PGlite in memory, whose data lives outside
// the JS heap), N documents cloned into Invoices (real PDFs and TIFFs of the seed), one POST
// api/dbs/1/export of them with the CSV of four fields, and the job worked by a JobRunner.
//
// Knobs: BENCH_EXPORT_HEAP_DOCS (1000,10000), BENCH_EXPORT_HEAP_SKIP=1 skips this bench.
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tsImport } from 'tsx/esm/api';

if (process.env.BENCH_EXPORT_HEAP_SKIP === '1') {
  console.log('export heap bench skipped (BENCH_EXPORT_HEAP_SKIP=1)');
  process.exit(0);
}
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const SIZES = (process.env.BENCH_EXPORT_HEAP_DOCS ?? '1000,10000').split(',').map(Number);
const { startServer, signIn } = await tsImport('../tests/server/helpers.ts', import.meta.url);
const { cloneDocuments } = await tsImport('../tests/server/clone-documents.ts', import.meta.url);
const { JobRunner } = await tsImport('../server/jobs/runner.ts', import.meta.url);

const rows = [];
for (const n of SIZES) {
  const s = await startServer({ seed: { docs: 50 }, jobs: { run: false } });
  try {
    const token = await signIn(s, 'user');
    const docs = await s.store.transaction((tx) => cloneDocuments(tx, { archiveId: 1, count: n, prefix: 'heap-' }));
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const timer = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }, 200);
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/dbs/1/export',
      headers: { 'auth-token': token, 'idempotency-key': randomUUID() },
      payload: { DatabaseID: 1, ArchiveID: 1, Docs: docs.map((d) => ({ ArchiveID: 1, DocID: d.id })), ExportWithCSV: true, FieldIDs: [1, 2, 3, 4], Format: 'zip' },
    });
    const jobId = r.json().JobId;
    const t0 = performance.now();
    await new JobRunner({ store: s.store, now: () => s.clock.t, bootId: randomUUID(), exports: { files: s.files, dir: s.exportDir } }).runOnce();
    const ms = performance.now() - t0;
    clearInterval(timer);
    const job = (await s.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: { 'auth-token': token } })).json();
    if (job.State !== 'done' || job.Succeeded !== n) throw new Error(`export of ${n}: ${job.State}, ${job.Succeeded} succeeded`);
    rows.push({ n, ms, peak });
    console.log(`  ${n.toLocaleString('en')} documents exported in ${(ms / 1000).toFixed(1)} s`);
  } finally {
    await s.close();
  }
}
const mib = (b) => `${(b / 1_048_576).toFixed(1)} MiB`;
console.log('\nExport job: the JS heap it keeps (after GC, sampled 5/s, above the heap before the POST)');
for (const r of rows) console.log(`  ${r.n.toLocaleString('en').padStart(7)} documents: ${mib(r.peak)}`);
if (rows.length > 1) {
  const [a, b] = [rows[0], rows.at(-1)];
  console.log(`  ${((b.peak - a.peak) / (b.n - a.n)).toFixed(0)} bytes a document more (flat: the zip's central directory waits on disk)`);
}
