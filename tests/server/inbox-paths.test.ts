/**
 * Every inbox path is checked by the server (issue 11: "Inbox paths with `..` or absolute paths are
 * refused"): each call that names an inbox file (move, rename, send, delete, export, thumbnail, file)
 * answers 400 ERROR_INCORRECT_PARAMETERS for a name with `..`, an absolute or UNC path, a backslash,
 * a drive letter, a NUL or other control character, and nothing changes; the pure rule itself
 * (src/api/inboxes.ts inboxNameProblem) is tested case by case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxNameProblem, inboxPaths } from '../../src/api/inboxes';
import { SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const I = SEED_IDS.inbox;
let s: TestServer;
let token = '';
let before: string[] = [];
const filesNow = async () => (await s.store.query<{ k: string }>("SELECT inbox_id || '/' || file_name AS k FROM inbox_files ORDER BY 1")).rows.map((r) => r.k);

beforeAll(async () => {
  s = await startServer();
  token = await signIn(s, 'user');
  before = await filesNow();
  expect(before.length).toBeGreaterThan(2);
});
afterAll(async () => {
  await s?.close();
});

/** Names that try to leave the inbox or that no file system would take. */
const BAD: [string, string][] = [
  ['parent', '..'],
  ['dot', '.'],
  ['parent path', '../scan-001.pdf'],
  ['deep parent path', 'a/../../etc/passwd'],
  ['parent with backslash', '..\\scan-001.pdf'],
  ['absolute path', '/etc/passwd'],
  ['absolute in the inbox', '/scan-001.pdf'],
  ['UNC path', '\\\\server\\share\\x.pdf'],
  ['backslash', 'sub\\scan-001.pdf'],
  ['drive letter', 'C:scan-001.pdf'],
  ['drive path', 'C:\\Windows\\win.ini'],
  ['NUL', 'scan-001.pdf\u0000.txt'],
  ['control character', 'scan\u0001.pdf'],
  ['folder', 'sub/scan-001.pdf'],
  ['empty', ''],
  ['trailing dot', 'scan-001.pdf.'],
];

describe('inboxNameProblem', () => {
  it.each(BAD)('refuses %s', (_what, name) => {
    expect(inboxNameProblem(name)).not.toBeNull();
  });
  it('takes ordinary names, with spaces, dots inside and any script', () => {
    for (const n of ['scan-001.pdf', 'Invoice 2026.03 (2).tif', '.hidden', 'Überweisung ändern.pdf', '請求書.pdf', 'a..b.pdf']) expect(inboxNameProblem(n), n).toBeNull();
  });
  it('refuses names over 255 characters', () => {
    expect(inboxNameProblem(`${'a'.repeat(252)}.pdf`)).toBe('too-long');
  });
});

type Call = { name: string; run: (bad: string) => Promise<{ statusCode: number; json: () => unknown }> };
const headers = () => ({ 'auth-token': token });
const CALLS: Call[] = [
  { name: 'move (FilePath)', run: (bad) => s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: { FilePath: bad, targetInboxId: String(I.mailroom) }, headers: headers() }) },
  { name: 'rename (FilePath)', run: (bad) => s.app.inject({ method: 'POST', url: inboxPaths.one(I.scans), query: { FilePath: bad, newFileName: 'ok.pdf' }, headers: headers() }) },
  { name: 'rename (newFileName)', run: (bad) => s.app.inject({ method: 'POST', url: inboxPaths.one(I.scans), query: { FilePath: 'scan-001.pdf', newFileName: bad }, headers: headers() }) },
  {
    name: 'send to archive (fileName)',
    run: (bad) =>
      s.app.inject({
        method: 'POST',
        url: inboxPaths.one(I.scans),
        query: { fileName: bad, destinationDatabaseId: String(SEED_IDS.db.demo), destinationArchiveId: String(SEED_IDS.archive.incoming) },
        payload: { Fields: [{ ID: 1, VAL: 'x' }] },
        headers: headers(),
      }),
  },
  { name: 'export (FilePaths)', run: (bad) => s.app.inject({ method: 'POST', url: inboxPaths.one(I.scans), query: { export: 'true' }, payload: { FilePaths: ['scan-001.pdf', bad] }, headers: headers() }) },
  { name: 'delete (FilePath)', run: (bad) => s.app.inject({ method: 'DELETE', url: inboxPaths.one(I.scans), query: { FilePath: bad }, headers: headers() }) },
  { name: 'thumbnail (FileName)', run: (bad) => s.app.inject({ method: 'GET', url: inboxPaths.thumb(I.scans), query: { FileName: bad }, headers: headers() }) },
  { name: 'file (FilePath)', run: (bad) => s.app.inject({ method: 'GET', url: inboxPaths.file(I.scans), query: { FilePath: bad }, headers: headers() }) },
];

describe('the server checks every inbox path', () => {
  for (const call of CALLS) {
    it.each(BAD)(`${call.name}: %s is refused with 400`, async (_what, bad) => {
      const r = await call.run(bad);
      expect(r.statusCode, JSON.stringify(r.json())).toBe(400);
      expect((r.json() as { Key?: string }).Key).toBe('ERROR_INCORRECT_PARAMETERS');
    });
  }

  it('changed nothing', async () => {
    expect(await filesNow()).toEqual(before);
  });
});
