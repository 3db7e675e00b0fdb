/**
 * GET api/dbs/{db}/archives/{a}/documents/{id}/fields (src/api/document-index.ts): one document as a
 * grid page of one row (the same values, Rev and Permissions the grid gets), for the viewer's indexer;
 * refused without the view right or with a wrong SecureId (403), unknown (404), bad parameters (400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentIndexPath } from '../../src/api/document-index';
import { ErrorBody } from '../../src/api/errors';
import { DocumentPage } from '../../src/api/search';
import { SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 60 } });
  for (const u of ['user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, user = 'user') => s.app.inject({ method: 'GET', url, headers: { 'auth-token': tokens[user] as string } });

describe('GET .../documents/{id}/fields', () => {
  it("answers the document as the grid's page does, with every field of the archive", async () => {
    const [d] = (await documentPool(s, A.invoices)).take(1);
    const r = await get(`${documentIndexPath(1, A.invoices, d!.id)}?SecureId=${d!.secure_hash}`);
    expect(r.statusCode, r.body).toBe(200);
    const page = DocumentPage.parse(r.json());
    expect(page.Count).toBe(1);
    expect(page.Docs).toHaveLength(1);
    const doc = page.Docs[0]!;
    expect(doc).toMatchObject({ Id: d!.id, Hash: d!.secure_hash, ArchiveId: A.invoices, Permissions: page.Permissions });
    expect(page.Permissions & 1024).toBe(1024);
    expect(doc.Fields.map((f) => f.ID)).toEqual(page.Fields.map((f) => f.ID));
    // The same values as in the search's grid page.
    const grid = await get(`/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?RecordsPerPage=10000`);
    const row = DocumentPage.parse(grid.json()).Docs.find((x) => x.Id === d!.id);
    expect(row?.Fields).toEqual(doc.Fields);
    expect(row?.Rev).toBe(doc.Rev);
    // The viewer reads it without the edit bit.
    const v = DocumentPage.parse((await get(`${documentIndexPath(1, A.invoices, d!.id)}?SecureId=${d!.secure_hash}`, 'viewer')).json());
    expect(v.Docs[0]!.Permissions & 1024).toBe(0);
  });

  it('refuses a wrong SecureId or no view right (403), unknown documents (404) and bad parameters (400)', async () => {
    const [d] = (await documentPool(s, A.invoices)).take(1);
    const [c] = (await documentPool(s, A.contracts)).take(1);
    const wrong = await get(`${documentIndexPath(1, A.invoices, d!.id)}?SecureId=nope`);
    expect(wrong.statusCode).toBe(403);
    const noRight = await get(`${documentIndexPath(1, A.contracts, c!.id)}?SecureId=${c!.secure_hash}`, 'viewer');
    expect(noRight.statusCode).toBe(403);
    expect(noRight.body).not.toContain('"Fields"');
    expect(ErrorBody.parse(noRight.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect((await get(`${documentIndexPath(1, A.invoices, 999999)}?SecureId=x`)).statusCode).toBe(404);
    expect((await get(`${documentIndexPath(1, A.contracts, d!.id)}?SecureId=${d!.secure_hash}`)).statusCode).toBe(404);
    expect((await get(documentIndexPath(1, A.invoices, d!.id))).statusCode).toBe(400);
    expect((await get(`/api/dbs/1/archives/x/documents/1/fields?SecureId=a`)).statusCode).toBe(400);
  });
});
