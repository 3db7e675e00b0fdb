#!/usr/bin/env node
// After `npm test` (scripts/test.mjs): what each part of the suite cost, the 10 slowest test files,
// and one closing line ("N passed, N failed"). It fails (exit 1) when a test was skipped or focused
// (a skipped test left behind checks nothing; a focused one hides the rest), and warns when the whole
// run took over 15 minutes, so the suite does not creep back to slow.
// Usage: node scripts/test-summary.mjs [.tmp/test.log]
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET_SECONDS = 15 * 60;
const read = (f) => (existsSync(`${root}${f}`) ? JSON.parse(readFileSync(`${root}${f}`, 'utf8')) : null);
const rel = (file) => (file.startsWith(root) ? file.slice(root.length) : file);
const mmss = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

let passed = 0;
let failed = 0;
let skipped = 0;
const focused = [];
const files = [];

// Vitest's JSON report: a file per entry, its tests with their status.
for (const part of ['unit', 'server']) {
  const report = read(`.tmp/vitest-${part}.json`);
  if (!report) continue;
  passed += report.numPassedTests ?? 0;
  // A file that failed without a failing test (it did not load, a hook threw) counts as one failure.
  const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && !f.assertionResults?.some((a) => a.status === 'failed'));
  failed += (report.numFailedTests ?? 0) + brokenFiles.length;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const f of report.testResults ?? []) files.push({ file: rel(f.name), seconds: (f.endTime - f.startTime) / 1000 });
}

// Playwright's JSON report: suites by file, specs, tests per project, results per attempt.
const pw = read('.tmp/playwright.json');
if (pw) {
  const byFile = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const last = t.results?.[t.results.length - 1];
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        byFile.set(spec.file, (byFile.get(spec.file) ?? 0) + ms);
        if (t.status === 'skipped' || !last) skipped += 1;
        else if (t.status === 'expected') passed += 1;
        else failed += 1;
      }
    }
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of pw.suites ?? []) walk(s);
  for (const [file, ms] of byFile) files.push({ file: `e2e/${file}`, seconds: ms / 1000 });
  for (const e of pw.errors ?? []) if (/test\.only|forbid/i.test(e.message ?? '')) focused.push(e.message.split('\n')[0]);
}

// A focused test in vitest: it refuses to run with allowOnly false (vitest.config.ts) and says so.
const log = process.argv[2] && existsSync(process.argv[2]) ? readFileSync(process.argv[2], 'utf8') : '';
// eslint-disable-next-line no-control-regex -- ANSI colour codes are what we strip
for (const line of log.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) if (/Unexpected \.only modifier|focused item\(s\) found/i.test(line)) focused.push(line.trim());

// Parts of one step run side by side (scripts/test.mjs): the run took from the first start to the
// last end, not the sum of the parts.
const times = read('.tmp/test-times.json') ?? [];
const total = times.length > 0 ? Math.max(...times.map((t) => t.end)) - Math.min(...times.map((t) => t.start)) : 0;
const beside = (t) =>
  times
    .filter((o) => o !== t && o.start < t.end && t.start < o.end)
    .map((o) => o.part)
    .join(', ');
if (times.length > 0) {
  console.log('\nTime by part:');
  for (const t of times) {
    const others = beside(t);
    console.log(`  ${t.part.padEnd(10)} ${mmss(t.seconds).padStart(6)}${others ? `  (beside ${others})` : ''}${t.status === 0 ? '' : '  (failed)'}`);
  }
  console.log(`  ${'total'.padEnd(10)} ${mmss(total).padStart(6)}`);
}
if (files.length > 0) {
  console.log('\nThe 10 slowest test files (browser files: the sum of their tests):');
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) console.log(`  ${mmss(f.seconds).padStart(6)}  ${f.file}`);
}

let bad = false;
if (skipped > 0) {
  console.log(`\n${skipped} test(s) skipped: a skipped test checks nothing. Fix it or remove it.`);
  bad = true;
}
if (focused.length > 0) {
  console.log(`\nA focused test (.only) was left behind:\n  ${[...new Set(focused)].join('\n  ')}`);
  bad = true;
}
if (total > BUDGET_SECONDS) console.log(`\nWarning: the run took ${mmss(total)}, over its ${mmss(BUDGET_SECONDS)} budget. See the slowest files above.`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(bad ? 1 : 0);
