#!/usr/bin/env node
// `npm test`: every part of the suite, in steps, stopping after the first step in which a part
// failed, each part timed. A step's parts run side by side: the first streams its output, the
// others' is kept and printed whole when each ends, so that no two parts' lines interleave. The
// times (start and end of each part) go to .tmp/test-times.json, and the test runners' own reports
// (per file, with durations and skipped counts) to .tmp/vitest-*.json and .tmp/playwright.json, for
// scripts/test-summary.mjs.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = `${root}.tmp`;
mkdirSync(tmp, { recursive: true });
for (const f of ['test-times.json', 'vitest-unit.json', 'vitest-server.json', 'playwright.json']) rmSync(`${tmp}/${f}`, { force: true });

const vitest = (name, args) => ['npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=.tmp/vitest-${name}.json`]];
const steps = [
  [{ name: 'tools', run: ['npx', ['tsx', 'scripts/check-test-tools.ts']] }],
  // The type checker and the linter each keep about one CPU busy, and neither waits on the other.
  [
    { name: 'typecheck', run: ['npm', ['run', 'typecheck']] },
    { name: 'lint', run: ['npm', ['run', 'lint']] },
  ],
  [{ name: 'unit', run: vitest('unit', ['--exclude', 'tests/server/**']) }],
  // The server's tests (real servers, PGlite, PostgreSQL clusters) apart from the rest, so that the
  // summary can say what each costs; and not beside the browser's: on 2 CPUs the two side by side
  // took 15:02 against 15:28 one after the other, and every test of both ran slower.
  [{ name: 'server', run: vitest('server', ['tests/server']) }],
  [{ name: 'browser', run: ['node', ['scripts/e2e.mjs']], env: { E2E_JSON_REPORT: '.tmp/playwright.json' } }],
];

const times = [];
const runPart = (part, stream) =>
  new Promise((resolve) => {
    const started = Date.now();
    const [cmd, args] = part.run;
    const child = spawn(cmd, args, { cwd: root, stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...part.env } });
    const kept = [];
    if (!stream) {
      child.stdout.on('data', (d) => kept.push(d));
      child.stderr.on('data', (d) => kept.push(d));
    }
    let ended = false;
    const done = (status) => {
      if (ended) return;
      ended = true;
      const now = Date.now();
      if (!stream) process.stdout.write(`\n=== ${part.name} (ran beside the above) ===\n${Buffer.concat(kept).toString()}`);
      times.push({ part: part.name, seconds: (now - started) / 1000, start: started / 1000, end: now / 1000, status });
      writeFileSync(`${tmp}/test-times.json`, JSON.stringify(times, null, 2));
      resolve(status);
    };
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });

let status = 0;
for (const step of steps) {
  console.log(`\n=== ${step.map((p) => p.name).join(' | ')} ===`);
  const results = await Promise.all(step.map((part, i) => runPart(part, i === 0)));
  const failed = step.filter((_, i) => results[i] !== 0);
  if (failed.length > 0) {
    status = results.find((r) => r !== 0);
    console.error(`\n${failed.map((p) => p.name).join(', ')} failed: the later parts were not run.`);
    break;
  }
}
process.exit(status);
