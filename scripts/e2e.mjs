#!/usr/bin/env node
// `npm run test:e2e`: build the app if needed, then run Playwright against the real server.
// Playwright's webServer (playwright.config.ts) starts server/main.ts on a fresh data folder, so every
// run starts from the seeded demo archive. Extra arguments go to `playwright test`.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './start.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = spawnSync('npx', ['tsx', 'scripts/check-test-tools.ts', '--browser'], { cwd: root, stdio: 'inherit' });
if (tools.status !== 0) process.exit(tools.status ?? 1);
buildIfNeeded();
const port = Number(process.env.E2E_PORT ?? 8181);
for (const p of [port, port + 1, port + 2]) rmSync(new URL(`../.tmp/e2e-data-${p}`, import.meta.url), { recursive: true, force: true });
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
