/**
 * Issue 8 items 12 and 14: text PostgreSQL cannot store (NUL, lone UTF-16 surrogates) is refused at
 * the edge with 400 on every route that takes text, never a 500; field payloads are capped, and the
 * answers to bad payloads stay small.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_PAYLOAD_MAX_ITEMS, FieldDataInvalid, documentPaths } from '../../src/api/documents';
import { ErrorBody } from '../../src/api/errors';
import { encodeSearchCriteria } from '../../src/api/search';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { basic, signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
let token = '';
interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
}
let docs: Doc[] = [];

beforeAll(async () => {
  s = await startServer({ seed: { docs: 20 } });
  // A route of this test only: a query PostgreSQL refuses with 22021 (a NUL in text), as a route
  // that builds such text itself would, past the edge check.
  s.app.get('/api/test/nul-in-sql', { config: { auth: 'none' } }, async () => {
    await s.store.query('SELECT $1::text AS v', ['a\u0000b']);
    return { Done: true };
  });
  token = await signIn(s, 'user');
  docs = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id', [A.invoices])).rows;
  expect(docs.length).toBeGreaterThan(3);
});
afterAll(async () => {
  await s?.close();
});

const put = (d: Doc, body: unknown, key = randomUUID()) =>
  s.app.inject({
    method: 'PUT',
    url: `${documentPaths.fieldData(1, d.archive_id, d.id)}?secureId=${encodeURIComponent(d.secure_hash)}`,
    headers: { 'auth-token': token, 'idempotency-key': key },
    payload: body as object,
  });
const get = (url: string) => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${token}` });
const titleOf = async (d: Doc) => (await s.store.query<{ t: string | null }>("SELECT fields->>'1' AS t FROM documents WHERE id = $1", [d.id])).rows[0]?.t;

function expectBadText(r: { statusCode: number; body: string; json(): unknown }, where: RegExp) {
  expect(r.statusCode, r.body).toBe(400);
  const body = ErrorBody.parse(r.json());
  expect(body.Key).toBe('ERROR_INCORRECT_PARAMETERS');
  expect(body.Message).toMatch(where);
  expect(body.Message).toMatch(/NUL character or an unpaired surrogate/);
}

describe('text PostgreSQL cannot store is refused with 400', () => {
  it('a NUL in a field value (PUT FieldData): 400 with the field and its code, nothing stored', async () => {
    const d = docs[0]!;
    const before = await titleOf(d);
    const r = await put(d, [{ ID: F.status, VAL: 'Open' }, { ID: F.title, VAL: 'a\u0000b' }]);
    expectBadText(r, /\[1\]\.VAL/);
    const body = FieldDataInvalid.parse(r.json());
    expect(body.Fields).toEqual([expect.objectContaining({ ID: F.title, Code: -1 })]);
    expect(await titleOf(d)).toBe(before);
  });

  it('a lone surrogate in a multi-value entry: 400 naming the field', async () => {
    const r = await put(docs[1]!, [{ ID: F.item, MVAL: ['ok', 'x\ud800'] }]);
    expectBadText(r, /\[0\]\.MVAL\[1\]/);
    expect(FieldDataInvalid.parse(r.json()).Fields).toEqual([expect.objectContaining({ ID: F.item, Code: -1 })]);
    // A well-formed pair (an emoji) is text like any other.
    const ok = await put(docs[1]!, [{ ID: F.title, VAL: 'Invoice \ud83d\ude00' }]);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a trailing lone low surrogate is refused as well', async () => {
    const r = await put(docs[2]!, [{ ID: F.title, VAL: 'x\udc00' }]);
    expectBadText(r, /\[0\]\.VAL/);
  });

  it('the field check (POST api/indexes) answers 400 too', async () => {
    const r = await s.app.inject({
      method: 'POST',
      url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${token}`,
      payload: [{ ID: F.title, VAL: 'fine' }, { ID: F.title, VAL: '\u0000' }],
    });
    expectBadText(r, /\[1\]\.VAL/);
    expect(FieldDataInvalid.parse(r.json()).Fields).toEqual([expect.objectContaining({ ID: F.title, Code: -1 })]);
  });

  it('a search prompt value (SearchCriteria) with a NUL or a lone surrogate: 400', async () => {
    const detail = await get(`/api/dbs/1/searches/${SEED_IDS.search.allInvoices}`);
    expect(detail.statusCode).toBe(200);
    const title = (detail.json() as { Detail: { ID: number; Prompt: string }[] }).Detail.find((p) => p.Prompt === 'Title')!.ID;
    for (const v of ['inv\u0000', '\udfffinv']) {
      const q = new URLSearchParams({ page: '1', RecordsPerPage: '25', SearchCriteria: encodeSearchCriteria([{ ID: title, VAL: v }]) });
      const r = await get(`/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?${q.toString()}`);
      expectBadText(r, /SearchCriteria\[0\]\.VAL/);
    }
  });

  it('a list filter (GET api/indexes Filter1, GET lists index) with a NUL: 400', async () => {
    expectBadText(await get(`/api/indexes?database=1&Field=${F.city}&Filter1=a%00b`), /Filter1/);
    expectBadText(await get(`/api/dbs/1/lists/${SEED_IDS.list.customers}?index=%00`), /index/);
  });

  it('a NUL in a sign-in user name: 400, not a 500', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: basic('us\u0000er', 'user') } });
    expectBadText(r, /user name/);
  });

  it('a 22021 that reaches the error handler still answers 400', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/test/nul-in-sql' });
    expect(r.statusCode, r.body).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });
});

describe('field payloads are capped', () => {
  it(`PUT FieldData refuses more than ${FIELD_PAYLOAD_MAX_ITEMS} items with a short answer`, async () => {
    const d = docs[3]!;
    const many = Array.from({ length: 100_000 }, (_, i) => ({ ID: 100_000 + i, VAL: '' }));
    const r = await put(d, many);
    expect(r.statusCode).toBe(400);
    expect(r.body.length).toBeLessThan(1000);
    expect(ErrorBody.parse(r.json()).Message).toContain(String(FIELD_PAYLOAD_MAX_ITEMS));
    const over = await put(d, many.slice(0, FIELD_PAYLOAD_MAX_ITEMS + 1));
    expect(over.statusCode).toBe(400);
    expect(over.body.length).toBeLessThan(1000);
  });

  it('at the cap, unknown fields are each answered but the message stays short', async () => {
    const r = await put(docs[3]!, Array.from({ length: FIELD_PAYLOAD_MAX_ITEMS }, (_, i) => ({ ID: 100_000 + i, VAL: '' })));
    expect(r.statusCode).toBe(400);
    const body = FieldDataInvalid.parse(r.json());
    expect(body.Fields).toHaveLength(FIELD_PAYLOAD_MAX_ITEMS);
    expect(body.Fields.every((f) => f.Code === -4)).toBe(true);
    expect(body.Message.length).toBeLessThan(1000);
  });

  it('POST api/indexes has the same cap', async () => {
    const r = await s.app.inject({
      method: 'POST',
      url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${token}`,
      payload: Array.from({ length: FIELD_PAYLOAD_MAX_ITEMS + 1 }, () => ({ ID: F.title, VAL: 'x' })),
    });
    expect(r.statusCode).toBe(400);
    expect(r.body.length).toBeLessThan(1000);
  });
});
