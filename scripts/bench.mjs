#!/usr/bin/env node
// `npm run bench`: runs every bench/*.mjs in turn; each prints its figures beside their budgets
// (docs/development.md "Budgets"). Not part of the pass/fail suite.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './start.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
buildIfNeeded();
let failed = 0;
for (const file of readdirSync(new URL('../bench', import.meta.url)).filter((f) => f.endsWith('.mjs')).sort()) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync('node', [`bench/${file}`], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
