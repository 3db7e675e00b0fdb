import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every source file under dir. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('the wait modal', () => {
  it('is used only for short blocking work (sign-in, obtaining a licence), never for jobs', () => {
    const users = files('src')
      .filter((f) => !f.endsWith(join('ui', 'wait-modal.tsx')))
      .filter((f) => /from '[./]*\/?ui\/wait-modal'|from '\.\/wait-modal'/.test(readFileSync(f, 'utf8')))
      .sort();
    expect(users).toEqual([join('src', 'app', 'routes', 'direct.tsx'), join('src', 'app', 'routes', 'login.tsx')]);
  });
});
