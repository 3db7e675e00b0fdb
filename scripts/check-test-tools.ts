/**
 * Run first by `npm test` (and by `npm run test:e2e`): the suite needs two programs from the
 * operating system that npm cannot install, Chromium for the browser tests and PostgreSQL's server
 * binaries for the job tests (tests/server/jobs-kill.test.ts and jobs-two-processes.test.ts each start a cluster of their own).
 * Without them the run used to spend 8 minutes on unit tests and then fail late; this says at once
 * what is missing and the one command that installs it. `--browser` checks Chromium only.
 */
import { existsSync } from 'node:fs';
import { findPgBin } from '../tests/server/pg-cluster';

function chromiumPath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

const browserOnly = process.argv.includes('--browser');
const missing: { what: string; debian: string; instead: string }[] = [];
if (!existsSync(chromiumPath())) {
  missing.push({ what: `Chromium for the browser tests (looked for ${chromiumPath()})`, debian: 'chromium', instead: 'CHROME_PATH' });
}
if (!browserOnly && !findPgBin()) {
  missing.push({ what: 'PostgreSQL server binaries (initdb, pg_ctl) for the job tests', debian: 'postgresql', instead: 'PG_BIN' });
}

if (missing.length > 0) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  const packages = missing.map((m) => m.debian).join(' ');
  console.error('The tests cannot run on this machine yet. Missing:');
  for (const m of missing) console.error(`  - ${m.what}`);
  console.error('\nInstall with (Debian or Ubuntu):\n');
  console.error(`  ${sudo}apt-get update && ${sudo}apt-get install -y ${packages}\n`);
  console.error(`or point ${missing.map((m) => m.instead).join(' / ')} at your own copy, then run the tests again.`);
  process.exit(1);
}
