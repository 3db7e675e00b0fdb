/**
 * Viewer sessions (the user-app spec §3, §7 POST session; contract src/api/viewer.ts): a session keeps the
 * documents of a result page for the user who made it, answers each with its file type and pages,
 * refuses a document the user may not view, a wrong Hash and a missing document, and is not readable
 * by another user; a document deleted since comes back as not available.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { ViewerSession, ViewerSessionCreated, viewerPaths } from '../../src/api/viewer';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
let invoices: Awaited<ReturnType<typeof documentPool>>;
let contracts: Awaited<ReturnType<typeof documentPool>>;

beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  for (const u of ['user', 'viewer', 'clerk']) tokens[u] = await signIn(s, u);
  invoices = await documentPool(s, A.invoices);
  contracts = await documentPool(s, A.contracts);
});
afterAll(async () => {
  await s?.close();
});

const asDoc = (d: PoolDoc) => ({ Archive: d.archive_id, Id: d.id, Hash: d.secure_hash });
const create = (body: unknown, user = 'user') =>
  s.app.inject({ method: 'POST', url: viewerPaths.session(), headers: { 'auth-token': tokens[user] as string }, payload: body as object });
const read = (id: string, user = 'user') => s.app.inject({ method: 'GET', url: viewerPaths.session(id), headers: { 'auth-token': tokens[user] as string } });

describe('POST/GET api/session', () => {
  it('keeps the documents in their order and answers each with its type, pages, name and title', async () => {
    const docs = invoices.take(3);
    const r = await create({ Database: 1, SearchId: 7, SearchCriteria: 'x', Documents: [...docs.map(asDoc), { ...asDoc(contracts.take(1)[0]!), ContentSearchTerms: 'term' }] });
    expect(r.statusCode, r.body).toBe(200);
    const { Id } = ViewerSessionCreated.parse(r.json());
    const g = await read(Id);
    expect(g.statusCode, g.body).toBe(200);
    const session = ViewerSession.parse(g.json());
    expect(session).toMatchObject({ Id, Database: 1, SearchId: 7, SearchCriteria: 'x' });
    expect(session.Documents.map((d) => d.Id)).toEqual([...docs.map((d) => d.id), session.Documents[3]!.Id]);
    expect(session.Documents[3]!.ContentSearchTerms).toBe('term');
    for (const d of session.Documents) {
      const stored = (await s.store.query<{ file_type: string; n: number; pages: number; title: string }>(
        `SELECT (SELECT file_type FROM document_files WHERE document_id = $1 ORDER BY position, id LIMIT 1) AS file_type,
                (SELECT fields->>'${F.title}' FROM documents WHERE id = $1) AS title,
                (SELECT count(*) FROM document_files WHERE document_id = $1)::int AS n,
                (SELECT count(*) FROM document_pages WHERE document_id = $1)::int AS pages`,
        [d.Id],
      )).rows[0]!;
      expect(d.Available).toBe(true);
      expect(d.FileType).toBe(Number(stored.n) > 1 ? 'PDF' : stored.file_type);
      expect(d.Pages).toBe(Number(stored.pages));
      expect(d.Pages).toBeGreaterThan(0);
      // Named as the grid names it: by its Title (the archives' first character field), not its file name.
      expect(d.Title).toBe(stored.title);
      expect(d.Title).toBeTruthy();
    }
  });

  it('refuses a document the user may not view (403), a wrong Hash (403) and a missing document (404)', async () => {
    const [c] = contracts.take(1);
    const [inv] = invoices.take(1);
    // The viewer has no rights on Contracts.
    const noRight = await create({ Database: 1, Documents: [asDoc(inv!), asDoc(c!)] }, 'viewer');
    expect(noRight.statusCode).toBe(403);
    expect(ErrorBody.parse(noRight.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const wrongHash = await create({ Database: 1, Documents: [{ ...asDoc(inv!), Hash: 'nope' }] });
    expect(wrongHash.statusCode).toBe(403);
    const missing = await create({ Database: 1, Documents: [{ ...asDoc(inv!), Id: 99_999_999 }] });
    expect(missing.statusCode).toBe(404);
    const otherArchive = await create({ Database: 1, Documents: [{ ...asDoc(inv!), Archive: A.contracts }] });
    expect(otherArchive.statusCode).toBe(404);
    const noDb = await create({ Database: 999, Documents: [asDoc(inv!)] });
    expect(noDb.statusCode).toBe(404);
  });

  it('refuses a malformed body (400) and a call without a token (401)', async () => {
    expect((await create({ Database: 1, Documents: [] })).statusCode).toBe(400);
    expect((await create({ Documents: [{ Archive: 1, Id: 1, Hash: 'x' }] })).statusCode).toBe(400);
    const anon = await s.app.inject({ method: 'POST', url: viewerPaths.session(), payload: { Database: 1, Documents: [{ Archive: 1, Id: 1, Hash: 'x' }] } });
    expect(anon.statusCode).toBe(401);
  });

  it("is the user's own: another user's id is not found", async () => {
    const [inv] = invoices.take(1);
    const { Id } = ViewerSessionCreated.parse((await create({ Database: 1, Documents: [asDoc(inv!)] })).json());
    expect((await read(Id, 'clerk')).statusCode).toBe(404);
    expect((await read('no-such-session')).statusCode).toBe(404);
  });

  it('answers a document deleted since the session was made as not available', async () => {
    const [a, b] = invoices.take(2);
    const { Id } = ViewerSessionCreated.parse((await create({ Database: 1, Documents: [asDoc(a!), asDoc(b!)] })).json());
    await s.store.query('UPDATE documents SET deleted = true WHERE id = $1', [b!.id]);
    const session = ViewerSession.parse((await read(Id)).json());
    expect(session.Documents.map((d) => d.Available)).toEqual([true, false]);
    expect(session.Documents[1]!.FileType).toBeUndefined();
  });

  it("answers a Version of the document's pages that changes with a rotation, not with index values", async () => {
    const [a] = invoices.take(1);
    const { Id } = ViewerSessionCreated.parse((await create({ Database: 1, Documents: [asDoc(a!)] })).json());
    const version = async () => ViewerSession.parse((await read(Id)).json()).Documents[0]!.Version;
    const v1 = await version();
    expect(v1).toMatch(/^[0-9a-f]{20}$/);
    await s.store.query("UPDATE documents SET file_name = 'renamed.pdf' WHERE id = $1", [a!.id]);
    expect(await version()).toBe(v1);
    await s.store.query('UPDATE document_pages SET rotation = 90 WHERE document_id = $1 AND page_no = 1', [a!.id]);
    const v2 = await version();
    expect(v2).not.toBe(v1);
    await s.store.query('UPDATE document_pages SET rotation = 0 WHERE document_id = $1 AND page_no = 1', [a!.id]);
    expect(await version()).toBe(v1);
  });
});
