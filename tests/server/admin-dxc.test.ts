/**
 * DXC sources of an archive and the connection test (admin-console.md §3, §5, §7; src/api/admin-dxc.ts):
 * administrators only, unique names per archive, mappings of the archive's own fields, and a test that
 * says plainly what it could do, fails cleanly and never hangs.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DxcSource, DxcSourceList, DxcTestResult, dxcPaths, type DxcSourceInput } from '../../src/api/admin-dxc';
import { ErrorBody } from '../../src/api/errors';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { adminTestServer, type Method } from './admin-calls';

const A = SEED_IDS.archive;
const DB = SEED_IDS.db.demo;
const { call } = adminTestServer(5);


const source = (over: Partial<DxcSourceInput> = {}): DxcSourceInput => ({
  Name: 'CRM',
  ConnectionString: 'postgres://crm.example.invalid/crm',
  Mapping: [{ ArchiveField: F.customer, MappedField: 'CUSTOMER', Required: true }],
  ...over,
});

describe('admin DXC sources', () => {
  it('refuses every call to a user who is not a database administrator (403)', async () => {
    const seeded = DxcSourceList.parse((await call('GET', dxcPaths.list(DB, A.invoices))).json())[0]!;
    const calls: [Method, string, unknown?][] = [
      ['GET', dxcPaths.list(DB, A.invoices)],
      ['POST', dxcPaths.list(DB, A.invoices), source({ Name: 'Nope' })],
      ['GET', dxcPaths.one(DB, A.invoices, seeded.Id)],
      ['PUT', dxcPaths.one(DB, A.invoices, seeded.Id), source({ Name: 'Nope' })],
      ['DELETE', dxcPaths.one(DB, A.invoices, seeded.Id)],
      ['PUT', dxcPaths.test, { ConnectionString: 'postgres://127.0.0.1:1/x' }],
    ];
    for (const u of ['user', 'viewer']) {
      for (const [m, url, body] of calls) {
        const r = await call(m, url, body, u);
        expect(r.statusCode, `${u} ${m} ${url}`).toBe(403);
        expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
      }
    }
    expect(DxcSourceList.parse((await call('GET', dxcPaths.list(DB, A.invoices))).json()).map((x) => x.Name)).toEqual(['ERP invoices']);
  });

  it('lists the seeded source with its mapping', async () => {
    const list = DxcSourceList.parse((await call('GET', dxcPaths.list(DB, A.invoices))).json());
    expect(list[0]).toMatchObject({ Name: 'ERP invoices', ConnectionString: 'Server=erp.example.com;Database=erp', ArchiveId: A.invoices });
    expect(list[0]!.Mapping).toEqual([
      { ArchiveField: F.invoiceNumber, MappedField: 'INVOICE_NO', Required: true },
      { ArchiveField: F.customer, MappedField: 'CUSTOMER_NAME', Required: false },
    ]);
  });

  it('creates, reads, updates and deletes a source; a name must not duplicate another (409)', async () => {
    const r = await call('POST', dxcPaths.list(DB, A.invoices), source());
    expect(r.statusCode, r.body).toBe(200);
    const created = DxcSource.parse(r.json());
    expect(created).toMatchObject({ Name: 'CRM', ArchiveId: A.invoices });

    const dup = await call('POST', dxcPaths.list(DB, A.invoices), source({ Name: '  erp INVOICES ' }));
    expect(dup.statusCode).toBe(409);
    expect(ErrorBody.parse(dup.json()).Key).toBe('DXC_SOURCE_NAME_EXISTS');
    const rename = await call('PUT', dxcPaths.one(DB, A.invoices, created.Id), source({ Name: 'ERP Invoices' }));
    expect(rename.statusCode).toBe(409);
    // Another archive may use the name.
    expect((await call('POST', dxcPaths.list(DB, A.contracts), source({ Name: 'CRM', Mapping: [] }))).statusCode).toBe(200);

    const upd = await call('PUT', dxcPaths.one(DB, A.invoices, created.Id), source({ Name: 'CRM 2', Mapping: [{ ArchiveField: F.title, MappedField: 'TITLE', Required: false }] }));
    expect(upd.statusCode, upd.body).toBe(200);
    const read = DxcSource.parse((await call('GET', dxcPaths.one(DB, A.invoices, created.Id))).json());
    expect(read).toMatchObject({ Name: 'CRM 2', Mapping: [{ ArchiveField: F.title, MappedField: 'TITLE', Required: false }] });

    expect((await call('DELETE', dxcPaths.one(DB, A.invoices, created.Id))).statusCode).toBe(204);
    expect((await call('GET', dxcPaths.one(DB, A.invoices, created.Id))).statusCode).toBe(404);
  });

  it('refuses mappings of fields outside the archive, twice-mapped fields, empty names and unknown archives', async () => {
    expect((await call('POST', dxcPaths.list(DB, A.invoices), source({ Name: 'X', Mapping: [{ ArchiveField: F.recTitle, MappedField: 'T', Required: false }] }))).statusCode).toBe(400);
    const twice = [
      { ArchiveField: F.title, MappedField: 'A', Required: false },
      { ArchiveField: F.title, MappedField: 'B', Required: false },
    ];
    expect((await call('POST', dxcPaths.list(DB, A.invoices), source({ Name: 'Y', Mapping: twice }))).statusCode).toBe(400);
    expect((await call('POST', dxcPaths.list(DB, A.invoices), source({ Name: ' ' }))).statusCode).toBe(400);
    expect((await call('POST', dxcPaths.list(DB, A.invoices), source({ Name: 'Z', Mapping: [{ ArchiveField: F.title, MappedField: '', Required: false }] }))).statusCode).toBe(400);
    expect((await call('GET', dxcPaths.list(DB, A.records))).statusCode).toBe(404);
  });

  it('tests a connection: unsupported strings say so, a refused or silent server fails cleanly within the timeout', async () => {
    const ado = DxcTestResult.parse((await call('PUT', dxcPaths.test, { ConnectionString: 'Server=erp.example.com;Database=erp' })).json());
    expect(ado).toEqual({ Success: false, Key: 'DXC_CONNECTION_UNSUPPORTED', Message: '', Tables: [] });

    // A port nobody listens on: refused at once.
    const refused = DxcTestResult.parse((await call('PUT', dxcPaths.test, { ConnectionString: 'postgres://u:p@127.0.0.1:1/db' })).json());
    expect(refused.Success).toBe(false);
    expect(refused.Key).toBe('DXC_CONNECTION_FAILED');
    expect(refused.Message).not.toBe('');

    // A server that accepts and never answers: the test ends by its timeout, not by hanging.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const t0 = Date.now();
    const hung = DxcTestResult.parse((await call('PUT', dxcPaths.test, { ConnectionString: `postgresql://u:p@127.0.0.1:${port}/db` })).json());
    silent.close();
    expect(hung.Success).toBe(false);
    expect(['DXC_CONNECTION_TIMEOUT', 'DXC_CONNECTION_FAILED']).toContain(hung.Key);
    expect(Date.now() - t0).toBeLessThan(8000);

    expect((await call('PUT', dxcPaths.test, {})).statusCode).toBe(400);
  }, 20_000);
});
