/**
 * A field's RegEx is matched in bounded time (src/fields/regex.ts): a pattern that makes a
 * backtracking engine run for seconds on one value (`^(a+)+$` took 9 s on 30 characters and held
 * every other request) neither slows the value's own check nor anyone else's request; patterns the
 * engine cannot check are refused when the field is saved; the seed's patterns all work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueField } from '../../src/api/admin-catalogue';
import { FieldDataInvalid, documentPaths } from '../../src/api/documents';
import { IndexCheckResponse } from '../../src/fields/check-contract';
import { regexProblem } from '../../src/fields/regex';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const DB = SEED_IDS.db.demo;
/** 30 characters and a mismatch at the end: the backtracking engine's ~9 s case. */
const HOSTILE = `${'a'.repeat(30)}!`;
/** Generous (the machine may be busy): the linear engine answers in milliseconds; the backtracking one took ~9 s. */
const QUICK_MS = 3000;

let s: TestServer;
let admin = '';
let user = '';
beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
  admin = await signIn(s, 'admin');
  user = await signIn(s, 'user');
  // What an administrator may set in the console: the status field of Invoices takes only a's.
  const r = await s.app.inject({
    method: 'PUT',
    url: `/api/admin/databases/${DB}/fields/${F.status}`,
    headers: { 'auth-token': admin },
    payload: { Name: 'Status', Type: 'CHARACTER', Length: 100, Regex: '(?#Only a)^(a+)+$', ExtendedConfig: { UseRegExValidation: true } },
  });
  expect(r.statusCode, r.body).toBe(200);
  expect(CatalogueField.parse(r.json()).Regex).toBe('(?#Only a)^(a+)+$');
  // The first calls of a fresh server load its catalogue and routes: not what is timed here.
  await s.app.inject({ method: 'POST', url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${user}`, payload: [{ ID: F.status, VAL: 'a' }] });
  await s.app.inject({ method: 'GET', url: `/api/dbs?token=${admin}` });
});
afterAll(async () => {
  await s?.close();
});

/** Runs `call` and says when it answered, in ms from `t0`. */
async function timed<T>(t0: number, call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const value = await call();
  return { value, ms: performance.now() - t0 };
}

describe('field RegEx in bounded time', () => {
  it('POST api/indexes with a hostile value answers at once, and another user\'s GET api/dbs sent meanwhile is not held', async () => {
    const t0 = performance.now();
    const check = timed(t0, () => s.app.inject({ method: 'POST', url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${user}`, payload: [{ ID: F.status, VAL: HOSTILE }] }));
    // Sent while the check runs: a check on the event loop would hold it until the check ends.
    const dbs = new Promise<{ value: { statusCode: number }; ms: number }>((resolve, reject) => {
      setTimeout(() => timed(t0, () => s.app.inject({ method: 'GET', url: `/api/dbs?token=${admin}` })).then(resolve, reject), 5);
    });
    const [c, d] = await Promise.all([check, dbs]);
    expect(c.value.statusCode, c.value.body).toBe(200);
    expect(IndexCheckResponse.parse(c.value.json())[0]).toMatchObject({ Code: -1, Key: 'FIELD_REGEX_MISMATCH', Message: 'Only a' });
    expect(d.value.statusCode).toBe(200);
    expect(c.ms).toBeLessThan(QUICK_MS);
    expect(d.ms).toBeLessThan(QUICK_MS);

    const good = await s.app.inject({ method: 'POST', url: `/api/indexes?dbId=1&archiveId=${A.invoices}&token=${user}`, payload: [{ ID: F.status, VAL: 'aaaa' }] });
    expect(IndexCheckResponse.parse(good.json())[0]).toMatchObject({ Code: 0, Normalized: 'aaaa' });
  });

  it('PUT FieldData with the hostile value is refused at once, with the RegEx\'s message', async () => {
    const doc = (await s.store.query<{ id: number; secure_hash: string }>('SELECT id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id LIMIT 1', [A.invoices])).rows[0]!;
    const t0 = performance.now();
    const r = await s.app.inject({
      method: 'PUT',
      url: `${documentPaths.fieldData(1, A.invoices, Number(doc.id))}?secureId=${encodeURIComponent(doc.secure_hash)}`,
      headers: { 'auth-token': user },
      payload: [{ ID: F.status, VAL: HOSTILE }],
    });
    expect(performance.now() - t0).toBeLessThan(QUICK_MS);
    expect(r.statusCode, r.body).toBe(400);
    expect(FieldDataInvalid.parse(r.json()).Fields).toEqual([expect.objectContaining({ ID: F.status, Code: -1, Message: 'Only a' })]);
  });

  it('saving a field with a pattern the engine cannot check answers 400 CATALOGUE_REGEX_UNSUPPORTED; nothing is stored', async () => {
    const url = `/api/admin/databases/${DB}/fields/${F.status}`;
    for (const Regex of ['(?#Twice)^(a)\\1$', '^a(?=b)', '(?<!x)y', '(?:\\p{L}{50}|x)'.repeat(100)]) {
      const r = await s.app.inject({ method: 'PUT', url, headers: { 'auth-token': admin }, payload: { Name: 'Status', Type: 'CHARACTER', Length: 100, Regex } });
      expect(r.statusCode, Regex).toBe(400);
      expect(r.json()).toMatchObject({ Key: 'CATALOGUE_REGEX_UNSUPPORTED' });
    }
    // A pattern fine for a short field is too costly to check on values of 4,000 characters.
    const costly = '^(?:[a-z]{1,100}@){5}$';
    const ok = await s.app.inject({ method: 'POST', url: `/api/admin/databases/${DB}/fields`, headers: { 'auth-token': admin }, payload: { Name: 'Mail path', Type: 'CHARACTER', Length: 50, Regex: costly } });
    expect(ok.statusCode, ok.body).toBe(200);
    const long = await s.app.inject({ method: 'POST', url: `/api/admin/databases/${DB}/fields`, headers: { 'auth-token': admin }, payload: { Name: 'Long mail path', Type: 'CHARACTER', Length: 4000, Regex: costly } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ Key: 'CATALOGUE_REGEX_UNSUPPORTED' });
    const stored = await s.app.inject({ method: 'GET', url, headers: { 'auth-token': admin } });
    expect(CatalogueField.parse(stored.json()).Regex).toBe('(?#Only a)^(a+)+$');
  });

  it('every RegEx the seed stores can be checked by the engine', async () => {
    const r = await s.store.query<{ regex: string; type: number; size: number | null }>("SELECT regex, type, size FROM fields WHERE coalesce(regex, '') <> '' AND id <> $1", [F.status]);
    expect(r.rows.length).toBeGreaterThan(0);
    for (const f of r.rows) expect(regexProblem(f.regex, f.size ?? 50), f.regex).toBeNull();
  });
});
