import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Archive, ArchiveList, FieldList, ListItems, ViewTabList } from '../../src/api/archives';
import { ErrorBody } from '../../src/api/errors';
import { CITIES, CUSTOMERS, DEPARTMENTS, F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer({ seed: { docs: 60 } });
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, user = 'user') => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${tokens[user]}` });
const items = async (url: string, user = 'user') => {
  const r = await get(url, user);
  expect(r.statusCode, r.body).toBe(200);
  return ListItems.parse(r.json()).Items;
};

describe('GET /api/dbs/{db}/archives', () => {
  it('lists the archives the user may view, parents first, with counts and rights', async () => {
    const list = ArchiveList.parse((await get('/api/dbs/1/archives')).json());
    expect(list.map((a) => a.Id)).toEqual([A.invoices, A.paidInvoices, A.contracts, A.contractVersions, A.correspondence, A.incoming, A.outgoing]);
    const counts = await s.store.query<{ archive_id: number; n: number }>('SELECT archive_id, count(*) AS n FROM documents GROUP BY archive_id');
    for (const a of list) expect(a.Count).toBe(Number(counts.rows.find((r) => r.archive_id === a.Id)?.n ?? 0));
    expect(list.find((a) => a.Id === A.paidInvoices)?.Parent).toBe(A.invoices);
    expect(list.find((a) => a.Id === A.contracts)?.Props).toBe(5);
    expect(list.every((a) => ((a.Permissions ?? 0) & 1) === 1)).toBe(true);
    const viewer = ArchiveList.parse((await get('/api/dbs/1/archives', 'viewer')).json());
    expect(viewer.map((a) => a.Id)).toEqual([A.invoices, A.paidInvoices, A.correspondence]);
  });

  it('type=fields, type=tabs, type=info and index= for children', async () => {
    const fields = FieldList.parse((await get(`/api/dbs/1/archives/${A.correspondence}?type=fields`)).json());
    expect(fields.map((f) => f.ID)).toContain(F.city);
    expect(fields.find((f) => f.ID === F.city)).toMatchObject({ Prop: 128, List: SEED_IDS.list.cities, ListF1: F.country, ListF2: F.region, MultiValue: false });
    expect(fields.find((f) => f.ID === F.tags)).toMatchObject({ MultiValue: true, Prop: 32 });
    const tabs = ViewTabList.parse((await get(`/api/dbs/1/archives/${A.invoices}?type=tabs`)).json());
    expect(tabs.map((t) => t.Value)).toEqual(['New', 'Approved', 'Paid']);
    expect(ViewTabList.parse((await get(`/api/dbs/1/archives/${A.contracts}?type=tabs`)).json())).toEqual([]);
    const info = Archive.parse((await get(`/api/dbs/1/archives/${A.invoices}?type=info`)).json());
    expect(info).toMatchObject({ Id: A.invoices, Name: 'Invoices', Parent: null });
    const children = ArchiveList.parse((await get(`/api/dbs/1/archives/${A.correspondence}?index=0`)).json());
    expect(children.map((a) => a.Id)).toEqual([A.incoming, A.outgoing]);
    const viewerChildren = ArchiveList.parse((await get(`/api/dbs/1/archives/${A.correspondence}?index=0`, 'viewer')).json());
    expect(viewerChildren).toEqual([]);
  });

  it("fields carry the currency of their archive's country (the currency table by country code), in the search answer too", async () => {
    const fields = FieldList.parse((await get(`/api/dbs/1/archives/${A.invoices}?type=fields`)).json());
    expect(fields.find((f) => f.ID === F.amount)).toMatchObject({ Mask: 'C2', Currency: 'USD' });
    await s.store.query("UPDATE archives SET country = 'DE' WHERE id = $1", [A.invoices]);
    try {
      const again = FieldList.parse((await get(`/api/dbs/1/archives/${A.invoices}?type=fields`)).json());
      expect(again.find((f) => f.ID === F.amount)?.Currency).toBe('EUR');
      const page = (await get(`/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?page=1&RecordsPerPage=1`)).json() as { Fields: { ID: number; Currency?: string }[] };
      expect(page.Fields.find((f) => f.ID === F.amount)?.Currency).toBe('EUR');
      await s.store.query('UPDATE archives SET country = NULL WHERE id = $1', [A.invoices]);
      const unset = FieldList.parse((await get(`/api/dbs/1/archives/${A.invoices}?type=fields`)).json());
      expect(unset.find((f) => f.ID === F.amount)?.Currency).toBeNull();
    } finally {
      await s.store.query("UPDATE archives SET country = 'US' WHERE id = $1", [A.invoices]);
    }
  });

  it('an archive without view rights -> 403, unknown -> 404, bad type -> 400', async () => {
    const r = await get(`/api/dbs/1/archives/${A.hrFiles}?type=fields`);
    expect(r.statusCode).toBe(403);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect((await get('/api/dbs/1/archives/999')).statusCode).toBe(404);
    expect((await get(`/api/dbs/1/archives/${A.invoices}?type=nope`)).statusCode).toBe(400);
    expect((await get('/api/dbs/abc/archives')).statusCode).toBe(400);
  });
});

describe('GET /api/dbs/{db}/lists/{listId}', () => {
  it('answers the values in list order', async () => {
    expect(await items(`/api/dbs/1/lists/${SEED_IDS.list.departments}`)).toEqual(DEPARTMENTS);
    expect(await items(`/api/dbs/1/lists/${SEED_IDS.list.cities}`)).toEqual(CITIES.map(([c]) => c));
  });

  it('index filters case-insensitively, prefix matches first', async () => {
    const got = await items(`/api/dbs/1/lists/${SEED_IDS.list.customers}?index=CO`);
    const prefix = CUSTOMERS.filter((c) => c.toLowerCase().startsWith('co'));
    const inner = CUSTOMERS.filter((c) => !c.toLowerCase().startsWith('co') && c.toLowerCase().includes('co'));
    expect(got).toEqual([...prefix, ...inner]);
    expect(await items(`/api/dbs/1/lists/${SEED_IDS.list.customers}?index=zzz`)).toEqual([]);
  });

  it('caps the answer at 100', async () => {
    await s.store.query("INSERT INTO lists (id, database_id, name, kind) VALUES (50, 1, 'Big', 1)");
    await s.store.query("INSERT INTO list_values (list_id, position, value) SELECT 50, g, 'Item ' || lpad(g::text, 3, '0') FROM generate_series(1, 150) g");
    const got = await items('/api/dbs/1/lists/50');
    expect(got).toHaveLength(100);
    expect(got[0]).toBe('Item 001');
    expect(await items('/api/dbs/1/lists/50?index=ITEM')).toHaveLength(100);
    expect(await items('/api/dbs/1/lists/50?index=item 14')).toHaveLength(10);
  });

  it('a list of another database or unknown -> 404; a database the user cannot open -> 403', async () => {
    expect((await get(`/api/dbs/2/lists/${SEED_IDS.list.departments}`)).statusCode).toBe(404);
    expect((await get('/api/dbs/1/lists/999')).statusCode).toBe(404);
    expect((await get(`/api/dbs/2/lists/${SEED_IDS.list.retention}`, 'viewer')).statusCode).toBe(403);
  });
});

describe('GET /api/indexes (dynamic lists)', () => {
  it('filters by the two parent fields', async () => {
    expect(await items(`/api/indexes?database=1&Field=${F.city}&Filter1=France&Filter2=South`)).toEqual(['Marseille', 'Nice']);
    expect(await items(`/api/indexes?database=1&Field=${F.city}&Filter1=canada`)).toEqual(['Calgary', 'Montreal', 'Toronto', 'Vancouver']);
    expect(await items(`/api/indexes?database=1&Field=${F.city}&Filter1=&Filter2=North`)).toEqual(['Berlin', 'Hamburg', 'Lille', 'Paris']);
    expect(await items(`/api/indexes?database=1&Field=${F.city}`)).toHaveLength(CITIES.length);
    expect(await items(`/api/indexes?database=1&Field=${F.city}&Filter1=Spain`)).toEqual([]);
    expect(await items(`/api/indexes?database=1&Field=${F.title}`)).toEqual([]);
  });

  it('bad parameters -> 400, unknown field -> 404', async () => {
    expect((await get(`/api/indexes?Field=${F.city}`)).statusCode).toBe(400);
    expect((await get('/api/indexes?database=1&Field=x')).statusCode).toBe(400);
    expect((await get('/api/indexes?database=1&Field=999')).statusCode).toBe(404);
  });
});
