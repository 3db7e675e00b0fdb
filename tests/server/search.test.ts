import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, WIRE_MESSAGES } from '../../src/api/errors';
import { DocumentPage, SearchDetail, SearchListEntry, encodeSearchCriteria, type ResultDocument, type SearchCriterion } from '../../src/api/search';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const S = SEED_IDS.search;
let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer({ seed: { docs: 160 } });
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, user = 'user') => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${tokens[user]}` });

async function detail(searchId: number, user = 'user', query = ''): Promise<SearchDetail> {
  const r = await get(`/api/dbs/1/searches/${searchId}${query}`, user);
  expect(r.statusCode, r.body).toBe(200);
  return SearchDetail.parse(r.json());
}

async function promptId(searchId: number, text: string): Promise<number> {
  const d = await detail(searchId);
  const p = d.Detail.find((x) => x.Prompt === text);
  if (!p) throw new Error(`no prompt ${text}`);
  return p.ID;
}

interface DocQuery {
  page?: number | string;
  rpp?: number | string;
  criteria?: SearchCriterion[] | string;
  sort?: string;
  tabID?: number | string;
  count?: boolean;
}

function docsUrl(searchId: number, archiveId: number, q: DocQuery = {}, db = 1): string {
  const p = new URLSearchParams();
  p.set('page', String(q.page ?? 1));
  p.set('RecordsPerPage', String(q.rpp ?? 10000));
  if (q.criteria !== undefined) p.set('SearchCriteria', typeof q.criteria === 'string' ? q.criteria : encodeSearchCriteria(q.criteria));
  if (q.sort) p.set('sort', q.sort);
  if (q.tabID !== undefined) p.set('tabID', String(q.tabID));
  if (q.count) p.set('Count', 'true');
  return `/api/dbs/${db}/searches/${searchId}/archive/${archiveId}/documents?${p.toString()}`;
}

async function docs(searchId: number, archiveId: number, q: DocQuery = {}, user = 'user'): Promise<DocumentPage> {
  const r = await get(docsUrl(searchId, archiveId, q), user);
  expect(r.statusCode, r.body).toBe(200);
  return DocumentPage.parse(r.json());
}

const val = (d: ResultDocument, fieldId: number) => d.Fields.find((f) => f.ID === fieldId)?.VAL ?? '';
const mval = (d: ResultDocument, fieldId: number) => d.Fields.find((f) => f.ID === fieldId)?.MVAL ?? [];
const ids = (p: DocumentPage) => p.Docs.map((d) => d.Id);

async function dbCount(archives: number[]): Promise<number> {
  const r = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE NOT deleted AND archive_id IN (${archives.join(',')})`);
  return Number(r.rows[0]?.n);
}

let all: DocumentPage; // All Invoices over Invoices (+ Paid Invoices), no criteria
beforeAll(async () => {
  all = await docs(S.allInvoices, A.invoices, { criteria: [] });
});

describe('GET /api/dbs/{db}/searches', () => {
  it('lists the searches each user may run, with hidden ones and the default flag', async () => {
    const list = (await get('/api/dbs/1/searches')).json() as unknown[];
    const parsed = list.map((x) => SearchListEntry.parse(x));
    expect(parsed.map((x) => x.Id)).toEqual([S.allInvoices, S.contentSearch, S.invoicesByStatus, S.contracts, S.correspondence, S.hidden, S.customerFiles]);
    expect(parsed.find((x) => x.Id === S.allInvoices)?.Settings).toBe(12);
    expect(parsed.find((x) => x.Id === S.hidden)?.Settings).toBe(0);
    expect(parsed.every((x) => x.Hash.length > 0)).toBe(true);
    const admin = ((await get('/api/dbs/1/searches', 'admin')).json() as { Id: number }[]).map((x) => x.Id);
    expect(admin).toContain(S.hr);
  });

  it('shows the viewer only the archives it may view', async () => {
    const list = ((await get('/api/dbs/1/searches', 'viewer')).json() as unknown[]).map((x) => SearchListEntry.parse(x));
    expect(list.map((x) => x.Id)).not.toContain(S.hr);
    expect(list.map((x) => x.Id)).not.toContain(S.contracts);
    expect(list.find((x) => x.Id === S.contentSearch)?.Archives).toEqual([A.invoices, A.correspondence]);
    expect(((await get('/api/dbs/2/searches', 'viewer')).json() as unknown[]).length).toBe(0);
  });

  it('unknown database -> 404 ErrorBody', async () => {
    const r = await get('/api/dbs/99/searches');
    expect(r.statusCode).toBe(404);
    ErrorBody.parse(r.json());
  });
});

describe('GET /api/dbs/{db}/searches/{id}', () => {
  it('sends every prompt with its field, condition and defaults', async () => {
    const d = await detail(S.allInvoices);
    expect(d.Detail.map((p) => [p.Prompt, p.FID, p.Type, p.Condition])).toEqual([
      ['Title', F.title, 1, 'Contains'],
      ['Invoice Number', F.invoiceNumber, 2, 'Equals'],
      ['Invoice Number between', F.invoiceNumber, 2, 'Range'],
      ['Document Date', F.documentDate, 3, 'Range'],
      ['Amount between', F.amount, 4, 'Range'],
      ['Customer', F.customer, 1, 'Contains'],
      ['Department', F.department, 1, 'Equals'],
      ['Status', F.status, 1, 'Equals'],
    ]);
    expect(d.Detail.find((p) => p.Prompt === 'Department')).toMatchObject({ ListID: SEED_IDS.list.departments, Prop: 64 });
    expect(d.Detail.find((p) => p.Prompt === 'Document Date')).toMatchObject({ Mask: 'MM/dd/yyyy', MVAL: ['', ''] });
    expect(d.ArchiveList.map((a) => [a.Id, a.Parent])).toEqual([
      [A.invoices, null],
      [A.paidInvoices, A.invoices],
    ]);
    expect(d.Tabs).toBeUndefined();
  });

  it('has the content-search prompt (FID 0, Type 0) on content searches', async () => {
    const d = await detail(S.contentSearch);
    expect(d.Props).toBe(1);
    expect(d.Detail[0]).toMatchObject({ FID: 0, Type: 0, Condition: 'Contains' });
  });

  it('sends the view tabs and status field when Props has 32', async () => {
    const d = await detail(S.invoicesByStatus);
    expect(d.Tabs?.map((t) => [t.Label, t.Value])).toEqual([
      ['All', ''],
      ['New', 'New'],
      ['Approved', 'Approved'],
      ['Paid', 'Paid'],
    ]);
    expect(d.StatusField).toBe(F.status);
  });

  it('has a two-archive search whose prompts repeat the same text', async () => {
    const d = await detail(S.customerFiles);
    expect(d.ArchiveList.map((a) => a.Id)).toEqual([A.invoices, A.contracts]);
    const texts = d.Detail.map((p) => p.Prompt);
    expect(texts.filter((t) => t === 'Customer')).toHaveLength(2);
    expect(texts.filter((t) => t === 'Document Date')).toHaveLength(2);
  });

  it('adds per-archive counts with count=true, also for criteria', async () => {
    const d = await detail(S.allInvoices, 'user', '?count=true');
    expect(d.ArchiveCounts).toEqual([
      { Id: A.invoices, Name: 'Invoices', Count: await dbCount([A.invoices, A.paidInvoices]) },
      { Id: A.paidInvoices, Name: 'Paid Invoices', Count: await dbCount([A.paidInvoices]) },
    ]);
    const dept = await promptId(S.allInvoices, 'Department');
    const criteria = [{ ID: dept, VAL: 'Finance' }];
    const withCriteria = await detail(S.allInvoices, 'user', `?count=true&SearchCriteria=${encodeURIComponent(encodeSearchCriteria(criteria))}`);
    for (const c of withCriteria.ArchiveCounts ?? []) expect(c.Count).toBe((await docs(S.allInvoices, c.Id, { criteria, rpp: 1 })).Count);
    const multi = await detail(S.customerFiles, 'user', '?count=true');
    expect(multi.ArchiveCounts?.map((c) => c.Id)).toEqual([A.invoices, A.contracts]);
  });

  it('refuses searches the user may not run, and unknown ones', async () => {
    const hr = await get(`/api/dbs/1/searches/${S.hr}`);
    expect(hr.statusCode).toBe(403);
    expect(ErrorBody.parse(hr.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect((await get('/api/dbs/1/searches/999')).statusCode).toBe(404);
    expect((await get(`/api/dbs/2/searches/${S.allInvoices}`)).statusCode).toBe(404);
    // The viewer sees the Content Search without the sub-archives it has no rights on.
    const v = await detail(S.contentSearch, 'viewer');
    expect(v.ArchiveList.map((a) => a.Id)).toEqual([A.invoices, A.correspondence]);
  });
});

describe('documents: the whole result', () => {
  it('covers the archive and its sub-archives, sorted by Id, with the archive fields', async () => {
    expect(all.Count).toBe(await dbCount([A.invoices, A.paidInvoices]));
    expect(all.Docs).toHaveLength(all.Count);
    expect(new Set(all.Docs.map((d) => d.ArchiveId))).toEqual(new Set([A.invoices, A.paidInvoices]));
    expect(ids(all)).toEqual([...ids(all)].sort((a, b) => a - b));
    expect(all.Fields.map((f) => f.ID)[0]).toBe(F.title);
    expect(all.Fields.find((f) => f.ID === F.amount)).toMatchObject({ Type: 4, Mask: 'C2' });
    for (const d of all.Docs) {
      expect(d.Fields.map((f) => f.ID)).toEqual(all.Fields.map((f) => f.ID));
      expect(d.Hits).toBeNull();
      expect(d.Version).toBeNull();
    }
    expect(all.Terms).toEqual([]);
    expect(all.Permissions).toBeGreaterThan(0);
    // Table-field columns are multi-value: MVAL arrays, VAL the first value.
    const withItems = all.Docs.find((d) => mval(d, F.item).length > 0);
    expect(withItems && val(withItems, F.item)).toBe(withItems && mval(withItems, F.item)[0]);
  });

  it('a search over the sub-archive alone has only its documents', async () => {
    const paid = await docs(S.allInvoices, A.paidInvoices, { criteria: [] });
    expect(paid.Count).toBe(await dbCount([A.paidInvoices]));
    expect(paid.Docs.every((d) => d.ArchiveId === A.paidInvoices)).toBe(true);
  });
});

describe('documents: conditions', () => {
  const expectSame = (page: DocumentPage, pred: (d: ResultDocument) => boolean) => {
    const expected = all.Docs.filter(pred).map((d) => d.Id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(page)).toEqual(expected);
    expect(page.Count).toBe(expected.length);
  };

  it('Contains (character), case-insensitive', async () => {
    const id = await promptId(S.allInvoices, 'Customer');
    const sample = val(all.Docs[0] as ResultDocument, F.customer);
    const part = sample.slice(1, 5).toUpperCase();
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, VAL: part }] }), (d) => val(d, F.customer).toLowerCase().includes(part.toLowerCase()));
  });

  it('Contains treats % and _ literally', async () => {
    const id = await promptId(S.allInvoices, 'Title');
    const r = await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, VAL: '%' }] });
    expect(r.Count).toBe(0);
  });

  it('Equals (character), case-insensitive', async () => {
    const id = await promptId(S.allInvoices, 'Department');
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, VAL: 'fInAnCe' }] }), (d) => val(d, F.department) === 'Finance');
  });

  it('Equals (number) by value', async () => {
    const id = await promptId(S.allInvoices, 'Invoice Number');
    const n = val(all.Docs[3] as ResultDocument, F.invoiceNumber);
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, VAL: `00${n}` }] }), (d) => val(d, F.invoiceNumber) === n);
  });

  it('an empty value sets no condition', async () => {
    const id = await promptId(S.allInvoices, 'Title');
    expect((await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, VAL: '' }], rpp: 1 })).Count).toBe(all.Count);
  });

  it('Range (number), closed and open', async () => {
    const id = await promptId(S.allInvoices, 'Invoice Number between');
    const nums = all.Docs.map((d) => Number(val(d, F.invoiceNumber))).sort((a, b) => a - b);
    const lo = nums[10] as number;
    const hi = nums[40] as number;
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, MVAL: [String(lo), String(hi)] }] }), (d) => Number(val(d, F.invoiceNumber)) >= lo && Number(val(d, F.invoiceNumber)) <= hi);
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, MVAL: [String(lo), ''] }] }), (d) => Number(val(d, F.invoiceNumber)) >= lo);
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, MVAL: ['', String(hi)] }] }), (d) => Number(val(d, F.invoiceNumber)) <= hi);
  });

  it('Range (decimal) compares by value, not text', async () => {
    const id = await promptId(S.allInvoices, 'Amount between');
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, MVAL: ['99.5', '20000'] }] }), (d) => Number(val(d, F.amount)) >= 99.5 && Number(val(d, F.amount)) <= 20000);
  });

  it('Range (date), ISO', async () => {
    const id = await promptId(S.allInvoices, 'Document Date');
    const dates = all.Docs.map((d) => val(d, F.documentDate)).sort();
    const from = dates[20] as string;
    const to = dates[60] as string;
    expectSame(await docs(S.allInvoices, A.invoices, { criteria: [{ ID: id, MVAL: [from, to] }] }), (d) => val(d, F.documentDate) >= from && val(d, F.documentDate) <= to);
  });

  it('several conditions combine with AND', async () => {
    const dept = await promptId(S.allInvoices, 'Department');
    const amount = await promptId(S.allInvoices, 'Amount between');
    expectSame(
      await docs(S.allInvoices, A.invoices, { criteria: [{ ID: dept, VAL: 'Sales' }, { ID: amount, MVAL: ['', '15000'] }, { ID: await promptId(S.allInvoices, 'Title'), VAL: '' }] }),
      (d) => val(d, F.department) === 'Sales' && Number(val(d, F.amount)) <= 15000,
    );
  });

  it('IsEmpty and IsNotEmpty (defaults apply without SearchCriteria; [] applies none)', async () => {
    const everything = await docs(S.correspondence, A.correspondence, { criteria: [] });
    const withoutNotes = await docs(S.correspondence, A.correspondence);
    const expected = everything.Docs.filter((d) => val(d, F.notes) === '').map((d) => d.Id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(everything.Count);
    expect(ids(withoutNotes)).toEqual(expected);
    const notesId = await promptId(S.correspondence, 'Without notes');
    expect(ids(await docs(S.correspondence, A.correspondence, { criteria: [{ ID: notesId }] }))).toEqual(expected);
    const contracts = await docs(S.contracts, A.contracts, { criteria: [] });
    const hasNotes = await docs(S.contracts, A.contracts);
    expect(ids(hasNotes)).toEqual(contracts.Docs.filter((d) => val(d, F.notes) !== '').map((d) => d.Id));
    expect(hasNotes.Count).toBeGreaterThan(0);
  });

  it('multi-value fields match when any value matches; several values match any', async () => {
    const everything = await docs(S.correspondence, A.correspondence, { criteria: [] });
    const tag = await promptId(S.correspondence, 'Tag');
    const one = await docs(S.correspondence, A.correspondence, { criteria: [{ ID: tag, VAL: 'URGENT' }] });
    const expected = everything.Docs.filter((d) => mval(d, F.tags).includes('urgent')).map((d) => d.Id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(one)).toEqual(expected);
    const two = await docs(S.correspondence, A.correspondence, { criteria: [{ ID: tag, MVAL: ['urgent', 'draft'] }] });
    expect(ids(two)).toEqual(everything.Docs.filter((d) => mval(d, F.tags).some((t) => t === 'urgent' || t === 'draft')).map((d) => d.Id));
  });

  it('duplicate prompts of a multi-archive search are equivalent', async () => {
    const d = await detail(S.customerFiles);
    const [c1, c2] = d.Detail.filter((p) => p.Prompt === 'Customer').map((p) => p.ID) as [number, number];
    const customer = val(all.Docs[0] as ResultDocument, F.customer);
    for (const archive of [A.invoices, A.contracts]) {
      const a = await docs(S.customerFiles, archive, { criteria: [{ ID: c1, VAL: customer }] });
      const b = await docs(S.customerFiles, archive, { criteria: [{ ID: c2, VAL: customer }] });
      expect(ids(a)).toEqual(ids(b));
      expect(a.Docs.every((x) => val(x, F.customer) === customer)).toBe(true);
    }
  });

  it.each([
    ['a number prompt with text', 'Invoice Number', 'abc'],
    ['a date prompt not ISO', 'Document Date', '12/31/2025'],
    ['an impossible date', 'Document Date', '2025-02-30'],
    ['a decimal with a comma', 'Amount between', '12,50'],
  ])('%s -> 400', async (_n, prompt, value) => {
    const id = await promptId(S.allInvoices, prompt);
    const criteria = prompt === 'Invoice Number' ? [{ ID: id, VAL: value }] : [{ ID: id, MVAL: [value, ''] }];
    const r = await get(docsUrl(S.allInvoices, A.invoices, { criteria }));
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });

  it.each([
    ['malformed JSON', '[{"ID":'],
    ['not an array', '{"ID":1}'],
    ['unknown prompt id', '[{"ID":99999,"VAL":"x"}]'],
    ['ID not a number', '[{"ID":"x"}]'],
  ])('SearchCriteria %s -> 400', async (_n, raw) => {
    const r = await get(docsUrl(S.allInvoices, A.invoices, { criteria: raw }));
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });
});

describe('documents: sort', () => {
  const cmpText = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
  function expectedOrder(fieldId: number, type: number, dir: 'asc' | 'desc'): number[] {
    const key = (d: ResultDocument) => {
      const v = val(d, fieldId);
      return v === '' ? null : type === 2 || type === 4 ? Number(v) : type === 1 ? v.toLowerCase() : v;
    };
    return [...all.Docs]
      .sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        if (ka === null && kb === null) return a.Id - b.Id;
        if (ka === null) return 1;
        if (kb === null) return -1;
        const c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : cmpText(String(ka), String(kb));
        if (c !== 0) return dir === 'asc' ? c : -c;
        return a.Id - b.Id;
      })
      .map((d) => d.Id);
  }

  it.each([
    [F.title, 1, 'asc'],
    [F.title, 1, 'desc'],
    [F.invoiceNumber, 2, 'asc'],
    [F.invoiceNumber, 2, 'desc'],
    [F.documentDate, 3, 'asc'],
    [F.documentDate, 3, 'desc'],
    [F.amount, 4, 'asc'],
    [F.amount, 4, 'desc'],
    [F.accountCode, 1, 'asc'],
  ] as const)('field %i (type %i) %s', async (fieldId, type, dir) => {
    const page = await docs(S.allInvoices, A.invoices, { criteria: [], sort: `${fieldId}:${dir}` });
    expect(ids(page)).toEqual(expectedOrder(fieldId, type, dir));
  });

  it('several columns', async () => {
    const page = await docs(S.allInvoices, A.invoices, { criteria: [], sort: `${F.department}:asc,${F.amount}:desc` });
    for (let i = 1; i < page.Docs.length; i++) {
      const a = page.Docs[i - 1] as ResultDocument;
      const b = page.Docs[i] as ResultDocument;
      expect(val(a, F.department) <= val(b, F.department)).toBe(true);
      if (val(a, F.department) === val(b, F.department)) expect(Number(val(a, F.amount))).toBeGreaterThanOrEqual(Number(val(b, F.amount)));
    }
  });

  it.each(['999:asc', 'Title:asc', `${F.notes}:asc`, `${F.title}:up`, `${F.title}:asc:x`])('an invalid sort %s -> 400 "Invalid search string, Sort field"', async (sort) => {
    const r = await get(docsUrl(S.allInvoices, A.invoices, { sort }));
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Message.startsWith(WIRE_MESSAGES.invalidSort)).toBe(true);
  });
});

describe('documents: paging', () => {
  it('pages cover the result once, the last page is partial, beyond it Docs is empty with the same Count', async () => {
    const size = 7;
    const pages = Math.ceil(all.Count / size);
    expect(all.Count % size).not.toBe(0);
    const seen: number[] = [];
    for (let p = 1; p <= pages; p++) {
      const page = await docs(S.allInvoices, A.invoices, { criteria: [], page: p, rpp: size, count: p === 1 });
      expect(page.Count).toBe(all.Count);
      expect(page.Docs.length).toBe(p < pages ? size : all.Count % size);
      seen.push(...ids(page));
    }
    expect(seen).toEqual(ids(all));
    const beyond = await docs(S.allInvoices, A.invoices, { criteria: [], page: pages + 1, rpp: size });
    expect(beyond.Docs).toEqual([]);
    expect(beyond.Count).toBe(all.Count);
    const far = await docs(S.allInvoices, A.invoices, { criteria: [], page: 9999, rpp: size, count: true });
    expect(far.Docs).toEqual([]);
    expect(far.Count).toBe(all.Count);
  });

  it('sorted pages join up to the sorted whole', async () => {
    const sort = `${F.amount}:desc`;
    const whole = await docs(S.allInvoices, A.invoices, { criteria: [], sort });
    const p1 = await docs(S.allInvoices, A.invoices, { criteria: [], sort, page: 1, rpp: 10 });
    const p2 = await docs(S.allInvoices, A.invoices, { criteria: [], sort, page: 2, rpp: 10 });
    expect([...ids(p1), ...ids(p2)]).toEqual(ids(whole).slice(0, 20));
  });

  it.each([['0'], ['-3'], ['abc'], ['20000'], ['1.5']])('RecordsPerPage=%s falls back to 25', async (rpp) => {
    const page = await docs(S.allInvoices, A.invoices, { criteria: [], rpp });
    expect(page.Docs).toHaveLength(25);
  });

  it.each([['0'], ['-1'], ['abc']])('page=%s -> 400', async (page) => {
    const r = await get(docsUrl(S.allInvoices, A.invoices, { page }));
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });
});

describe('documents: content search', () => {
  it('finds documents by their text, with Hits and Terms, and sorts by HITS', async () => {
    const content = await promptId(S.contentSearch, 'Search text');
    const page = await docs(S.contentSearch, A.invoices, { criteria: [{ ID: content, VAL: 'invoice' }], sort: 'HITS:desc' });
    const r = await s.store.query<{ n: number }>(
      `SELECT count(*) AS n FROM documents WHERE archive_id IN (${A.invoices}, ${A.paidInvoices}) AND content_tsv @@ websearch_to_tsquery('english', 'invoice')`,
    );
    expect(page.Count).toBe(Number(r.rows[0]?.n));
    expect(page.Count).toBeGreaterThan(0);
    expect(page.Terms).toEqual(['invoice']);
    const hits = page.Docs.map((d) => d.Hits as number);
    expect(hits.every((h) => typeof h === 'number' && h > 0)).toBe(true);
    expect(hits).toEqual([...hits].sort((a, b) => b - a));
  });

  it('websearch syntax: phrases and excluded words; Terms are the positive words', async () => {
    const content = await promptId(S.contentSearch, 'Search text');
    const page = await docs(S.contentSearch, A.invoices, { criteria: [{ ID: content, VAL: '"payment terms" OR invoice -zzzz' }] });
    expect(page.Terms).toEqual(['payment', 'terms', 'invoice']);
    expect(page.Count).toBeGreaterThan(0);
    const none = await docs(S.contentSearch, A.invoices, { criteria: [{ ID: content, VAL: 'qwertyuiop' }] });
    expect(none.Count).toBe(0);
    expect(none.Docs).toEqual([]);
  });

  it('combines with field conditions; without content search HITS sorts nothing', async () => {
    const content = await promptId(S.contentSearch, 'Search text');
    const title = await promptId(S.contentSearch, 'Title');
    const both = await docs(S.contentSearch, A.invoices, { criteria: [{ ID: content, VAL: 'invoice' }, { ID: title, VAL: 'Invoice' }] });
    expect(both.Docs.every((d) => val(d, F.title).toLowerCase().includes('invoice'))).toBe(true);
    const plain = await docs(S.contentSearch, A.invoices, { criteria: [], sort: 'HITS:desc' });
    expect(plain.Docs.every((d) => d.Hits === null)).toBe(true);
    expect(ids(plain)).toEqual([...ids(plain)].sort((a, b) => a - b));
  });
});

describe('documents: view tabs', () => {
  it('filters on the status field by the tab value; the All tab shows everything', async () => {
    const d = await detail(S.invoicesByStatus);
    const tabs = d.Tabs ?? [];
    const counts: Record<string, number> = {};
    for (const t of tabs) {
      const page = await docs(S.invoicesByStatus, A.invoices, { criteria: [], tabID: t.ID });
      counts[t.Label] = page.Count;
      if (t.Value) expect(page.Docs.every((x) => val(x, F.status) === t.Value)).toBe(true);
    }
    const invoicesOnly = await docs(S.invoicesByStatus, A.invoices, { criteria: [] });
    expect(counts.All).toBe(invoicesOnly.Count);
    // Paid Invoices has no status: those documents appear under All only.
    const withStatus = invoicesOnly.Docs.filter((x) => val(x, F.status) !== '').length;
    expect((counts.New ?? 0) + (counts.Approved ?? 0) + (counts.Paid ?? 0)).toBe(withStatus);
    expect(counts.Paid).toBeGreaterThan(0);
  });

  it('an unknown tab -> 400', async () => {
    expect((await get(docsUrl(S.invoicesByStatus, A.invoices, { tabID: 999 }))).statusCode).toBe(400);
    expect((await get(docsUrl(S.allInvoices, A.invoices, { tabID: 1 }))).statusCode).toBe(400);
  });
});

describe('documents: permissions and versions', () => {
  it('the viewer gets none of the documents of sub-archives it has no rights on', async () => {
    const u = await docs(S.correspondence, A.correspondence, { criteria: [] }, 'user');
    expect(new Set(u.Docs.map((d) => d.ArchiveId))).toEqual(new Set([A.correspondence, A.incoming, A.outgoing]));
    const v = await docs(S.correspondence, A.correspondence, { criteria: [] }, 'viewer');
    expect(v.Count).toBe(await dbCount([A.correspondence]));
    expect(v.Docs.every((d) => d.ArchiveId === A.correspondence)).toBe(true);
    expect(v.Permissions).toBe(1 | 32 | 128 | 512);
    expect(v.Docs.every((d) => d.Permissions === v.Permissions)).toBe(true);
  });

  it('an archive without view rights -> 403 and no documents', async () => {
    const r = await get(docsUrl(S.hidden, A.contracts, {}), 'viewer');
    expect(r.statusCode).toBe(403);
    expect(r.body).not.toContain('"Docs"');
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const sub = await get(docsUrl(S.correspondence, A.incoming, {}), 'viewer');
    expect(sub.statusCode).toBe(403);
    const hr = await get(docsUrl(S.hr, A.hrFiles, {}), 'user');
    expect(hr.statusCode).toBe(403);
    expect(hr.body).not.toContain('"Docs"');
    const records = await get(`/api/dbs/2/searches/${S.records}/archive/${A.records}/documents`, 'viewer');
    expect(records.statusCode).toBe(403);
  });

  it('an archive the search does not cover -> 404', async () => {
    expect((await get(docsUrl(S.allInvoices, A.contracts, {}))).statusCode).toBe(404);
  });

  it('archives with revision control carry the Version', async () => {
    const c = await docs(S.contracts, A.contracts, { criteria: [] });
    expect(c.Docs.length).toBeGreaterThan(0);
    expect(c.Docs.every((d) => d.Version === '1' || d.Version === '2')).toBe(true);
    expect(c.Docs.some((d) => d.Version === '2')).toBe(true);
  });
});
