import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentPage } from '../../src/api/search';
import { FieldDataConflict, FieldDataInvalid, FieldDataResult, documentPaths, formatRevTag } from '../../src/api/documents';
import { ErrorBody } from '../../src/api/errors';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
}
let docs: Doc[] = [];
let next = 0;
/** A fresh invoice per test, so the tests do not see each other's edits. */
const freshDoc = () => {
  const d = docs[next++];
  if (!d) throw new Error('not enough seeded invoices');
  return d;
};

beforeAll(async () => {
  s = await startServer({ seed: { docs: 120 } });
  for (const u of ['user', 'viewer', 'kiosk']) tokens[u] = await signIn(s, u);
  docs = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id', [A.invoices])).rows;
  expect(docs.length).toBeGreaterThan(12);
});
afterAll(async () => {
  await s?.close();
});

interface PutOptions {
  user?: string;
  key?: string;
  rev?: number;
  secureId?: string;
  secureIdHeader?: boolean;
}
const put = (d: Doc, body: unknown, o: PutOptions = {}) => {
  const secure = o.secureId ?? d.secure_hash;
  const headers: Record<string, string> = { 'auth-token': tokens[o.user ?? 'user']! };
  if (o.key) headers['idempotency-key'] = o.key;
  if (o.rev !== undefined) headers['if-match'] = formatRevTag(o.rev);
  if (o.secureIdHeader) headers['secure-id'] = secure;
  const url = documentPaths.fieldData(1, d.archive_id, d.id) + (o.secureIdHeader ? '' : `?secureId=${encodeURIComponent(secure)}`);
  return s.app.inject({ method: 'PUT', url, headers, payload: body as object });
};

async function row(d: Doc) {
  const r = await s.store.query<{ fields: Record<string, string>; mvals: Record<string, string[]>; rev: number }>('SELECT fields, mvals, rev FROM documents WHERE id = $1', [d.id]);
  return r.rows[0]!;
}
async function updates(d: Doc) {
  const r = await s.store.query<{ message: string; user_name: string }>("SELECT message, user_name FROM audit_entries WHERE document_id = $1 AND category = 'updated' AND user_id IS NOT NULL ORDER BY id", [d.id]);
  return r.rows;
}
const val = (res: FieldDataResult, id: number) => res.Fields.find((f) => f.ID === id);

describe('PUT FieldData', () => {
  it('applies the edit, bumps Rev, answers every field and writes one audit entry', async () => {
    const d = freshDoc();
    const before = await row(d);
    const r = await put(d, [{ ID: F.status, VAL: 'Archived' }, { ID: F.title, VAL: 'New title' }], { key: randomUUID(), rev: before.rev });
    expect(r.statusCode).toBe(200);
    const body = FieldDataResult.parse(r.json());
    expect(body.Rev).toBe(before.rev + 1);
    expect(r.headers.etag).toBe(formatRevTag(body.Rev));
    expect(val(body, F.status)?.VAL).toBe('Archived');
    expect(val(body, F.title)?.VAL).toBe('New title');
    expect(body.Fields.length).toBeGreaterThan(10);
    expect(body.FieldRevs).toMatchObject({ [F.status]: body.Rev, [F.title]: body.Rev });
    expect((await row(d)).fields[String(F.status)]).toBe('Archived');
    const audit = await updates(d);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.user_name).toBe('user');
    expect(audit[0]!.message).toContain('Field Status changed from');
    expect(audit[0]!.message).toContain('Field Title changed from');
  });

  it('accepts the secure id as a header and without a stamp', async () => {
    const d = freshDoc();
    const r = await put(d, [{ ID: F.status, VAL: 'Header' }], { secureIdHeader: true });
    expect(r.statusCode).toBe(200);
  });

  it('normalises values, stores multi-value entries and removes emptied values', async () => {
    const d = freshDoc();
    const r = await put(d, [
      { ID: F.item, VAL: 'A', MVAL: ['A', 'B'] },
      { ID: F.accountCode, VAL: '' },
      { ID: F.amount, VAL: '12.50' },
    ]);
    expect(r.statusCode).toBe(200);
    const stored = await row(d);
    expect(stored.mvals[String(F.item)]).toEqual(['A', 'B']);
    expect(stored.fields[String(F.accountCode)]).toBeUndefined();
    expect(stored.fields[String(F.amount)]).toBe('12.50');
  });

  it('a repeat with the same key replays the answer and does not apply twice', async () => {
    const d = freshDoc();
    const key = randomUUID();
    const first = await put(d, [{ ID: F.status, VAL: 'Once' }], { key });
    const again = await put(d, [{ ID: F.status, VAL: 'Once' }], { key });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await updates(d)).toHaveLength(1);
    expect((await row(d)).rev).toBe(FieldDataResult.parse(first.json()).Rev);
  });

  it('the same key with a different body -> 422', async () => {
    const d = freshDoc();
    const key = randomUUID();
    expect((await put(d, [{ ID: F.status, VAL: 'One' }], { key })).statusCode).toBe(200);
    const r = await put(d, [{ ID: F.status, VAL: 'Two' }], { key });
    expect(r.statusCode).toBe(422);
    expect((await row(d)).fields[String(F.status)]).toBe('One');
  });

  it('the same key with a different base Rev (If-Match) -> 422, not a replay of the first answer', async () => {
    const d = freshDoc();
    const key = randomUUID();
    const base = (await row(d)).rev;
    expect((await put(d, [{ ID: F.status, VAL: 'Based' }], { key, rev: base })).statusCode).toBe(200);
    const r = await put(d, [{ ID: F.status, VAL: 'Based' }], { key, rev: base + 1 });
    expect(r.statusCode).toBe(422);
    expect(await updates(d)).toHaveLength(1);
  });

  it('the same key sent concurrently -> 409 for the one still running, applied once', async () => {
    const d = freshDoc();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => put(d, [{ ID: F.status, VAL: 'Race' }], { key })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses).toContain(409);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(ErrorBody.parse(a.json()).Key).toBe('ERROR_IDEMPOTENCY_IN_PROGRESS');
    expect(await updates(d)).toHaveLength(1);
  });

  it('a stale stamp on a field changed since -> 409 CONFLICT with the current values, nothing applied', async () => {
    const d = freshDoc();
    const base = (await row(d)).rev;
    expect((await put(d, [{ ID: F.status, VAL: 'Theirs' }], { rev: base })).statusCode).toBe(200);
    const r = await put(d, [{ ID: F.status, VAL: 'Mine' }], { rev: base, key: randomUUID() });
    expect(r.statusCode).toBe(409);
    const body = FieldDataConflict.parse(r.json());
    expect(body.Conflicts).toEqual([F.status]);
    expect(body.Current.Rev).toBe(base + 1);
    expect(val(body.Current, F.status)?.VAL).toBe('Theirs');
    expect((await row(d)).fields[String(F.status)]).toBe('Theirs');
    expect(await updates(d)).toHaveLength(1);
    // Keep mine: the same edit based on the server's Rev applies.
    const kept = await put(d, [{ ID: F.status, VAL: 'Mine' }], { rev: body.Current.Rev, key: randomUUID() });
    expect(kept.statusCode).toBe(200);
    expect((await row(d)).fields[String(F.status)]).toBe('Mine');
  });

  it('a stale stamp on an unrelated field applies', async () => {
    const d = freshDoc();
    const base = (await row(d)).rev;
    expect((await put(d, [{ ID: F.status, VAL: 'Theirs' }], { rev: base })).statusCode).toBe(200);
    const r = await put(d, [{ ID: F.title, VAL: 'My title' }], { rev: base });
    expect(r.statusCode).toBe(200);
    const body = FieldDataResult.parse(r.json());
    expect(body.Rev).toBe(base + 2);
    expect(val(body, F.status)?.VAL).toBe('Theirs');
    expect(val(body, F.title)?.VAL).toBe('My title');
  });

  it('a change by another writer (any UPDATE) counts as a change since', async () => {
    const d = freshDoc();
    const base = (await row(d)).rev;
    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.amount}}', '"99.00"') WHERE id = $1`, [d.id]);
    expect((await put(d, [{ ID: F.amount, VAL: '1.00' }], { rev: base })).statusCode).toBe(409);
    expect((await put(d, [{ ID: F.status, VAL: 'Fine' }], { rev: base })).statusCode).toBe(200);
  });

  it('without edit right (1024) -> 403', async () => {
    const d = freshDoc();
    await s.store.query('UPDATE archive_permissions SET rights = 1 WHERE archive_id = $1 AND user_id = $2', [A.invoices, SEED_IDS.user.kiosk]);
    const r = await put(d, [{ ID: F.status, VAL: 'No' }], { user: 'kiosk' });
    expect(r.statusCode).toBe(403);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect(await updates(d)).toHaveLength(0);
  });

  it('a read-only licence (viewer) -> 403', async () => {
    const d = freshDoc();
    const r = await put(d, [{ ID: F.status, VAL: 'No' }], { user: 'viewer', key: randomUUID() });
    expect(r.statusCode).toBe(403);
    expect(await updates(d)).toHaveLength(0);
  });

  it('a wrong secure id -> 403', async () => {
    const d = freshDoc();
    const r = await put(d, [{ ID: F.status, VAL: 'No' }], { secureId: 'not-the-hash' });
    expect(r.statusCode).toBe(403);
  });

  it('a read-only field -> 403', async () => {
    const d = freshDoc();
    const r = await put(d, [{ ID: F.reference, VAL: 'X' }]);
    expect(r.statusCode).toBe(403);
  });

  it('invalid values and unknown fields -> 400 with per-field codes, nothing applied', async () => {
    const d = freshDoc();
    const before = await row(d);
    const r = await put(d, [
      { ID: F.invoiceNumber, VAL: '12a' },
      { ID: F.documentDate, VAL: '2026-02-30' },
      { ID: F.title, VAL: '' },
      { ID: F.department, VAL: 'Nowhere' },
      { ID: F.notes, VAL: 'not in Invoices' },
      { ID: 99999, VAL: 'x' },
    ]);
    expect(r.statusCode).toBe(400);
    const body = FieldDataInvalid.parse(r.json());
    const codes = Object.fromEntries(body.Fields.map((f) => [f.ID, f.Code]));
    expect(codes).toEqual({ [F.invoiceNumber]: -1, [F.documentDate]: -2, [F.title]: -5, [F.department]: -1, [F.notes]: -4, 99999: -4 });
    expect((await row(d)).rev).toBe(before.rev);
  });

  it('a malformed body -> 400', async () => {
    const d = freshDoc();
    expect((await put(d, { ID: 1 })).statusCode).toBe(400);
    expect((await put(d, [])).statusCode).toBe(400);
  });

  it('a dynamic-list value must be in its list for the parents\' values, as they will be after the edit', async () => {
    const r = await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id LIMIT 1', [A.correspondence]);
    const d = r.rows[0]!;
    // Munich is a city of Germany/South, not of France/North.
    const wrong = await put(d, [{ ID: F.country, VAL: 'France' }, { ID: F.region, VAL: 'North' }, { ID: F.city, VAL: 'Munich' }]);
    expect(wrong.statusCode).toBe(400);
    const body = FieldDataInvalid.parse(wrong.json());
    expect(body.Fields).toEqual([expect.objectContaining({ ID: F.city, Code: -1, MessageKey: 'FIELD_NOT_IN_LIST' })]);
    expect((await row(d)).fields[String(F.city)]).not.toBe('Munich');
    const right = await put(d, [{ ID: F.country, VAL: 'France' }, { ID: F.region, VAL: 'North' }, { ID: F.city, VAL: 'Lille' }]);
    expect(right.statusCode).toBe(200);
    expect((await row(d)).fields[String(F.city)]).toBe('Lille');
  });

  it('an edit names its author in the "last modified by" field (Prop 256)', async () => {
    const d = freshDoc();
    const r = await put(d, [{ ID: F.title, VAL: 'Renamed by user' }]);
    expect(r.statusCode).toBe(200);
    expect((await row(d)).fields[String(F.lastModifiedBy)]).toBe('user');
    const answer = FieldDataResult.parse(r.json());
    expect(answer.Fields.find((f) => f.ID === F.lastModifiedBy)?.VAL).toBe('user');
  });

  it('result pages carry the Rev the grid sends back', async () => {
    const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?page=1&RecordsPerPage=100&token=${tokens.user}` });
    expect(r.statusCode).toBe(200);
    const page = DocumentPage.parse(r.json());
    const edited = page.Docs.find((x) => x.Id === docs[0]!.id);
    expect(edited?.Rev).toBe((await row(docs[0]!)).rev);
  });
});
