/**
 * Vitest global setup: a folder for this run's seeded server snapshots (tests/server/helpers.ts),
 * removed when the run ends. The test files' processes inherit its path from the environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where this run keeps its seeded snapshots (unset: every test server seeds itself). */
export const SNAPSHOTS_ENV = 'TEST_SERVER_SNAPSHOTS';

export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'server-snapshots-'));
  process.env[SNAPSHOTS_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
