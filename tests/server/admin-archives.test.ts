import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { startServer, signIn, type TestServer } from './helpers';

/** ARCHIVES mode of the console (src/api/admin-archives.ts): rights, fields, relocate, views, notifications, rebuild job. */
let server: TestServer;
let admin: string;
let user: string;
const A = SEED_IDS.archive;
const base = '/api/admin/databases/1/archives';

beforeAll(async () => {
  server = await startServer({ jobs: { run: false } });
  admin = await signIn(server, 'admin');
  user = await signIn(server, 'user');
});
afterAll(() => server.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  server.app.inject({ method, url, headers: { 'auth-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });

const edit = (over: Record<string, unknown> = {}) => ({ Name: 'Receipts', Parent: null, Fields: [F.title, F.status], ...over });

describe('admin archives', () => {
  it('lists the archives as a tree, parents first, with their settings', async () => {
    const r = await call(admin, 'GET', base);
    expect(r.statusCode).toBe(200);
    const list = r.json() as { Id: number; Parent: number | null; Name: string }[];
    const pos = (id: number) => list.findIndex((a) => a.Id === id);
    expect(pos(A.invoices)).toBeLessThan(pos(A.paidInvoices));
    const invoices = list[pos(A.invoices)] as Record<string, unknown>;
    expect(invoices).toMatchObject({ Name: 'Invoices', Parent: null, ContentSearch: true, ConvertPdf: false, RevisionControl: 0, BasePath: { Path: 'invoices', Default: true } });
    expect((invoices.Views as { Values: unknown[] }).Values).toHaveLength(3);
    expect(invoices.Fields).toContain(F.title);
    expect(list[pos(A.contracts)]).toMatchObject({ RevisionControl: 1, ConvertPdf: true });
  });

  it('refuses every call to a non-administrator with 403', async () => {
    for (const [method, url, body] of [
      ['GET', base],
      ['POST', base, edit()],
      ['GET', `${base}/${A.invoices}`],
      ['PUT', `${base}/${A.invoices}`, edit()],
      ['DELETE', `${base}/${A.invoices}`],
      ['GET', `${base}/${A.invoices}/notifications?includeGlobal=true`],
      ['PUT', `${base}/${A.invoices}/notifications`, { To: '', From: '', Subject: '', Message: '' }],
      ['GET', `${base}/${A.invoices}/indexrebuild?docCount=1000`],
    ] as const) {
      const r = await call(user, method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call(admin, 'GET', `${base}/${A.invoices}`)).json().Name).toBe('Invoices');
  });

  it('creates an archive the user app shows with its fields, and cannot save one without fields', async () => {
    const none = await call(admin, 'POST', base, edit({ Fields: [] }));
    expect(none.statusCode).toBe(400);
    expect(none.json().Key).toBe('ARCHIVE_FIELDS_REQUIRED');
    const foreign = await call(admin, 'POST', base, edit({ Fields: [F.title, 99999] }));
    expect(foreign.statusCode).toBe(400);

    const r = await call(admin, 'POST', base, edit({ Parent: A.invoices, RevisionControl: 1, ContentSearch: true, ConvertPdf: true }));
    expect(r.statusCode).toBe(200);
    const created = r.json();
    expect(created).toMatchObject({ Name: 'Receipts', Parent: A.invoices, Fields: [F.title, F.status], RevisionControl: 1, ContentSearch: true, ConvertPdf: false });
    // A sub-archive takes its parent's permissions: the user sees it in the user app at once, with its fields.
    const list = await server.app.inject({ method: 'GET', url: `/api/dbs/1/archives?token=${user}` });
    expect(list.json().map((a: { Name: string }) => a.Name)).toContain('Receipts');
    const fields = await server.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${created.Id}?type=fields&token=${user}` });
    expect(fields.json().map((f: { ID: number }) => f.ID)).toEqual([F.title, F.status]);

    // Edit: a field added shows in the user app's fields at once; PDF conversion stays off with content search.
    const upd = await call(admin, 'PUT', `${base}/${created.Id}`, edit({ Parent: A.invoices, Fields: [F.title, F.status, F.amount], ContentSearch: false, ConvertPdf: true }));
    expect(upd.json()).toMatchObject({ Fields: [F.title, F.status, F.amount], ContentSearch: false, ConvertPdf: true, RevisionControl: 1 });
    const again = await server.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${created.Id}?type=fields&token=${user}` });
    expect(again.json().map((f: { ID: number }) => f.ID)).toEqual([F.title, F.status, F.amount]);
    const noFields = await call(admin, 'PUT', `${base}/${created.Id}`, edit({ Fields: [] }));
    expect(noFields.json().Key).toBe('ARCHIVE_FIELDS_REQUIRED');
  });

  it('relocates an archive under another parent, never under itself or its sub-archive', async () => {
    const top = (await call(admin, 'POST', base, edit({ Name: 'Top' }))).json();
    const child = (await call(admin, 'POST', base, edit({ Name: 'Child', Parent: top.Id }))).json();
    const cycle = await call(admin, 'PUT', `${base}/${top.Id}`, edit({ Name: 'Top', Parent: child.Id }));
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().Key).toBe('ARCHIVE_RELOCATE_CYCLE');
    const moved = await call(admin, 'PUT', `${base}/${child.Id}`, edit({ Name: 'Child', Parent: A.correspondence }));
    expect(moved.json().Parent).toBe(A.correspondence);
    const gone = await call(admin, 'DELETE', `${base}/${top.Id}`);
    expect(gone.json()).toEqual({ Id: top.Id, Deleted: [top.Id] });
    const gone2 = await call(admin, 'DELETE', `${base}/${child.Id}`);
    expect(gone2.statusCode).toBe(200);
    expect((await call(admin, 'GET', `${base}/${child.Id}`)).statusCode).toBe(404);
  });

  it('keeps view labels required and unique, colours hexadecimal, and the tabs follow', async () => {
    const views = (values: { Label: string; Value: string; Color: string }[]) => ({ Enabled: true, StatusField: F.status, Values: values });
    const fields = [F.title, F.status];
    const a = (await call(admin, 'POST', base, edit({ Name: 'Viewed', Parent: A.invoices }))).json();
    const empty = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'Viewed', Parent: A.invoices, Fields: fields, Views: views([{ Label: ' ', Value: 'x', Color: '#112233' }]) }));
    expect(empty.json().Key).toBe('VIEW_LABEL_REQUIRED');
    const twice = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'Viewed', Parent: A.invoices, Fields: fields, Views: views([{ Label: 'Open', Value: 'o', Color: '#112233' }, { Label: 'open ', Value: 'p', Color: '#445566' }]) }));
    expect(twice.json().Key).toBe('VIEW_LABEL_NOT_UNIQUE');
    const colour = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'Viewed', Parent: A.invoices, Fields: fields, Views: views([{ Label: 'Open', Value: 'o', Color: 'red' }]) }));
    expect(colour.statusCode).toBe(400);
    const status = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'Viewed', Parent: A.invoices, Fields: fields, Views: { ...views([]), StatusField: F.amount } }));
    expect(status.json().Key).toBe('VIEW_STATUS_FIELD_INVALID');
    const ok = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'Viewed', Parent: A.invoices, Fields: fields, Views: views([{ Label: 'Open', Value: 'o', Color: '#AABBCC' }, { Label: 'Closed', Value: 'c', Color: '#000000' }]) }));
    expect(ok.json().Views).toEqual({ Enabled: true, StatusField: F.status, Values: [{ Label: 'Open', Value: 'o', Color: '#aabbcc' }, { Label: 'Closed', Value: 'c', Color: '#000000' }] });
    const tabs = await server.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${a.Id}?type=tabs&token=${user}` });
    expect(tabs.json().map((t: { Label: string }) => t.Label)).toEqual(['Open', 'Closed']);
  });

  it('a field that becomes a view tab\'s status field is counted per value at once, its documents included', async () => {
    const a = (await call(admin, 'POST', base, edit({ Name: 'By country', Fields: [F.title, F.country] }))).json() as { Id: number };
    await server.store.query(
      `INSERT INTO documents (archive_id, secure_hash, fields) SELECT $1, 'by-country-' || g, jsonb_build_object('${F.country}', CASE WHEN g <= 3 THEN 'France' ELSE 'Spain' END) FROM generate_series(1, 5) g`,
      [a.Id],
    );
    const counted = async () => (await server.store.query('SELECT 1 FROM counted_fields WHERE field_id = $1', [F.country])).rowCount;
    expect(await counted()).toBe(0);
    const ok = await call(admin, 'PUT', `${base}/${a.Id}`, edit({ Name: 'By country', Fields: [F.title, F.country], Views: { Enabled: true, StatusField: F.country, Values: [{ Label: 'France', Value: 'France', Color: '#112233' }] } }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await counted()).toBe(1);
    const kept = await server.store.query<{ term: string; n: number }>(
      'SELECT term, sum(n)::int AS n FROM archive_doc_counts WHERE field_id = $1 AND archive_id = $2 GROUP BY term ORDER BY term',
      [F.country, a.Id],
    );
    expect(kept.rows).toEqual([{ term: 'france', n: 3 }, { term: 'spain', n: 2 }]);
  });

  it('stores the notification message sanitised: a script tag kept as inert text', async () => {
    const message = '<p onclick="steal()">Invoice <b>[Invoice Number]</b> <a href="javascript:alert(1)">x</a></p><script>alert("x")</script><img src=x onerror=alert(2)>';
    const r = await call(admin, 'PUT', `${base}/${A.invoices}/notifications`, { To: 'a@example.com', From: 'b@example.com', Subject: 'New', Message: message });
    expect(r.statusCode).toBe(200);
    const stored = r.json().Message as string;
    expect(stored).not.toMatch(/<script|onclick|onerror|javascript:|<img/i);
    expect(stored).toContain('&lt;script&gt;alert("x")&lt;/script&gt;');
    expect(stored).toContain('<b>[Invoice Number]</b>');
    const got = await call(admin, 'GET', `${base}/${A.invoices}/notifications?includeGlobal=true`);
    expect(got.json()).toMatchObject({ To: 'a@example.com', From: 'b@example.com', Subject: 'New', Message: stored, Global: null });
    expect('Global' in (await call(admin, 'GET', `${base}/${A.invoices}/notifications`)).json()).toBe(false);
  });

  it('rebuilds the content-search index as a server job the tray follows', async () => {
    await server.store.query("UPDATE document_pages SET text = 'zebracorn rebuilt' WHERE document_id = (SELECT min(id) FROM documents WHERE archive_id = $1 AND NOT deleted) AND page_no = 1", [A.invoices]);
    const docs = Number((await server.store.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE archive_id = $1 AND NOT deleted', [A.invoices])).rows[0]!.n);
    const r = await call(admin, 'GET', `${base}/${A.invoices}/indexrebuild?docCount=1000`);
    expect(r.statusCode).toBe(200);
    expect(r.json().Count).toBe(docs);
    expect((await call(admin, 'GET', `${base}/${A.invoices}/indexrebuild?docCount=5000`)).statusCode).toBe(400);
    while ((await server.jobs.runOnce()) > 0);
    const job = await server.app.inject({ method: 'GET', url: `/api/jobs/${r.json().JobId}`, headers: { 'auth-token': admin } });
    expect(job.json()).toMatchObject({ Kind: 'index-rebuild', State: 'done', Succeeded: docs, Failed: 0 });
    const hit = await server.store.query("SELECT 1 FROM documents WHERE archive_id = $1 AND content_tsv @@ to_tsquery('english', 'zebracorn')", [A.invoices]);
    expect(hit.rowCount).toBe(1);
  });
});
