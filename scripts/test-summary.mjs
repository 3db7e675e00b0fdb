#!/usr/bin/env node
// Adds up what vitest and Playwright printed in one `npm test` log, as one plain closing line
// ("N passed, N failed"), so a reader of CI's output sees the whole count at the end.
import { readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex -- ANSI colour codes are what we strip
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const log = strip(readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of log.split('\n')) {
  const vt = line.match(/^\s*Tests\s+(.*)\(\d+\)\s*$/); // vitest: "Tests  3 failed | 120 passed (123)"
  if (vt) {
    passed += Number(vt[1].match(/(\d+) passed/)?.[1] ?? 0);
    failed += Number(vt[1].match(/(\d+) failed/)?.[1] ?? 0);
    skipped += Number(vt[1].match(/(\d+) skipped/)?.[1] ?? 0);
    continue;
  }
  const pw = line.match(/^\s*(\d+) (passed|failed|flaky|skipped|did not run)\b/); // Playwright summary
  if (pw) {
    const n = Number(pw[1]);
    if (pw[2] === 'passed') passed += n;
    else if (pw[2] === 'skipped' || pw[2] === 'did not run') skipped += n;
    else failed += n;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
