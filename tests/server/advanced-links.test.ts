/**
 * GET api/AdvancedLinks/databases/{db} (src/api/advanced-links.ts): an archive's links (its own, its
 * parents', the database's) for users who may view the archive, one link by id, and the refusals:
 * no view right 403, unknown database / archive / link 404, neither or both of archiveId and id 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvancedLink, AdvancedLinkList, advancedLinkPaths } from '../../src/api/advanced-links';
import { ErrorBody } from '../../src/api/errors';
import { SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
  for (const u of ['user', 'viewer', 'admin']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const get = (query: string, user = 'user', db = 1) =>
  s.app.inject({ method: 'GET', url: `${advancedLinkPaths.links(db)}${query}`, headers: { 'auth-token': tokens[user] as string } });

describe('GET api/AdvancedLinks/databases/{db}', () => {
  it("answers an archive's links with their templates to a user who may view it", async () => {
    const r = await get(`?archiveId=${A.invoices}`);
    expect(r.statusCode, r.body).toBe(200);
    const links = AdvancedLinkList.parse(r.json());
    expect(links).toEqual([
      { Id: expect.any(Number), Name: 'Customer in CRM', FieldId: 6, ArchiveId: A.invoices, UrlPattern: 'https://crm.example.com/search?q={Customer}&doc={DocumentID}&archive={ArchiveID}' },
    ]);
    // The viewer (read rights on Invoices) reads them too; Contracts has its own link only.
    expect(AdvancedLinkList.parse((await get(`?archiveId=${A.invoices}`, 'viewer')).json())).toEqual(links);
    const contracts = AdvancedLinkList.parse((await get(`?archiveId=${A.contracts}`)).json());
    expect(contracts.map((l) => l.Name)).toEqual(['Contract register']);
  });

  it("gives a sub-archive its parents' links and every archive the database-wide ones", async () => {
    const wide = await s.store.query<{ id: number }>(
      "INSERT INTO advanced_links (database_id, archive_id, name, url_pattern) VALUES (1, NULL, 'All documents', 'https://dms.example.com/{DocumentID}') RETURNING id",
    );
    try {
      const paid = AdvancedLinkList.parse((await get(`?archiveId=${A.paidInvoices}`)).json());
      expect(paid.map((l) => l.Name)).toEqual(['All documents', 'Customer in CRM']);
      const corr = AdvancedLinkList.parse((await get(`?archiveId=${A.correspondence}`)).json());
      expect(corr.map((l) => l.Name)).toEqual(['All documents']);
      const one = await get(`?id=${wide.rows[0]!.id}`, 'viewer');
      expect(one.statusCode, one.body).toBe(200);
      expect(AdvancedLink.parse(one.json()).ArchiveId).toBeNull();
    } finally {
      await s.store.query('DELETE FROM advanced_links WHERE id = $1', [wide.rows[0]!.id]);
    }
  });

  it('answers one link by id, and refuses it to a user who may not view its archive', async () => {
    const [crm] = AdvancedLinkList.parse((await get(`?archiveId=${A.invoices}`)).json());
    const r = await get(`?id=${crm!.Id}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(AdvancedLink.parse(r.json())).toEqual(crm);
    const [register] = AdvancedLinkList.parse((await get(`?archiveId=${A.contracts}`)).json());
    // The viewer has no right on Contracts.
    const refused = await get(`?id=${register!.Id}`, 'viewer');
    expect(refused.statusCode).toBe(403);
    expect(ErrorBody.parse(refused.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
  });

  it('refuses an archive the user may not view (403), with no link in the answer', async () => {
    const r = await get(`?archiveId=${A.contracts}`, 'viewer');
    expect(r.statusCode).toBe(403);
    expect(r.body).not.toContain('register.example.com');
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    // HR Files: no right for the user, but the administrators' group has one.
    expect((await get(`?archiveId=${A.hrFiles}`)).statusCode).toBe(403);
    expect((await get(`?archiveId=${A.hrFiles}`, 'admin')).statusCode).toBe(200);
  });

  it('says 404 for an unknown database, archive or link, and 400 for missing or bad parameters', async () => {
    expect((await get(`?archiveId=${A.invoices}`, 'user', 99)).statusCode).toBe(404);
    expect((await get('?archiveId=9999')).statusCode).toBe(404);
    // An archive of another database is unknown in this one.
    expect((await get(`?archiveId=${A.records}`)).statusCode).toBe(404);
    expect((await get('?id=9999')).statusCode).toBe(404);
    for (const q of ['', '?archiveId=abc', '?archiveId=-1', '?id=0', `?archiveId=${A.invoices}&id=1`]) {
      const r = await get(q);
      expect(r.statusCode, q).toBe(400);
      expect(ErrorBody.parse(r.json()).Key, q).toBe('ERROR_INCORRECT_PARAMETERS');
    }
    const anon = await s.app.inject({ method: 'GET', url: `${advancedLinkPaths.links(1)}?archiveId=${A.invoices}` });
    expect(anon.statusCode).toBe(401);
  });
});
