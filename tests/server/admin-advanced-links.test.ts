/**
 * Advanced links, the administration's writes (the console spec §3, §7; src/api/admin-advanced-links.ts):
 * administrators only, archive and field checked, only http(s) templates, and what is saved is what
 * the user side reads at once (GET api/AdvancedLinks/databases/{db}?archiveId=).
 */
import { describe, expect, it } from 'vitest';
import { advancedLinkAdminPaths, type AdvancedLinkInput } from '../../src/api/admin-advanced-links';
import { AdvancedLink, AdvancedLinkList } from '../../src/api/advanced-links';
import { ErrorBody } from '../../src/api/errors';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { adminTestServer, type Method } from './admin-calls';

const A = SEED_IDS.archive;
const DB = SEED_IDS.db.demo;
const { call } = adminTestServer(5);


const link = (over: Partial<AdvancedLinkInput> = {}): AdvancedLinkInput => ({
  Name: 'Invoice in ERP',
  ArchiveId: A.invoices,
  FieldId: F.invoiceNumber,
  UrlPattern: 'https://erp.example.com/invoice/{Invoice Number}?doc={DocumentID}',
  ...over,
});
const links = advancedLinkAdminPaths.links(DB);

describe('admin advanced links', () => {
  it('refuses every write and the admin list to a user who is not a database administrator (403)', async () => {
    const before = AdvancedLinkList.parse((await call('GET', advancedLinkAdminPaths.adminList(DB))).json());
    const seeded = before[0]!;
    const calls: [Method, string, unknown?][] = [
      ['GET', advancedLinkAdminPaths.adminList(DB)],
      ['POST', links, link()],
      ['PUT', `${links}?id=${seeded.Id}`, link()],
      ['DELETE', `${links}?id=${seeded.Id}`],
    ];
    for (const u of ['user', 'viewer']) {
      for (const [m, url, body] of calls) {
        const r = await call(m, url, body, u);
        expect(r.statusCode, `${u} ${m} ${url}`).toBe(403);
        expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
      }
    }
    expect(AdvancedLinkList.parse((await call('GET', advancedLinkAdminPaths.adminList(DB))).json())).toEqual(before);
  });

  it('creates a link the user side reads at once, updates and deletes it', async () => {
    const r = await call('POST', links, link());
    expect(r.statusCode, r.body).toBe(200);
    const created = AdvancedLink.parse(r.json());
    expect(created).toMatchObject({ Name: 'Invoice in ERP', ArchiveId: A.invoices, FieldId: F.invoiceNumber });
    const seen = AdvancedLinkList.parse((await call('GET', `${links}?archiveId=${A.invoices}`, undefined, 'user')).json());
    expect(seen.map((l) => l.Name)).toContain('Invoice in ERP');

    const upd = await call('PUT', `${links}?id=${created.Id}`, link({ Name: 'Everywhere', ArchiveId: null, FieldId: null, UrlPattern: 'http://example.com/{ArchiveID}/{DocumentID}' }));
    expect(upd.statusCode, upd.body).toBe(200);
    expect(AdvancedLink.parse(upd.json())).toMatchObject({ Name: 'Everywhere', ArchiveId: null, FieldId: null });
    // A database-wide link is read for every archive.
    const corr = AdvancedLinkList.parse((await call('GET', `${links}?archiveId=${A.correspondence}`, undefined, 'user')).json());
    expect(corr.map((l) => l.Name)).toContain('Everywhere');
    const own = AdvancedLinkList.parse((await call('GET', `${advancedLinkAdminPaths.adminList(DB)}?archiveId=${A.invoices}`)).json());
    expect(own.map((l) => l.Name)).toContain('Customer in CRM');
    expect(own.every((l) => l.ArchiveId === A.invoices)).toBe(true);

    expect((await call('DELETE', `${links}?id=${created.Id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `${links}?id=${created.Id}`)).statusCode).toBe(404);
    expect((await call('PUT', `${links}?id=${created.Id}`, link())).statusCode).toBe(404);
  });

  it('refuses a template that is not an http(s) address, a foreign archive or field, and a missing id', async () => {
    for (const UrlPattern of ['javascript:alert(1)//{DocumentID}', '/relative/{DocumentID}', '{Customer}', 'data:text/html,hi']) {
      const r = await call('POST', links, link({ UrlPattern }));
      expect(r.statusCode, UrlPattern).toBe(400);
      expect(ErrorBody.parse(r.json()).Key).toBe('ADMIN_LINK_NOT_HTTP');
    }
    expect((await call('POST', links, link({ ArchiveId: A.records }))).statusCode).toBe(400);
    expect((await call('POST', links, link({ FieldId: F.notes }))).statusCode).toBe(400);
    expect((await call('POST', links, link({ ArchiveId: null, FieldId: F.recTitle }))).statusCode).toBe(400);
    expect((await call('POST', links, link({ Name: '' }))).statusCode).toBe(400);
    expect((await call('PUT', links, link())).statusCode).toBe(400);
    expect((await call('DELETE', links)).statusCode).toBe(400);
  });
});
