/**
 * The import rules of docs/architecture.md ("Imports run one way") are ESLint errors (eslint.config.js):
 * small samples linted as if they were files of the project. The imported files exist, so the
 * zones see resolved paths as they do in `npm run lint`.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fired for `code` as the file `path`. */
async function errors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const ZONES = 'import-x/no-restricted-paths';
const PACKAGES = 'no-restricted-imports';

describe('import zones', () => {
  it("a feature importing another feature's internals is an error", async () => {
    const found = await errors('src/features/results/sample.ts', "import { documentLabel } from '../editing/edit-logic';\nexport const x = documentLabel;\n");
    expect(found.join('\n')).toContain(ZONES);
    expect(found.join('\n')).toContain('A feature does not import another feature');
  });

  it('a feature importing src/app is an error', async () => {
    const found = await errors('src/features/search/sample.ts', "import { getConfig } from '../../app/config';\nexport const x = getConfig;\n");
    expect(found.join('\n')).toContain('Features do not import src/app');
  });

  it('the contract (src/api) importing i18n is an error, by path and by package', async () => {
    expect((await errors('src/api/sample.ts', "import { i18n } from '../i18n/i18n';\nexport const x = i18n;\n")).join('\n')).toContain(ZONES);
    expect((await errors('src/api/sample.ts', "import i18next from 'i18next';\nexport const x = i18next;\n")).join('\n')).toContain(PACKAGES);
  });

  it('src/fields importing from workers/ is an error', async () => {
    expect((await errors('src/fields/sample.ts', "import { expose } from '../../workers/jobs';\nexport const x = expose;\n")).join('\n')).toContain(ZONES);
  });

  it('a worker importing React, a feature or a React hook module of src/sync is an error', async () => {
    expect((await errors('workers/sample.ts', "import { useState } from 'react';\nexport const x = useState;\n")).join('\n')).toContain(PACKAGES);
    expect((await errors('workers/sample.ts', "import { documentLabel } from '../src/features/editing/edit-logic';\nexport const x = documentLabel;\n")).join('\n')).toContain(ZONES);
    expect((await errors('workers/sample.ts', "import { useOutbox } from '../src/sync/react/outbox-view';\nexport const x = useOutbox;\n")).join('\n')).toContain(PACKAGES);
  });

  it('src/sync outside its hook files imports no React; a hook file may', async () => {
    expect((await errors('src/sync/sample.ts', "import { useEffect } from 'react';\nexport const x = useEffect;\n")).join('\n')).toContain(PACKAGES);
    expect(await errors('src/sync/react/sample.ts', "import { useEffect } from 'react';\nexport const x = useEffect;\n")).toEqual([]);
  });

  it('the drain side of src/sync touches no window or document (it runs in workers); the page triggers may', async () => {
    expect((await errors('src/sync/sample.ts', "export const online = () => window.navigator.onLine;\n")).join('\n')).toContain('no-restricted-globals');
    expect(await errors('src/sync/triggers.ts', "export const visible = () => document.visibilityState === 'visible';\n")).toEqual([]);
  });

  it('allowed imports are not errors: a feature its own files and shared layers, a route features, a worker sync', async () => {
    expect(
      await errors(
        'src/features/results/sample.ts',
        "import { buildRows } from './grid-logic';\nimport { outboxTarget } from '../../sync/outbox';\nimport { documentLabelOf } from '../../fields/document-label';\nexport const x = [buildRows, outboxTarget, documentLabelOf];\n",
      ),
    ).toEqual([]);
    expect(await errors('src/app/routes/sample.tsx', "import { useResultsEditing } from '../../features/editing/use-results-editing';\nexport const x = useResultsEditing;\n")).toEqual([]);
    expect(await errors('workers/sample.ts', "import { drain } from '../src/sync/drain';\nexport const x = drain;\n")).toEqual([]);
  });
});
