/**
 * Saved searches in the administration console (the console spec §3, §5, §7; src/api/admin-searches.ts):
 * administrators only on every call, the Versions archive removed, parameters of deleted or foreign
 * fields dropped and named, the icon checked against the Material Icons list, parents checked, and a
 * saved search listed and run by the user app at once (issue 13 item 7).
 */
import { describe, expect, it } from 'vitest';
import { AdminSearch, AdminSearchList, AdminSearchSaved, DesignerCatalog, emptySearch, searchAdminPaths, type AdminSearchInput } from '../../src/api/admin-searches';
import { toPascal } from '../../src/api/case';
import { ErrorBody } from '../../src/api/errors';
import { DocumentPage, SearchDetail, SearchList, encodeSearchCriteria } from '../../src/api/search';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { searchesOf } from '../../server/search/model';
import { adminTestServer, type Method } from './admin-calls';

const A = SEED_IDS.archive;
const DB = SEED_IDS.db.demo;
const { ctx, call } = adminTestServer(30);


const input = (over: Partial<AdminSearchInput> = {}): AdminSearchInput => ({ ...(toPascal(emptySearch()) as AdminSearchInput), Name: 'Test search', ...over });

describe('admin searches', () => {
  it('refuses every call to a user who is not an administrator of the database (403)', async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', searchAdminPaths.list(DB)],
      ['GET', searchAdminPaths.one(DB, SEED_IDS.search.allInvoices)],
      ['POST', searchAdminPaths.list(DB), input()],
      ['PUT', searchAdminPaths.one(DB, SEED_IDS.search.allInvoices), input()],
      ['DELETE', searchAdminPaths.one(DB, SEED_IDS.search.allInvoices)],
      ['GET', searchAdminPaths.designer(DB)],
    ];
    for (const u of ['user', 'viewer']) {
      for (const [m, url, body] of calls) {
        const r = await call(m, url, body, u);
        expect(r.statusCode, `${u} ${m} ${url}`).toBe(403);
        expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
      }
    }
    // Nothing changed: the search is still there.
    expect((await call('GET', searchAdminPaths.one(DB, SEED_IDS.search.allInvoices))).statusCode).toBe(200);
  });

  it('lists the seeded searches with their parameters, options and flags', async () => {
    const r = await call('GET', searchAdminPaths.list(DB));
    expect(r.statusCode, r.body).toBe(200);
    const list = AdminSearchList.parse(r.json());
    const all = list.find((x) => x.Id === SEED_IDS.search.allInvoices)!;
    expect(all).toMatchObject({ Name: 'All Invoices', Parent: 0, Archives: [A.invoices, A.paidInvoices], Icon: 'receipt_long', ShownInList: true, IsDefault: true });
    expect(all.Parameters[0]).toEqual({ Field: F.title, Prompt: 'Title', Condition: 'Contains' });
    const content = list.find((x) => x.Id === SEED_IDS.search.contentSearch)!;
    expect(content.Parameters[0]).toEqual({ Field: 0, Prompt: 'Search text', Condition: 'Contains' });
    expect(content.ContentSearch).toEqual({ Phonics: false, Stemming: true, Fuzziness: 0 });
    expect(list.find((x) => x.Id === SEED_IDS.search.invoicesByStatus)!.DisplayViewTabs).toBe(true);
    expect(list.find((x) => x.Id === SEED_IDS.search.hidden)!.ShownInList).toBe(false);
  });

  it('creates a search the user app lists and runs at once', async () => {
    const r = await call(
      'POST',
      searchAdminPaths.list(DB),
      input({
        Name: 'Finance invoices',
        Archives: [A.invoices],
        Icon: 'savings',
        Parameters: [
          { Field: F.department, Prompt: 'Department', Condition: 'Equals' },
          { Field: F.amount, Prompt: 'Amount between', Condition: 'Range' },
          { Field: F.reference, Prompt: '', Condition: 'IsEmpty' },
        ],
        GrantAll: true,
      }),
    );
    expect(r.statusCode, r.body).toBe(200);
    const saved = AdminSearchSaved.parse(r.json());
    expect(saved.Dropped).toEqual([]);
    expect(saved.Search).toMatchObject({ Name: 'Finance invoices', Archives: [A.invoices], Icon: 'savings', GrantAll: true, ShownInList: true });
    // An empty prompt takes the field's name.
    expect(saved.Search.Parameters[2]).toEqual({ Field: F.reference, Prompt: 'Reference', Condition: 'IsEmpty' });
    const id = saved.Search.Id;

    const list = SearchList.parse((await call('GET', `/api/dbs/${DB}/searches`, undefined, 'user')).json());
    expect(list.find((x) => x.Id === id)).toMatchObject({ Name: 'Finance invoices', Archives: [A.invoices], Settings: 4, Icon: 'savings' });
    const detail = SearchDetail.parse((await call('GET', `/api/dbs/${DB}/searches/${id}`, undefined, 'user')).json());
    expect(detail.Detail.map((d) => [d.FID, d.Condition, d.Type, d.ListID])).toEqual([
      [F.department, 'Equals', 1, SEED_IDS.list.departments],
      [F.amount, 'Range', 4, null],
      [F.reference, 'IsEmpty', 1, null],
    ]);
    // Criteria listed: only they apply (the IsEmpty prompt applies when listed, src/api/search.ts).
    const criteria = encodeSearchCriteria([{ ID: detail.Detail[0]!.ID, VAL: 'Finance' }]);
    const page = await call('GET', `/api/dbs/${DB}/searches/${id}/archive/${A.invoices}/documents?SearchCriteria=${encodeURIComponent(criteria)}&Count=true`, undefined, 'user');
    expect(page.statusCode, page.body).toBe(200);
    const docs = DocumentPage.parse(page.json());
    const expected = await ctx.s.store.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE archive_id IN ($1, $2) AND NOT deleted AND lower(fields->>'${F.department}') = 'finance'`,
      [A.invoices, A.paidInvoices],
    );
    expect(docs.Count).toBe(Number(expected.rows[0]!.n));
    expect(docs.Count).toBeGreaterThan(0);
    // Grant all: every user and group holds the run right.
    const perms = await ctx.s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM search_permissions WHERE search_id = $1 AND (rights & 1) <> 0', [id]);
    const whom = await ctx.s.store.query<{ n: number }>('SELECT ((SELECT count(*) FROM users) + (SELECT count(*) FROM groups))::int AS n');
    expect(Number(perms.rows[0]!.n)).toBe(Number(whom.rows[0]!.n));

    // And it lasts: a user made afterwards may run it too, while a search with rights for some only
    // stays closed to them.
    const late = await ctx.s.store.query<{ id: number }>("INSERT INTO users (name, password_hash) VALUES ('late-comer', 'x') RETURNING id");
    const lateId = Number(late.rows[0]!.id);
    const some = AdminSearchSaved.parse((await call('POST', searchAdminPaths.list(DB), input({ Name: 'For the user only', Archives: [A.invoices] }))).json()).Search.Id;
    await ctx.s.store.query("INSERT INTO search_permissions (search_id, user_id, rights) SELECT $1, id, 1 FROM users WHERE name = 'user'", [some]);
    const seen = new Map((await searchesOf(ctx.s.store, DB, lateId)).map((s) => [s.id, s.allowed]));
    expect(seen.get(id)).toBe(true);
    expect(seen.get(some)).toBe(false);
  });

  it('removes the Versions archive from the search archives', async () => {
    const r = await call('POST', searchAdminPaths.list(DB), input({ Name: 'Contracts and versions', Archives: [A.contracts, A.contractVersions] }));
    expect(r.statusCode, r.body).toBe(200);
    const saved = AdminSearchSaved.parse(r.json());
    expect(saved.Search.Archives).toEqual([A.contracts]);
    expect(saved.RemovedArchives).toEqual([A.contractVersions]);
    const stored = await ctx.s.store.query<{ archive_id: number }>('SELECT archive_id FROM search_archives WHERE search_id = $1', [saved.Search.Id]);
    expect(stored.rows.map((x) => x.archive_id)).toEqual([A.contracts]);
  });

  it('drops parameters whose field is deleted or not in the search archives, and names them', async () => {
    const r = await call(
      'POST',
      searchAdminPaths.list(DB),
      input({
        Name: 'Records fields in invoices',
        Archives: [A.invoices],
        Parameters: [
          { Field: F.title, Prompt: 'Title', Condition: 'Contains' },
          { Field: F.recTitle, Prompt: 'Record Title', Condition: 'Contains' },
          { Field: 999_999, Prompt: 'Gone', Condition: 'Equals' },
        ],
      }),
    );
    expect(r.statusCode, r.body).toBe(200);
    const saved = AdminSearchSaved.parse(r.json());
    expect(saved.Search.Parameters.map((p) => p.Field)).toEqual([F.title]);
    expect(saved.Dropped).toEqual([
      { Field: F.recTitle, Prompt: 'Record Title' },
      { Field: 999_999, Prompt: 'Gone' },
    ]);

    // A field deleted later takes its parameter with it (search_items cascade), and the search still runs.
    await ctx.s.store.query("INSERT INTO fields (id, database_id, name, type) VALUES (900, $1, 'Temporary', 1)", [DB]);
    await ctx.s.store.query('INSERT INTO archive_fields (archive_id, field_id, position) VALUES ($1, 900, 99)', [A.invoices]);
    const put = await call('PUT', searchAdminPaths.one(DB, saved.Search.Id), input({ Name: 'Records fields in invoices', Archives: [A.invoices], Parameters: [...saved.Search.Parameters, { Field: 900, Prompt: 'Temporary', Condition: 'Equals' }] }));
    expect(AdminSearchSaved.parse(put.json()).Search.Parameters.map((p) => p.Field)).toEqual([F.title, 900]);
    await ctx.s.store.query('DELETE FROM fields WHERE id = 900');
    const after = AdminSearch.parse((await call('GET', searchAdminPaths.one(DB, saved.Search.Id))).json());
    expect(after.Parameters.map((p) => p.Field)).toEqual([F.title]);
  });

  it('accepts only Material Icons names as the icon', async () => {
    const bad = await call('POST', searchAdminPaths.list(DB), input({ Name: 'Bad icon', Archives: [A.invoices], Icon: 'not_an_icon' }));
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).Key).toBe('ADMIN_SEARCH_ICON_INVALID');
    const script = await call('POST', searchAdminPaths.list(DB), input({ Name: 'Bad icon', Archives: [A.invoices], Icon: '<img src=x>' }));
    expect(script.statusCode).toBe(400);
    const none = await call('POST', searchAdminPaths.list(DB), input({ Name: 'No icon', Archives: [A.invoices], Icon: '' }));
    expect(AdminSearchSaved.parse(none.json()).Search.Icon).toBeNull();
  });

  it('checks the parent, the archives and the conditions', async () => {
    const parent = AdminSearchSaved.parse((await call('POST', searchAdminPaths.list(DB), input({ Name: 'Folder' }))).json()).Search;
    // Parent 0 with no archives is allowed (the console warns).
    expect(parent.Archives).toEqual([]);
    const child = AdminSearchSaved.parse((await call('POST', searchAdminPaths.list(DB), input({ Name: 'Child', Parent: parent.Id, Archives: [A.invoices] }))).json()).Search;
    expect(child.Parent).toBe(parent.Id);
    const cycle = await call('PUT', searchAdminPaths.one(DB, parent.Id), input({ Name: 'Folder', Parent: child.Id }));
    expect(cycle.statusCode).toBe(400);
    expect((await call('PUT', searchAdminPaths.one(DB, parent.Id), input({ Name: 'Folder', Parent: parent.Id }))).statusCode).toBe(400);
    expect((await call('POST', searchAdminPaths.list(DB), input({ Parent: SEED_IDS.search.records }))).statusCode).toBe(400);
    expect((await call('POST', searchAdminPaths.list(DB), input({ Archives: [A.records] }))).statusCode).toBe(400);
    expect((await call('POST', searchAdminPaths.list(DB), { ...input(), Parameters: [{ Field: F.title, Prompt: 'x', Condition: 'Like' }] })).statusCode).toBe(400);
    expect((await call('POST', searchAdminPaths.list(DB), input({ Name: '   ' }))).statusCode).toBe(400);
    expect((await call('PUT', searchAdminPaths.one(DB, 99_999), input())).statusCode).toBe(404);
  });

  it('keeps one default search per database and hides a search from the list', async () => {
    const saved = AdminSearchSaved.parse((await call('POST', searchAdminPaths.list(DB), input({ Name: 'New default', Archives: [A.invoices], IsDefault: true }))).json()).Search;
    const list = AdminSearchList.parse((await call('GET', searchAdminPaths.list(DB))).json());
    expect(list.filter((x) => x.IsDefault).map((x) => x.Id)).toEqual([saved.Id]);
    await call('PUT', searchAdminPaths.one(DB, saved.Id), input({ Name: 'New default', Archives: [A.invoices], IsDefault: false, ShownInList: false }));
    const user = SearchList.parse((await call('GET', `/api/dbs/${DB}/searches`, undefined, 'user')).json());
    expect(user.find((x) => x.Id === saved.Id)?.Settings).toBe(0);
  });

  it('content search and view tabs: Field 0 sets the content-search prop; tabs come from the archive views', async () => {
    const saved = AdminSearchSaved.parse(
      (
        await call(
          'POST',
          searchAdminPaths.list(DB),
          input({ Name: 'Tabs and text', Archives: [A.invoices], DisplayViewTabs: true, Parameters: [{ Field: 0, Prompt: 'Text', Condition: 'Equals' }], ContentSearch: { Phonics: true, Stemming: false, Fuzziness: 2 } }),
        )
      ).json(),
    ).Search;
    expect(saved.Parameters).toEqual([{ Field: 0, Prompt: 'Text', Condition: 'Contains' }]);
    expect(saved.ContentSearch).toEqual({ Phonics: true, Stemming: false, Fuzziness: 2 });
    const detail = SearchDetail.parse((await call('GET', `/api/dbs/${DB}/searches/${saved.Id}`, undefined, 'user')).json());
    expect(detail.Props).toBe(1 | 32);
    expect(detail.Detail[0]).toMatchObject({ FID: 0, Type: 0 });
    expect(detail.Tabs?.map((t) => [t.Label, t.Value])).toEqual([['All', ''], ['New', 'New'], ['Approved', 'Approved'], ['Paid', 'Paid']]);
  });

  it('deletes a search; the user app no longer lists it', async () => {
    const saved = AdminSearchSaved.parse((await call('POST', searchAdminPaths.list(DB), input({ Name: 'To delete', Archives: [A.invoices] }))).json()).Search;
    const d = await call('DELETE', searchAdminPaths.one(DB, saved.Id));
    expect(d.statusCode).toBe(204);
    expect((await call('DELETE', searchAdminPaths.one(DB, saved.Id))).statusCode).toBe(404);
    const user = SearchList.parse((await call('GET', `/api/dbs/${DB}/searches`, undefined, 'user')).json());
    expect(user.some((x) => x.Id === saved.Id)).toBe(false);
  });

  it('the designer catalogue names each archive with its fields and marks versions archives', async () => {
    const r = await call('GET', searchAdminPaths.designer(DB));
    expect(r.statusCode, r.body).toBe(200);
    const cat = DesignerCatalog.parse(r.json());
    expect(cat.Archives.find((a) => a.Id === A.contractVersions)?.IsVersions).toBe(true);
    expect(cat.Archives.find((a) => a.Id === A.invoices)?.Fields.some((f) => f.Id === F.title && f.Name === 'Title')).toBe(true);
    expect(cat.Archives.some((a) => a.Id === A.records)).toBe(false);
  });
});
