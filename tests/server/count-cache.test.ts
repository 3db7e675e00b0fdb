/**
 * The count caches (server/search/run.ts, the per-archive counts of routes/archives.ts) never
 * answer a count from before a write: they are keyed by the documents' data version (migration
 * 006), which every committed change raises, whoever makes it. A write straight to the database
 * stands for a route that forgets to clear a cache, a job, or another server process on the same
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveList } from '../../src/api/archives';
import { DocumentPage, SearchDetail, encodeSearchCriteria, type SearchCriterion } from '../../src/api/search';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { dataVersion } from '../../server/search/data-version';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const S = SEED_IDS.search;
let s: TestServer;
let token = '';
beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  token = await signIn(s, 'admin');
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string) => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${token}` });

/** One row per page, so the total comes from the count (and its cache), never from the page's length. */
async function page(criteria: SearchCriterion[] = []): Promise<DocumentPage> {
  const q = new URLSearchParams({ page: '1', RecordsPerPage: '1' });
  if (criteria.length) q.set('SearchCriteria', encodeSearchCriteria(criteria));
  const r = await get(`/api/dbs/1/searches/${S.allInvoices}/archive/${A.invoices}/documents?${q.toString()}`);
  expect(r.statusCode, r.body).toBe(200);
  return DocumentPage.parse(r.json());
}

async function searchCount(criteria: SearchCriterion[]): Promise<number | undefined> {
  const r = await get(`/api/dbs/1/searches/${S.allInvoices}?count=true&SearchCriteria=${encodeURIComponent(encodeSearchCriteria(criteria))}`);
  expect(r.statusCode, r.body).toBe(200);
  return (r.json() as { ArchiveCounts?: { Id: number; Count: number }[] }).ArchiveCounts?.find((c) => c.Id === A.invoices)?.Count;
}

async function archiveCount(archiveId: number): Promise<number> {
  const r = await get('/api/dbs/1/archives');
  expect(r.statusCode, r.body).toBe(200);
  return ArchiveList.parse(r.json()).find((a) => a.Id === archiveId)?.Count ?? -1;
}

async function titlePrompt(): Promise<number> {
  const d = SearchDetail.parse((await get(`/api/dbs/1/searches/${S.allInvoices}`)).json());
  const p = d.Detail.find((x) => x.Prompt === 'Title');
  expect(p).toBeDefined();
  return p!.ID;
}

async function invoices(n: number): Promise<{ id: number; hash: string }[]> {
  const r = await s.store.query<{ id: number; secure_hash: string }>('SELECT id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id LIMIT $2', [A.invoices, n]);
  return r.rows.map((x) => ({ id: Number(x.id), hash: x.secure_hash }));
}

describe('count caches and writes', () => {
  it('a field edit that brings documents into a search is counted by the same search at once', async () => {
    const criteria = [{ ID: await titlePrompt(), VAL: 'countmark-edit' }];
    expect((await page(criteria)).Count).toBe(0);
    const [a, b] = await invoices(2);
    for (const d of [a!, b!]) {
      const r = await s.app.inject({
        method: 'PUT',
        url: `/api/UpdateDocument/databases/1/archive/${A.invoices}/document/${d.id}/FieldData?token=${token}&secureId=${d.hash}`,
        payload: [{ ID: F.title, VAL: `countmark-edit ${d.id}` }],
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    expect((await page(criteria)).Count).toBe(2);
    expect(await searchCount(criteria)).toBe(2);
  });

  it('a write that no route announces (another process, a job) is counted at once by results, search counts and archive counts', async () => {
    const criteria = [{ ID: await titlePrompt(), VAL: 'countmark-direct' }];
    const all = (await page()).Count;
    const perArchive = await archiveCount(A.invoices);
    expect(await searchCount(criteria)).toBe(0);
    expect((await page(criteria)).Count).toBe(0);
    // Asked twice: the counts are in the caches now.
    expect((await page()).Count).toBe(all);
    expect(await archiveCount(A.invoices)).toBe(perArchive);

    const [, , c, d] = await invoices(4);
    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.title}}', '"countmark-direct"') WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::int)`, [JSON.stringify([c!.id, d!.id])]);
    expect((await page(criteria)).Count).toBe(2);
    expect(await searchCount(criteria)).toBe(2);

    await s.store.query('UPDATE documents SET deleted = true WHERE id = $1', [c!.id]);
    expect((await page()).Count).toBe(all - 1);
    expect((await page(criteria)).Count).toBe(1);
    expect(await searchCount(criteria)).toBe(1);
    expect(await archiveCount(A.invoices)).toBe(perArchive - 1);
  });

  it('the data version moves once per committed write, not on reads nor on a rolled-back write', async () => {
    const v0 = await dataVersion(s.store);
    await page();
    await archiveCount(A.invoices);
    expect(await dataVersion(s.store)).toBe(v0);

    // One transaction of several statements and rows: one step.
    const [e, f] = await invoices(2);
    await s.store.transaction(async (tx) => {
      await tx.query('UPDATE documents SET modified_by = $2 WHERE id = $1', [e!.id, 'count-test']);
      await tx.query('UPDATE documents SET modified_by = $2 WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::int)', [JSON.stringify([e!.id, f!.id]), 'count-test']);
    });
    const v1 = await dataVersion(s.store);
    expect(BigInt(v1)).toBe(BigInt(v0) + 1n);

    await expect(
      s.store.transaction(async (tx) => {
        await tx.query('UPDATE documents SET deleted = true WHERE id = $1', [f!.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await dataVersion(s.store)).toBe(v1);
  });
});
