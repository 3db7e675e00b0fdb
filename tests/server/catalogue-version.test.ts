/**
 * The catalogue version (migration 017, server/services/catalogue-version.ts): every authenticated
 * API answer carries it in the Catalogue-Version header; an administrator's change of a field, a
 * list or a search raises it (so other devices read their kept metadata again, issue 13 item 7),
 * an edit of a document's values does not, and an unauthenticated answer has none.
 */
import { describe, expect, it } from 'vitest';
import { adminConsolePaths } from '../../src/api/admin-console';
import { CATALOGUE_VERSION_HEADER } from '../../src/api/errors';
import { searchPaths } from '../../src/api/search';
import { SEED_IDS } from '../../server/seed/catalog';
import { adminTestServer } from './admin-calls';

const DB = SEED_IDS.db.demo;
const { ctx, call } = adminTestServer(5);
const header = CATALOGUE_VERSION_HEADER.toLowerCase();

/** The version a user's ordinary read answers with. */
async function seenByUser(): Promise<number> {
  const r = await call('GET', searchPaths.list(DB), undefined, 'user');
  expect(r.statusCode).toBe(200);
  const v = Number(r.headers[header]);
  expect(Number.isInteger(v)).toBe(true);
  return v;
}

describe('Catalogue-Version header', () => {
  it('is on authenticated answers (also refusals), not on answers to no one', async () => {
    expect((await call('GET', searchPaths.list(DB), undefined, 'user')).headers[header]).toMatch(/^\d+$/);
    expect((await call('GET', adminConsolePaths.catalogue(DB, 'fields'), undefined, 'user')).statusCode).toBe(403);
    expect((await call('GET', adminConsolePaths.catalogue(DB, 'fields'), undefined, 'user')).headers[header]).toMatch(/^\d+$/);
    const anonymous = await ctx.s.app.inject({ method: 'GET', url: searchPaths.list(DB) });
    expect(anonymous.headers[header]).toBeUndefined();
  });

  it('a new field raises it, and the admin write answers with the new number; a renamed field and a deleted one raise it again', async () => {
    const before = await seenByUser();
    const created = await call('POST', adminConsolePaths.catalogue(DB, 'fields'), { Name: `Cv ${Date.now()}`, Type: 'CHARACTER' });
    expect(created.statusCode, created.body).toBe(200);
    const afterCreate = Number(created.headers[header]);
    expect(afterCreate).toBeGreaterThan(before);
    // Another client (the user's) sees it at once, not after the one-second reuse: the write dropped it.
    expect(await seenByUser()).toBe(afterCreate);

    const id = (created.json() as { Id: number }).Id;
    const renamed = await call('PUT', adminConsolePaths.catalogue(DB, 'fields', id), { Name: `Cv renamed ${Date.now()}`, Type: 'CHARACTER' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(Number(renamed.headers[header])).toBeGreaterThan(afterCreate);
    const deleted = await call('DELETE', adminConsolePaths.catalogue(DB, 'fields', id));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(Number(deleted.headers[header])).toBeGreaterThan(Number(renamed.headers[header]));
  });

  it('a change made outside any route (another process, a script) is seen within a second', async () => {
    const before = await seenByUser();
    await ctx.s.store.query("UPDATE lists SET name = name WHERE id = (SELECT min(id) FROM lists)");
    ctx.s.clock.advance(1100);
    expect(await seenByUser()).toBeGreaterThan(before);
  });

  it('a refused write and a change of documents leave it as it was', async () => {
    const before = await seenByUser();
    const refused = await call('POST', adminConsolePaths.catalogue(DB, 'fields'), { Name: '', Type: 'CHARACTER' });
    expect(refused.statusCode).toBe(400);
    await ctx.s.store.query('UPDATE documents SET rev = rev WHERE id = (SELECT min(id) FROM documents)');
    ctx.s.clock.advance(1100);
    expect(await seenByUser()).toBe(before);
  });
});
