/**
 * The server's side of list and table fields (issue 4): type-ahead list membership in the field
 * check (POST api/indexes) and on save (PUT FieldData), Min/Max of number fields (ExtendedConfig),
 * and the FieldList carrying the bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexCheckResponse } from '../../src/fields/check-contract';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
let token = '';
beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
  token = await signIn(s, 'user');
});
afterAll(async () => {
  await s?.close();
});

async function check(body: unknown) {
  const r = await s.app.inject({ method: 'POST', url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${token}`, payload: body as object });
  expect(r.statusCode, r.body).toBe(200);
  return IndexCheckResponse.parse(r.json());
}

async function firstInvoice(): Promise<{ Id: number; Hash: string; ArchiveId: number }> {
  const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/1/archive/${A.invoices}/documents?token=${token}&page=1&RecordsPerPage=25` });
  const docs = (r.json() as { Docs: { Id: number; Hash: string; ArchiveId: number }[] }).Docs;
  return docs.find((d) => d.ArchiveId === A.invoices)!;
}

describe('list and table fields on the server', () => {
  it('the FieldList carries Min/Max of a number field that has them, and only then', async () => {
    const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${A.invoices}?type=fields&token=${token}` });
    const fields = r.json() as { ID: number; ExtendedConfig: Record<string, unknown> }[];
    expect(fields.find((f) => f.ID === F.quantity)?.ExtendedConfig).toMatchObject({ Min: 1, Max: 1000 });
    expect(fields.find((f) => f.ID === F.invoiceNumber)?.ExtendedConfig).toEqual({ LiveField: false, UseRegExValidation: false });
  });

  it('POST indexes: a type-ahead value must be a list item (answered in the list spelling); a number outside Min/Max is refused', async () => {
    const res = await check([
      { ID: F.customer, VAL: 'globex' },
      { ID: F.customer, VAL: 'Nobody Trading' },
      { ID: F.customer, VAL: '' },
      { ID: F.quantity, VAL: '1000', MVAL: ['1000', ''] },
      { ID: F.quantity, VAL: '0', MVAL: ['0'] },
    ]);
    expect(res.map((r) => [r.ID, r.Code, r.Key ?? null, r.Normalized ?? null])).toEqual([
      [F.customer, 0, null, 'Globex'],
      [F.customer, -1, 'FIELD_NOT_IN_LIST', null],
      [F.customer, 0, null, ''],
      [F.quantity, 0, null, '1000'],
      [F.quantity, -1, 'FIELD_OUT_OF_RANGE', null],
    ]);
    expect(res[3]!.NormalizedMVAL).toEqual(['1000', '']);
  });

  it('PUT FieldData: a type-ahead value outside its list and a Quantity outside 1..1000 are refused; aligned table rows are kept', async () => {
    const d = await firstInvoice();
    const put = (body: unknown) =>
      s.app.inject({ method: 'PUT', url: `/api/UpdateDocument/databases/1/archive/${d.ArchiveId}/document/${d.Id}/FieldData?secureId=${d.Hash}&token=${token}`, payload: body as object });
    expect((await put([{ ID: F.customer, VAL: 'Nobody Trading' }])).statusCode).toBe(400);
    expect((await put([{ ID: F.quantity, VAL: '1001', MVAL: ['1001'] }])).statusCode).toBe(400);
    const ok = await put([
      { ID: F.customer, VAL: 'Hooli' },
      { ID: F.item, VAL: 'Paper', MVAL: ['Paper', 'Toner'] },
      { ID: F.quantity, VAL: '2', MVAL: ['2', ''] },
      { ID: F.unitPrice, VAL: '', MVAL: ['', '1.5'] },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const fields = (ok.json() as { Fields: { ID: number; VAL: string; MVAL?: string[] }[] }).Fields;
    const mval = (id: number) => fields.find((f) => f.ID === id)?.MVAL;
    expect([mval(F.item), mval(F.quantity), mval(F.unitPrice)]).toEqual([['Paper', 'Toner'], ['2', ''], ['', '1.5']]);
    expect(fields.find((f) => f.ID === F.customer)?.VAL).toBe('Hooli');
  });
});
