/**
 * DXC sources of an archive and the connection test (the console spec §3, §5, §7; src/api/admin-dxc.ts):
 * administrators only, unique names per archive, mappings of the archive's own fields, and a test that
 * says plainly what it could do, fails cleanly and never hangs.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DXC_TEST_TIMEOUT_MS, DxcSource, DxcSourceList, DxcTestResult, dxcPaths, type DxcSourceInput } from '../../src/api/admin-dxc';
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

  it('tests a connection: anything but a PostgreSQL address on a network host says so, without trying it', async () => {
    const strings = [
      'Server=erp.example.com;Database=erp',
      // Unix sockets, however they are written.
      'postgres:///db',
      'postgres://u@/db?host=/var/run/postgresql',
      'postgresql://u:p@localhost/db?host=/tmp',
      'postgres://%2Fvar%2Frun%2Fpostgresql/db',
      'socket:/var/run/postgresql?db=db',
      // Options that make the driver read local files.
      'postgres://u:p@127.0.0.1/db?sslrootcert=/etc/passwd',
      'postgres://u:p@127.0.0.1/db?sslmode=require&sslkey=/etc/shadow',
    ];
    for (const ConnectionString of strings) {
      const r = await call('PUT', dxcPaths.test, { ConnectionString });
      expect(r.statusCode, ConnectionString).toBe(200);
      expect(DxcTestResult.parse(r.json()), ConnectionString).toEqual({ Success: false, Key: 'DXC_CONNECTION_UNSUPPORTED', Message: '', Tables: [] });
    }
    expect((await call('PUT', dxcPaths.test, {})).statusCode).toBe(400);
  });

  it('answers the same for a closed port, a silent server, a server that is not PostgreSQL and an unknown host, after the whole timeout', async () => {
    const silent = createServer(() => undefined);
    const ssh = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    const portOf = async (server: ReturnType<typeof createServer>) => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return (server.address() as { port: number }).port;
    };
    const [silentPort, sshPort] = [await portOf(silent), await portOf(ssh)];
    try {
      const addresses = ['postgres://u:p@127.0.0.1:1/db', `postgresql://u:p@127.0.0.1:${silentPort}/db`, `postgres://u:p@127.0.0.1:${sshPort}/db`, 'postgres://u:p@no-such-host.invalid/db'];
      const answers = await Promise.all(
        addresses.map(async (ConnectionString) => {
          const t0 = Date.now();
          const r = await call('PUT', dxcPaths.test, { ConnectionString });
          return { ConnectionString, ms: Date.now() - t0, body: DxcTestResult.parse(r.json()) };
        }),
      );
      for (const a of answers) {
        expect(a.body, a.ConnectionString).toEqual({ Success: false, Key: 'DXC_CONNECTION_UNREACHABLE', Message: '', Tables: [] });
        // Refused at once or never answered: the time does not tell them apart either.
        expect(a.ms, a.ConnectionString).toBeGreaterThanOrEqual(DXC_TEST_TIMEOUT_MS - 100);
        // And the server's limit ends the wait (with room for a busy machine: this catches a test
        // that hangs on a silent server, not a slow CPU).
        expect(a.ms, a.ConnectionString).toBeLessThan(DXC_TEST_TIMEOUT_MS + 15_000);
      }
    } finally {
      silent.close();
      ssh.close();
    }
  });

  it("passes on what a PostgreSQL server itself answers (a wrong password), in the server's words", async () => {
    // The protocol's ErrorResponse to the startup message, as PostgreSQL sends it for a wrong password.
    const field = (code: string, text: string) => Buffer.concat([Buffer.from(code), Buffer.from(`${text}\0`)]);
    const fields = Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', '28P01'), field('M', 'password authentication failed for user "u"'), Buffer.from([0])]);
    const length = Buffer.alloc(4);
    length.writeInt32BE(fields.length + 4);
    const pgLike = createServer((socket) => socket.once('data', () => socket.end(Buffer.concat([Buffer.from('E'), length, fields]))));
    await new Promise<void>((r) => pgLike.listen(0, '127.0.0.1', r));
    try {
      const port = (pgLike.address() as { port: number }).port;
      const r = DxcTestResult.parse((await call('PUT', dxcPaths.test, { ConnectionString: `postgres://u:wrong@127.0.0.1:${port}/crm` })).json());
      expect(r).toEqual({ Success: false, Key: 'DXC_CONNECTION_FAILED', Message: 'password authentication failed for user "u"', Tables: [] });
    } finally {
      pgLike.close();
    }
  });
});
