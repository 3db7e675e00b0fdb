// `npm test` first checks the two programs npm cannot install (scripts/check-test-tools.ts), so a
// machine without them stops at once with the command that installs them, not after the unit run.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function check(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync('npx', ['tsx', 'scripts/check-test-tools.ts', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the test-tools check', () => {
  it('names what is missing and the one command that installs both', () => {
    const r = check({ CHROME_PATH: '/nonexistent/chromium', PG_BIN: '/nonexistent/pg' });
    expect(r.status).toBe(1);
    expect(r.out).toContain('Chromium for the browser tests (looked for /nonexistent/chromium)');
    expect(r.out).toContain('PostgreSQL server binaries');
    expect(r.out).toMatch(/apt-get update && (sudo )?apt-get install -y chromium postgresql/);
  });

  it('asks only for Chromium before the browser tests alone', () => {
    const r = check({ CHROME_PATH: '/nonexistent/chromium', PG_BIN: '/nonexistent/pg' }, '--browser');
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/apt-get install -y chromium\n/);
    expect(r.out).not.toContain('PostgreSQL');
  });

  it('passes quietly where both are found', () => {
    const r = check({ CHROME_PATH: process.execPath });
    if (r.status !== 0) throw new Error(r.out);
    expect(r.out).toBe('');
  });
});
