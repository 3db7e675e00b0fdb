import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexCheckResponse } from '../../src/fields/check-contract';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
  for (const u of ['user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const post = (query: string, body: unknown, user = 'user') =>
  s.app.inject({ method: 'POST', url: `/api/indexes?${query}&token=${tokens[user]}`, payload: body as object });

async function check(body: unknown, query = `dbId=1&archiveId=${A.invoices}`) {
  const r = await post(query, body);
  expect(r.statusCode, r.body).toBe(200);
  return IndexCheckResponse.parse(r.json());
}

describe('POST /api/indexes (field validation)', () => {
  it('answers each item in order with the shared rules on wire values', async () => {
    const res = await check([
      { ID: F.invoiceNumber, VAL: '-1234567890123456789' },
      { ID: F.invoiceNumber, VAL: '12345678901234567890' },
      { ID: F.amount, VAL: '1234.5' },
      { ID: F.amount, VAL: '1234,5' },
      { ID: F.documentDate, VAL: '2025-03-04' },
      { ID: F.documentDate, VAL: '03/04/2025' },
      { ID: F.documentDate, VAL: '2025-02-29' },
      { ID: F.title, VAL: '' },
      { ID: F.status, VAL: 'x'.repeat(21) },
      { ID: F.status, VAL: '' },
    ]);
    expect(res.map((r) => [r.ID, r.Code])).toEqual([
      [F.invoiceNumber, 0],
      [F.invoiceNumber, -1],
      [F.amount, 0],
      [F.amount, -1],
      [F.documentDate, 0],
      [F.documentDate, -2],
      [F.documentDate, -2],
      [F.title, -5],
      [F.status, -3],
      [F.status, 0],
    ]);
    expect(res[0]?.Normalized).toBe('-1234567890123456789');
    expect(res[1]).toMatchObject({ Key: 'FIELD_INVALID_NUMBER', Message: expect.any(String) });
    expect(res[7]).toMatchObject({ Key: 'FIELD_REQUIRED' });
  });

  it('-4 for a field that is not one of the archive fields', async () => {
    const res = await check([{ ID: F.city, VAL: 'Paris' }, { ID: 9999, VAL: 'x' }]);
    expect(res).toEqual([
      expect.objectContaining({ ID: F.city, Code: -4, Key: 'FIELD_NOT_FOUND' }),
      expect.objectContaining({ ID: 9999, Code: -4 }),
    ]);
  });

  it('RegEx mismatch is -1 with the message from the RegEx comment', async () => {
    const res = await check([{ ID: F.accountCode, VAL: 'AB-12' }, { ID: F.accountCode, VAL: 'AB-1234' }]);
    expect(res[0]).toMatchObject({ Code: -1, Key: 'FIELD_REGEX_MISMATCH', Message: 'Account code must look like AB-1234' });
    expect(res[1]).toMatchObject({ Code: 0, Normalized: 'AB-1234' });
  });

  it('fixed lists (Prop 64): the value must be a list item; case is corrected', async () => {
    const res = await check([{ ID: F.department, VAL: 'finance' }, { ID: F.department, VAL: 'Marketing' }, { ID: F.department, VAL: '' }]);
    expect(res[0]).toMatchObject({ Code: 0, Normalized: 'Finance' });
    expect(res[1]).toMatchObject({ Code: -1, Key: 'FIELD_NOT_IN_LIST' });
    expect(res[2]).toMatchObject({ Code: 0, Normalized: '' });
  });

  it('multi-value and table columns check every entry', async () => {
    const corr = `dbId=1&archiveId=${A.correspondence}`;
    expect((await check([{ ID: F.tags, MVAL: ['a', 'b', ''] }], corr))[0]).toMatchObject({ Code: 0, NormalizedMVAL: ['a', 'b'] });
    expect((await check([{ ID: F.tags, MVAL: ['ok', 'y'.repeat(31)] }], corr))[0]).toMatchObject({ Code: -3 });
    const res = await check([{ ID: F.quantity, MVAL: ['1', 'x'] }, { ID: F.unitPrice, MVAL: ['1.5', ''] }]);
    expect(res[0]).toMatchObject({ Code: -1 });
    expect(res[1]).toMatchObject({ Code: 0, NormalizedMVAL: ['1.5', ''] });
  });

  it('accepts archId for archiveId; refuses bad parameters, unknown archives and archives without view', async () => {
    expect((await check([{ ID: F.title, VAL: 'Hello' }], `dbId=1&archId=${A.invoices}`))[0]).toMatchObject({ Code: 0 });
    expect((await post('dbId=1', [])).statusCode).toBe(400);
    expect((await post(`dbId=1&archiveId=${A.invoices}`, { ID: 1 })).statusCode).toBe(400);
    expect((await post(`dbId=99&archiveId=${A.invoices}`, [])).statusCode).toBe(404);
    expect((await post('dbId=1&archiveId=999', [])).statusCode).toBe(404);
    expect((await post(`dbId=1&archiveId=${A.hrFiles}`, [])).statusCode).toBe(403);
    const noToken = await s.app.inject({ method: 'POST', url: `/api/indexes?dbId=1&archiveId=${A.invoices}`, payload: [] });
    expect(noToken.statusCode).toBe(401);
  });

  it('the read-only licence (type 4) is refused like every write', async () => {
    const r = await post(`dbId=1&archiveId=${A.invoices}`, [{ ID: F.title, VAL: 'x' }], 'viewer');
    expect(r.statusCode).toBe(403);
  });
});
