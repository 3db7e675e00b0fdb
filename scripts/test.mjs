#!/usr/bin/env node
// `npm test`: every part of the suite in turn, stopping at the first that fails, each timed. The
// times go to .tmp/test-times.json, and the test runners' own reports (per file, with durations and
// skipped counts) to .tmp/vitest-*.json and .tmp/playwright.json, for scripts/test-summary.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = `${root}.tmp`;
mkdirSync(tmp, { recursive: true });
for (const f of ['test-times.json', 'vitest-unit.json', 'vitest-server.json', 'playwright.json']) rmSync(`${tmp}/${f}`, { force: true });

const vitest = (name, args) => ['npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=.tmp/vitest-${name}.json`]];
const parts = [
  { name: 'tools', run: ['npx', ['tsx', 'scripts/check-test-tools.ts']] },
  { name: 'typecheck', run: ['npm', ['run', 'typecheck']] },
  { name: 'lint', run: ['npm', ['run', 'lint']] },
  // The server's tests (real servers, PGlite, a PostgreSQL cluster) apart from the rest, so that the
  // summary can say what each costs.
  { name: 'unit', run: vitest('unit', ['--exclude', 'tests/server/**']) },
  { name: 'server', run: vitest('server', ['tests/server']) },
  { name: 'browser', run: ['node', ['scripts/e2e.mjs']], env: { E2E_JSON_REPORT: '.tmp/playwright.json' } },
];

const times = [];
let status = 0;
for (const part of parts) {
  const started = Date.now();
  console.log(`\n=== ${part.name} ===`);
  const [cmd, args] = part.run;
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...part.env } });
  times.push({ part: part.name, seconds: (Date.now() - started) / 1000, status: r.status ?? 1 });
  writeFileSync(`${tmp}/test-times.json`, JSON.stringify(times, null, 2));
  if (r.status !== 0) {
    status = r.status ?? 1;
    console.error(`\n${part.name} failed: the later parts were not run.`);
    break;
  }
}
process.exit(status);
