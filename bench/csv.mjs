#!/usr/bin/env node
// CSV budgets (docs/development.md "Budgets"; issue 11 item 6), measured in Debian Chromium:
// 1. file to validated counts in workers/csv.worker.ts (built by Vite as the app builds it) on a
//    generated ~200 MiB CSV with quoted fields, doubled quotes and line breaks inside fields, picked
//    through an <input type=file> (a disk-backed File): the worker parses it and checks five of its
//    columns with the field rules (number, date, decimal, text), as an import's check does, and
//    sends the page only refusals and progress. Beside it, in the same run on the same File, Papa
//    Parse 5 in a worker of its own (chunked File reading, each chunk's rows counted in the worker
//    and not sent to the page, no values checked, which favours it), and, for what it costs, the
//    worker's scan() handing every batch's text to the page (packed string + transferred offsets).
// 2. a 1 GiB CSV through the same worker, its JS heap sampled every 100 ms over CDP
//    (Runtime.getHeapUsage in the worker's target): the peak shows the heap stays bounded.
// Files go to .tmp/bench-csv (removed after the run unless BENCH_CSV_KEEP=1).
/* global document, location, Worker */
import { createServer } from 'node:http';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { chromium } from '@playwright/test';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = join(root, '.tmp/bench-csv');
mkdirSync(tmp, { recursive: true });
const MiB = 1 << 20;
const RUNS = Number(process.env.BENCH_CSV_RUNS ?? 3);

// --- the worker, bundled the way the app's build bundles it -----------------------------------
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    outDir: join(tmp, 'worker'),
    emptyOutDir: true,
    lib: { entry: join(root, 'workers/csv.worker.ts'), formats: ['es'], fileName: () => 'csv.worker.js' },
  },
});

// --- generated CSVs -----------------------------------------------------------------------------
/** Invoice-like rows; every 10th has a quoted title with doubled quotes and a two-line note. */
async function generate(path, bytes) {
  if (existsSync(path) && statSync(path).size >= bytes) return statSync(path).size;
  const out = createWriteStream(path);
  out.write('DocumentID,ArchiveID,Title,Date,Amount,Notes,Customer\n');
  let size = 0;
  let i = 0;
  while (size < bytes) {
    const lines = [];
    for (let k = 0; k < 5000; k++, i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      lines.push(
        i % 10 === 0
          ? `${i},1,"Invoice ""${i}"", paid",2026-03-${day},${(i * 7.31).toFixed(2)},"line one\nline two, with a comma",Customer ${i % 977}`
          : `${i},1,Invoice ${i},2026-03-${day},${(i * 7.31).toFixed(2)},plain note ${i},Customer ${i % 977}`,
      );
    }
    const block = lines.join('\n') + '\n';
    size += Buffer.byteLength(block);
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}
const file200 = join(tmp, 'bench-200.csv');
const file1g = join(tmp, 'bench-1g.csv');
const size200 = await generate(file200, 200 * MiB);
const size1g = await generate(file1g, 1024 * MiB);

// --- the page -----------------------------------------------------------------------------------
const FILES = {
  '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>csv bench</title><input type="file" id="f">'],
  '/csv.worker.js': ['text/javascript', () => readFileSync(join(tmp, 'worker/csv.worker.js'))],
  '/comlink.mjs': ['text/javascript', () => readFileSync(join(root, 'node_modules/comlink/dist/esm/comlink.mjs'))],
  '/papaparse.min.js': ['text/javascript', () => readFileSync(join(root, 'node_modules/papaparse/papaparse.min.js'))],
};
const server = createServer((req, res) => {
  const f = FILES[new URL(req.url, 'http://x').pathname];
  if (!f) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': f[0], 'cache-control': 'no-store' });
  res.end(typeof f[1] === 'function' ? f[1]() : f[1]);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

let browser;
let page;
let cdp;
let workers = [];
const pending = new Map();
let seq = 0;
/** A fresh browser and page; its workers are attached over CDP for their heap (Target.sendMessageToTarget: Playwright has no session per worker). */
async function openBrowser(extraArgs = []) {
  await browser?.close();
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
  page = await browser.newPage();
  await page.goto(origin);
  cdp = await page.context().newCDPSession(page);
  const mine = (workers = []);
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type === 'worker') mine.push(e.sessionId);
  });
  cdp.on('Target.detachedFromTarget', (e) => {
    const i = mine.indexOf(e.sessionId);
    if (i >= 0) mine.splice(i, 1);
  });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message);
    pending.get(m.id)?.(m.result);
    pending.delete(m.id);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
}
const heapOf = (sessionId) =>
  new Promise((resolve) => {
    const id = ++seq;
    pending.set(id, resolve);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) }).catch(() => resolve(null));
    setTimeout(() => resolve(null), 500);
  });
await openBrowser();

async function pick(path) {
  await page.locator('#f').setInputFiles(path);
}

/**
 * Ours, the picked file through the worker: 'validate' checks its columns with the field rules (only
 * refusals and progress cross); 'scan' hands every batch's text to the page (bulk update reads so).
 */
const inWorker = (mode) =>
  page.evaluate(async (mode) => {
    const { wrap, proxy } = await import('/comlink.mjs');
    const worker = new Worker('/csv.worker.js', { type: 'module' });
    const api = wrap(worker);
    const file = document.querySelector('#f').files[0];
    const options = { fieldDelimiter: ',', stringDelimiter: '"', header: true };
    let refused = 0;
    let rows = 0;
    // DocumentID, ArchiveID: numbers; Title: text; Date: a date; Amount: a decimal (wire form).
    const rules = [
      { column: 0, field: { ID: 1, Type: 2 } },
      { column: 1, field: { ID: 2, Type: 2 } },
      { column: 2, field: { ID: 3, Type: 1, Size: 100 } },
      { column: 3, field: { ID: 4, Type: 3 } },
      { column: 4, field: { ID: 5, Type: 4 } },
    ];
    const t0 = performance.now();
    const r =
      mode === 'validate'
        ? await api.validate(1, file, options, rules, null, proxy((batch) => void (refused += batch.rows.rowNumbers.length)), proxy(() => undefined))
        : await api.scan(1, file, options, proxy((batch) => void (rows += batch.rowNumbers.length)), proxy(() => undefined));
    const ms = performance.now() - t0;
    worker.terminate();
    if (!r.ok) throw new Error(JSON.stringify(r));
    if (refused) throw new Error(`${refused} rows refused`);
    return { ms, rows: r.rows, size: file.size };
  }, mode);
const ours = () => inWorker('validate');
const toPage = () => inWorker('scan');

/** Papa Parse in its own worker, chunked File reading (its worker mode), rows counted there. */
const papa = () =>
  page.evaluate(async (chunkSize) => {
    const src = `importScripts(${JSON.stringify(`${location.origin}/papaparse.min.js`)});
      onmessage = (e) => {
        let rows = 0;
        const t0 = performance.now();
        Papa.parse(e.data, { header: false, skipEmptyLines: true, chunkSize: ${chunkSize}, chunk: (r) => { rows += r.data.length; }, complete: () => postMessage({ ms: performance.now() - t0, rows: rows - 1 }), error: (err) => postMessage({ error: String(err) }) });
      };`;
    const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    const file = document.querySelector('#f').files[0];
    const r = await new Promise((res) => {
      worker.onmessage = (e) => res(e.data);
      worker.postMessage(file);
    });
    worker.terminate();
    if (r.error) throw new Error(r.error);
    return { ...r, size: file.size };
  }, 4 * MiB);

const speed = (r) => r.size / MiB / (r.ms / 1000);
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** Samples the JS heap of every worker of the page every 100 ms while `run` runs. */
async function withHeap(run) {
  let peak = 0;
  let samples = 0;
  let first = null;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      // In parallel: an ended worker's session may linger and never answer.
      const heaps = await Promise.all(workers.map((s) => heapOf(s)));
      for (const h of heaps) {
        if (h?.usedSize) {
          samples++;
          first ??= h.usedSize;
          peak = Math.max(peak, h.usedSize);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await run();
  sampling = false;
  await sampler;
  return { ...result, heap: { peak, samples, first: first ?? 0 } };
}

// 1. ~200 MiB, ours and Papa alternating
await pick(file200);
const oursRuns = [];
const papaRuns = [];
const toPageRuns = [];
for (let i = 0; i < RUNS; i++) {
  oursRuns.push(await withHeap(ours));
  papaRuns.push(await papa());
  toPageRuns.push(await toPage());
}
const rows200 = oursRuns[0].rows;
if (papaRuns.some((r) => r.rows !== rows200)) console.log(`  note: Papa Parse counted ${papaRuns.map((r) => r.rows).join('/')} rows, ours ${rows200}`);

// 2. 1 GiB, heap sampled, in a browser whose V8 heaps are capped (the run fails if the worker's
// heap grows with the file).
const HEAP_CAP = 64;
await openBrowser([`--js-flags=--max-old-space-size=${HEAP_CAP}`]);
await pick(file1g);
const big = await withHeap(ours);

await browser.close();
server.close();
if (process.env.BENCH_CSV_KEEP !== '1') rmSync(tmp, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (runs) => median(runs.map(speed));
const all = (runs) => runs.map((r) => fmt(speed(r))).join(', ');
// Same-run ratio, run by run (alternating, so both saw the same load), then its median.
const ratio = median(oursRuns.map((r, i) => speed(r) / speed(papaRuns[i])));
const BUDGET = 150;
const HEAP_BUDGET = HEAP_CAP;
const lines = [
  [`CSV to validated counts in the worker, ${fmt(size200 / MiB)} MiB, ${fmt(rows200)} rows (median of ${RUNS}; runs ${all(oursRuns)})`, `${fmt(best(oursRuns))} MiB/s`, `>= ${BUDGET} MiB/s`, best(oursRuns) >= BUDGET],
  [`Papa Parse 5 in a worker, parse only, same file, same run (runs ${all(papaRuns)})`, `${fmt(best(papaRuns))} MiB/s`, '(beside ours)', true],
  [`  ours / Papa Parse, run by run (median)`, `${fmt(ratio, 2)}x`, '>= 1x', ratio >= 1],
  [`  for comparison: scan() handing every batch to the page (runs ${all(toPageRuns)})`, `${fmt(best(toPageRuns))} MiB/s`, '', true],
  [`1 GiB CSV (${fmt(size1g / MiB)} MiB, ${fmt(big.rows)} rows) through the worker, V8 old space capped at ${HEAP_CAP} MiB`, `${fmt(speed(big))} MiB/s, ${fmt(big.ms / 1000, 1)} s`, '', true],
  [`  worker JS heap during it (${big.heap.samples} samples, first ${fmt(big.heap.first / MiB, 1)} MiB; 200 MiB runs: peaks ${oursRuns.map((r) => fmt(r.heap.peak / MiB, 1)).join(', ')} MiB)`, `peak ${fmt(big.heap.peak / MiB, 1)} MiB`, `<= ${HEAP_BUDGET} MiB`, big.heap.samples > 0 && big.heap.peak / MiB <= HEAP_BUDGET],
];
for (const [what, value, budget, ok] of lines) console.log(`${ok ? ' ' : '!'} ${what.padEnd(96)} ${value.padStart(22)}  ${budget}`);
