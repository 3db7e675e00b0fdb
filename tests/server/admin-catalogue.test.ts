/**
 * The field catalogue's calls (src/api/admin-catalogue.ts): administrators only, the field
 * defaults and rules, table fields, lists with their assembly rules, and that a change reaches the
 * user app's calls at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueField, CatalogueList, Deleted, TableField } from '../../src/api/admin-catalogue';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
let admin = '';
let user = '';
let viewer = '';
const DB = SEED_IDS.db.demo;
const base = `/api/admin/databases/${DB}`;

beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
  admin = await signIn(s, 'admin');
  user = await signIn(s, 'user');
  viewer = await signIn(s, 'viewer');
});
afterAll(async () => {
  await s?.close();
});

async function call(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return s.app.inject({ method, url, headers: { 'auth-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });
}
async function ok<T>(schema: { parse: (x: unknown) => T }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<T> {
  const r = await call(admin, method, url, payload);
  expect(r.statusCode, r.body).toBe(200);
  return schema.parse(r.json());
}
const field = (payload: unknown) => ok(CatalogueField, 'POST', `${base}/fields`, payload);
const refusedKey = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, status = 400) => {
  const r = await call(admin, method, url, payload);
  expect(r.statusCode, r.body).toBe(status);
  return (r.json() as { Key?: string }).Key;
};

describe('field catalogue', () => {
  it('every call is refused (403) for a user who administers no database, also for a read-only licence', async () => {
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', `${base}/fields`],
      ['GET', `${base}/fields/${F.title}`],
      ['POST', `${base}/fields`, { Name: 'X', Type: 'CHARACTER' }],
      ['PUT', `${base}/fields/${F.title}`, { Name: 'X', Type: 'CHARACTER' }],
      ['DELETE', `${base}/fields/${F.notes}`],
      ['GET', `${base}/tablefields`],
      ['GET', `${base}/tablefields/1`],
      ['POST', `${base}/tablefields`, { Name: 'X', Fields: [] }],
      ['PUT', `${base}/tablefields/1`, { Name: 'X', Fields: [] }],
      ['DELETE', `${base}/tablefields/1`],
      ['GET', `${base}/lists`],
      ['GET', `${base}/lists/1`],
      ['POST', `${base}/lists`, { Name: 'X', Values: [] }],
      ['PUT', `${base}/lists/1`, { Name: 'X', Values: [] }],
      ['PUT', `${base}/lists/`, { Name: 'X', Values: [], AssemblyPath: 'a.dll', AssemblyParameters: 'p' }],
      ['DELETE', `${base}/lists/1`],
    ];
    for (const token of [user, viewer]) {
      for (const [method, url, body] of calls) {
        const r = await call(token, method, url, body);
        expect(r.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    // Nothing changed.
    const title = await ok(CatalogueField, 'GET', `${base}/fields/${F.title}`);
    expect(title.Name).toBe('Title');
  });

  it('reads the seed: types, system fields, a regex with its message, list bindings, table columns', async () => {
    const fields = (await call(admin, 'GET', `${base}/fields`)).json() as CatalogueField[];
    const by = (id: number) => CatalogueField.parse(fields.find((f) => f.Id === id));
    expect(by(F.amount)).toMatchObject({ Type: 'DECIMAL', Format: 'C2', Length: 18 });
    expect(by(F.pageCount)).toMatchObject({ Type: 'NUMBER', SystemField: 'pageCount' });
    expect(by(F.reference).SystemField).toBe('readOnly');
    expect(by(F.accountCode)).toMatchObject({ Regex: '(?#Account code must look like AB-1234)^[A-Z]{2}-\\d{4}$', ExtendedConfig: { UseRegExValidation: true } });
    expect(by(F.department).List).toMatchObject({ Type: 'dropdown', ListId: SEED_IDS.list.departments });
    expect(by(F.customer).List).toMatchObject({ Type: 'typeahead', ListId: SEED_IDS.list.customers });
    expect(by(F.city).List).toMatchObject({ Type: 'dynamic', ListId: SEED_IDS.list.cities, Primary: F.country, Secondary: F.region, Mapping: [] });
    expect(by(F.quantity).TableField).toBe(1);
    expect(by(F.title).Archives).toContain(SEED_IDS.archive.invoices);
  });

  it('a new field: length 50 by default, NUMERIC is NUMBER, a name is required and unique', async () => {
    const f = await field({ Name: 'Catalogue Number', Type: 'NUMERIC' });
    expect(f).toMatchObject({ Type: 'NUMBER', Length: 50, MultiValue: false, Required: false, SystemField: '', Regex: '', List: null, TableField: null, Archives: [] });
    expect(await refusedKey('POST', `${base}/fields`, { Name: '  ', Type: 'CHARACTER' })).toBe('CATALOGUE_NAME_REQUIRED');
    expect(await refusedKey('POST', `${base}/fields`, { Name: 'catalogue number', Type: 'DATE' }, 409)).toBe('CATALOGUE_NAME_EXISTS');
    expect(await refusedKey('POST', `${base}/fields`, { Name: 'Too long', Type: 'CHARACTER', Length: 5000 })).toBe('CATALOGUE_FIELD_LENGTH_INVALID');
    expect(await refusedKey('POST', `${base}/fields`, { Name: 'Bad type', Type: 'BLOB' })).toBe('ERROR_INCORRECT_PARAMETERS');
  });

  it('system fields other than readOnly are never multi-value or required; readOnly may be', async () => {
    const sys = await field({ Name: 'Entered On', Type: 'DATE', SystemField: 'dateEntered', MultiValue: true, Required: true });
    expect(sys).toMatchObject({ SystemField: 'dateEntered', MultiValue: false, Required: false });
    const ro = await field({ Name: 'Locked Code', Type: 'CHARACTER', SystemField: 'readOnly', MultiValue: true, Required: true });
    expect(ro).toMatchObject({ SystemField: 'readOnly', MultiValue: true, Required: true });
  });

  it('a changed data type clears the saved regex settings; a new regex sent with the change stays; a bad pattern is refused', async () => {
    const f = await field({ Name: 'Code', Type: 'CHARACTER', Regex: '(?#Two letters)^[A-Z]{2}$', ExtendedConfig: { UseRegExValidation: true } });
    expect(f.Regex).toBe('(?#Two letters)^[A-Z]{2}$');
    const same = await ok(CatalogueField, 'PUT', `${base}/fields/${f.Id}`, { Name: 'Code', Type: 'CHARACTER', Regex: f.Regex, ExtendedConfig: { UseRegExValidation: true } });
    expect(same.Regex).toBe(f.Regex);
    const changed = await ok(CatalogueField, 'PUT', `${base}/fields/${f.Id}`, { Name: 'Code', Type: 'NUMBER', Regex: f.Regex, ExtendedConfig: { UseRegExValidation: true } });
    expect(changed).toMatchObject({ Type: 'NUMBER', Regex: '', ExtendedConfig: { UseRegExValidation: false } });
    const withNew = await ok(CatalogueField, 'PUT', `${base}/fields/${f.Id}`, { Name: 'Code', Type: 'CHARACTER', Regex: '^\\d+$', ExtendedConfig: { UseRegExValidation: true } });
    expect(withNew).toMatchObject({ Type: 'CHARACTER', Regex: '^\\d+$', ExtendedConfig: { UseRegExValidation: true } });
    expect(await refusedKey('PUT', `${base}/fields/${f.Id}`, { Name: 'Code', Type: 'CHARACTER', Regex: '(?#msg)([a-' })).toBe('CATALOGUE_REGEX_INVALID');
  });

  it('live field settings are stored and read back', async () => {
    const live = { Method: 'GET', Url: 'https://erp.example.com/c/{value}', Headers: 'Accept: application/json', JsonPath: '$.name', Script: '', Body: '' };
    const f = await field({ Name: 'ERP Name', Type: 'CHARACTER', ExtendedConfig: { UseRegExValidation: false, LiveField: live } });
    expect(f.ExtendedConfig.LiveField).toEqual(live);
    const wire = await s.app.inject({ method: 'GET', url: `/api/admin/databases/${DB}/fields/${f.Id}`, headers: { 'auth-token': admin } });
    expect(CatalogueField.parse(wire.json()).ExtendedConfig.LiveField?.JsonPath).toBe('$.name');
  });

  it('lists: empty values dropped; assembly-bound lists need a path and parameters; the test call says it did not run; the server setting disables them', async () => {
    const l = await ok(CatalogueList, 'POST', `${base}/lists`, { Name: 'Colours', Values: ['Red', '', '  ', ' Green ', 'Blue'] });
    expect(l.Values).toEqual(['Red', 'Green', 'Blue']);
    expect(await refusedKey('POST', `${base}/lists`, { Name: 'Asm', Values: [], AssemblyPath: '[SQL]', AssemblyParameters: 'x' })).toBe('CATALOGUE_ASSEMBLY_PATH_REQUIRED');
    expect(await refusedKey('POST', `${base}/lists`, { Name: 'Asm', Values: [], AssemblyPath: '[SQL]Server=db;Query=select 1' })).toBe('CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED');
    const asm = await ok(CatalogueList, 'POST', `${base}/lists`, { Name: 'Asm', Values: ['A'], AssemblyPath: '[mongodb] mongodb://db/x', AssemblyParameters: 'collection=codes' });
    expect(asm).toMatchObject({ AssemblyPath: '[MONGODB]mongodb://db/x', AssemblyParameters: 'collection=codes' });
    const test = await call(admin, 'PUT', `${base}/lists/`, { Name: 'Asm', Values: ['A', ''], AssemblyPath: 'Lists.dll', AssemblyParameters: 'p=1' });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toEqual({ Ran: false, Key: 'CATALOGUE_ASSEMBLY_NOT_RUN', Values: ['A'] });
    expect(await refusedKey('PUT', `${base}/lists/`, { Name: 'Asm', Values: [], AssemblyPath: 'Lists.dll' })).toBe('CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED');
    await s.store.query(`INSERT INTO settings (key, value) VALUES ('lists', '{"assemblyDisabled": true}'::jsonb)`);
    try {
      expect(await refusedKey('POST', `${base}/lists`, { Name: 'Asm 2', Values: [], AssemblyPath: 'Lists.dll', AssemblyParameters: 'p' })).toBe('CATALOGUE_ASSEMBLY_DISABLED');
      expect(await refusedKey('PUT', `${base}/lists/`, { Name: 'Asm 2', Values: [], AssemblyPath: 'Lists.dll', AssemblyParameters: 'p' })).toBe('CATALOGUE_ASSEMBLY_DISABLED');
      // A list that is not assembly-bound is still saved.
      await ok(CatalogueList, 'PUT', `${base}/lists/${l.Id}`, { Name: 'Colours', Values: ['Red'] });
    } finally {
      await s.store.query(`DELETE FROM settings WHERE key = 'lists'`);
    }
  });

  it('table fields: columns set and removed; system fields and another table field\'s columns are refused; deleting keeps the columns', async () => {
    const a = await field({ Name: 'Line Note', Type: 'CHARACTER' });
    const b = await field({ Name: 'Line Qty', Type: 'NUMBER' });
    const tf = await ok(TableField, 'POST', `${base}/tablefields`, { Name: 'Lines', Fields: [a.Id, b.Id] });
    expect(tf.Fields).toEqual([a.Id, b.Id]);
    expect((await ok(CatalogueField, 'GET', `${base}/fields/${a.Id}`)).TableField).toBe(tf.Id);
    const less = await ok(TableField, 'PUT', `${base}/tablefields/${tf.Id}`, { Name: 'Lines', Fields: [b.Id] });
    expect(less.Fields).toEqual([b.Id]);
    expect((await ok(CatalogueField, 'GET', `${base}/fields/${a.Id}`)).TableField).toBeNull();
    expect(await refusedKey('PUT', `${base}/tablefields/${tf.Id}`, { Name: 'Lines', Fields: [b.Id, F.pageCount] })).toBe('CATALOGUE_TABLE_FIELD_INVALID');
    expect(await refusedKey('PUT', `${base}/tablefields/${tf.Id}`, { Name: 'Lines', Fields: [F.quantity] })).toBe('CATALOGUE_TABLE_FIELD_INVALID');
    await ok(Deleted, 'DELETE', `${base}/tablefields/${tf.Id}`);
    expect((await ok(CatalogueField, 'GET', `${base}/fields/${b.Id}`)).TableField).toBeNull();
  });

  it('a dynamic list field: mapping required; its choices follow the primary field in the user app (GET api/indexes)', async () => {
    const country = await field({ Name: 'Depot Country', Type: 'CHARACTER' });
    const fr = await ok(CatalogueList, 'POST', `${base}/lists`, { Name: 'French depots', Values: ['Lyon', 'Lille'] });
    const de = await ok(CatalogueList, 'POST', `${base}/lists`, { Name: 'German depots', Values: ['Köln'] });
    const binding = { Type: 'dynamic', ListId: null, Primary: country.Id, Secondary: null, Mapping: [] as unknown[] };
    expect(await refusedKey('POST', `${base}/fields`, { Name: 'Depot', Type: 'CHARACTER', List: binding })).toBe('CATALOGUE_DYNAMIC_MAPPING_REQUIRED');
    expect(await refusedKey('POST', `${base}/fields`, { Name: 'Depot', Type: 'CHARACTER', List: { ...binding, Primary: null, Mapping: [{ ListId: fr.Id, PrimaryValue: 'France' }] } })).toBe(
      'CATALOGUE_DYNAMIC_PRIMARY_REQUIRED',
    );
    const depot = await field({
      Name: 'Depot',
      Type: 'CHARACTER',
      List: { ...binding, Mapping: [{ ListId: fr.Id, PrimaryValue: 'France' }, { ListId: de.Id, PrimaryValue: 'Germany', SecondaryValue: '' }] },
    });
    expect(depot.List).toMatchObject({ Type: 'dynamic', Primary: country.Id, Mapping: [{ ListId: fr.Id, PrimaryValue: 'France' }, { ListId: de.Id, PrimaryValue: 'Germany' }] });
    const items = async (filter1: string) =>
      ((await s.app.inject({ method: 'GET', url: `/api/indexes?database=${DB}&Field=${depot.Id}&Filter1=${encodeURIComponent(filter1)}&token=${user}` })).json() as { Items: string[] }).Items;
    expect(await items('France')).toEqual(['Lille', 'Lyon']);
    expect(await items('germany')).toEqual(['Köln']);
    // A mapped list's new values reach the field at once.
    await ok(CatalogueList, 'PUT', `${base}/lists/${de.Id}`, { Name: 'German depots', Values: ['Köln', 'Bremen'] });
    expect(await items('Germany')).toEqual(['Bremen', 'Köln']);
    // The list and the primary field are in use.
    expect(await refusedKey('DELETE', `${base}/lists/${fr.Id}`, undefined, 409)).toBe('CATALOGUE_LIST_IN_USE');
    expect(await refusedKey('DELETE', `${base}/fields/${country.Id}`, undefined, 409)).toBe('CATALOGUE_FIELD_IN_USE');
    // The field and its own dynamic list go together; then the list is free.
    const own = depot.List!.ListId!;
    await ok(Deleted, 'DELETE', `${base}/fields/${depot.Id}`);
    expect((await call(admin, 'GET', `${base}/lists/${own}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${base}/lists/${fr.Id}`)).statusCode).toBe(200);
  });

  it('a field in an archive cannot be deleted (CATALOGUE_FIELD_IN_USE names the archive); an unused one can', async () => {
    const r = await call(admin, 'DELETE', `${base}/fields/${F.notes}`);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ Key: 'CATALOGUE_FIELD_IN_USE' });
    expect((r.json() as { Message: string }).Message).toContain('Contracts');
    const f = await field({ Name: 'Scratch', Type: 'CHARACTER' });
    expect((await call(admin, 'DELETE', `${base}/fields/${f.Id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `${base}/fields/${f.Id}`)).statusCode).toBe(404);
  });

  it('a changed field shows in the user app at once: length and regex in the archive\'s FieldList, the data version raised', async () => {
    const before = Number((await s.store.query<{ version: number }>('SELECT version FROM data_version')).rows[0]!.version);
    await ok(CatalogueField, 'PUT', `${base}/fields/${F.status}`, { Name: 'Status', Type: 'CHARACTER', Length: 12, Regex: '(?#Status is a word)^[A-Za-z]+$', ExtendedConfig: { UseRegExValidation: true } });
    const after = Number((await s.store.query<{ version: number }>('SELECT version FROM data_version')).rows[0]!.version);
    expect(after).toBeGreaterThan(before);
    const r = await s.app.inject({ method: 'GET', url: `/api/dbs/${DB}/archives/${SEED_IDS.archive.invoices}?type=fields&token=${user}` });
    const status = (r.json() as { ID: number; Size: number; RegEx: string }[]).find((f) => f.ID === F.status)!;
    expect(status).toMatchObject({ Size: 12, RegEx: '(?#Status is a word)^[A-Za-z]+$' });
  });
});
