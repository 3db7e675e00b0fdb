/**
 * Result pages that do not grow with the archive (issue 8, item 20): every sort walks its index,
 * and a count without conditions (kept per archive by the database) stays right through inserts,
 * moves, deletes and the folding of its delta rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentPage } from '../../src/api/search';
import type { ArchiveRow } from '../../server/auth/permissions';
import type { Queryable, Store } from '../../server/db/store';
import { archiveFields, isMulti, promptsOf } from '../../server/search/model';
import { orderBy, parseCriteria } from '../../server/search/query';
import { runPage } from '../../server/search/run';
import { SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const S = SEED_IDS.search;
let s: TestServer;
let token = '';
beforeAll(async () => {
  s = await startServer({ seed: { docs: 120 } });
  token = await signIn(s, 'admin');
});
afterAll(async () => {
  await s?.close();
});

async function page(archiveId: number, searchId: number = S.allInvoices): Promise<DocumentPage> {
  const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${searchId}/archive/${archiveId}/documents?page=1&RecordsPerPage=25&SearchCriteria=%5B%5D&Count=true&token=${token}` });
  expect(r.statusCode, r.body).toBe(200);
  return DocumentPage.parse(r.json());
}

async function dbCount(archives: number[]): Promise<number> {
  const r = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE NOT deleted AND archive_id IN (${archives.join(',')})`);
  return Number(r.rows[0]?.n);
}

describe('sort indexes', () => {
  it('a page sorted by any scalar field, either way, walks that field\'s index (no sort of all matches)', async () => {
    const fields = (await archiveFields(s.store, A.invoices)).filter((f) => !isMulti(f));
    expect(fields.length).toBeGreaterThan(10);
    for (const f of fields) {
      for (const dir of ['asc', 'desc'] as const) {
        // With sorting priced out, the planner sorts only if no index gives the order.
        const plan = await s.store.transaction(async (tx) => {
          await tx.exec('SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off');
          const r = await tx.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN SELECT d.id FROM documents d WHERE NOT d.deleted AND d.archive_id IN (${A.invoices}, ${A.paidInvoices}) ORDER BY ${orderBy([{ field: String(f.id), dir }], fields, false)} LIMIT 25`,
          );
          return r.rows.map((x) => x['QUERY PLAN']).join('\n');
        });
        expect(plan, `${f.name} ${dir}`).toContain(`documents_k${f.id}_${dir}`);
        expect(plan, `${f.name} ${dir}`).not.toMatch(/\bSort\b/);
      }
    }
  });
});

describe('counts without conditions', () => {
  it('follow inserts, moves, deletes and restores, also once the delta rows are folded', async () => {
    const scope = [A.invoices, A.paidInvoices];
    const expectCount = async () => {
      const p = await page(A.invoices);
      expect(p.Count).toBe(await dbCount(scope));
      const sub = await page(A.paidInvoices);
      expect(sub.Count).toBe(await dbCount([A.paidInvoices]));
    };
    await expectCount();
    const before = await dbCount(scope);

    // One statement inserting into two archives, then many single-row statements (folded on read).
    await s.store.query(`INSERT INTO documents (archive_id, secure_hash) SELECT CASE WHEN g % 2 = 0 THEN ${A.invoices} ELSE ${A.paidInvoices} END, 'idx-test-' || g FROM generate_series(1, 30) g`);
    await expectCount();
    for (let i = 0; i < 70; i++) await s.store.query(`INSERT INTO documents (archive_id, secure_hash) VALUES (${A.paidInvoices}, 'idx-one-${i}')`);
    await expectCount();
    expect(await dbCount(scope)).toBe(before + 100);
    const rows = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM archive_doc_counts WHERE archive_id IN (${scope.join(',')})`);
    expect(Number(rows.rows[0]?.n)).toBeLessThanOrEqual(scope.length + 1);

    // Moved out of the search's archives, soft-deleted, restored, deleted for good.
    await s.store.query(`UPDATE documents SET archive_id = ${A.contracts} WHERE secure_hash LIKE 'idx-test-%' AND archive_id = ${A.paidInvoices}`);
    await expectCount();
    await s.store.query(`UPDATE documents SET deleted = true WHERE secure_hash LIKE 'idx-one-%'`);
    await expectCount();
    await s.store.query(`UPDATE documents SET deleted = false WHERE secure_hash LIKE 'idx-one-1%'`);
    await expectCount();
    await s.store.query(`DELETE FROM documents WHERE secure_hash LIKE 'idx-%'`);
    await expectCount();
    expect(await dbCount(scope)).toBe(before);
    expect((await page(A.contracts, S.contracts)).Count).toBe(await dbCount([A.contracts, A.contractVersions]));
  });
});

/** The store, with the plan of every full-text statement it runs recorded (EXPLAIN in the same transaction). */
function recordingPlans(store: Store): { store: Store; plans: string[] } {
  const plans: string[] = [];
  const wrap = (q: Queryable): Queryable => ({
    query: async <T,>(sql: string, params?: unknown[]) => {
      if (/^\s*SELECT/i.test(sql) && sql.includes('content_tsv @@')) {
        const r = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        plans.push(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
      }
      return q.query<T>(sql, params);
    },
    exec: (sql: string) => q.exec(sql),
  });
  const proxy = new Proxy(store, {
    get(target, key) {
      if (key === 'query') return wrap(target).query;
      if (key === 'transaction') return <T,>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store: proxy, plans };
}

describe('content search', () => {
  it('counts and pages sorted by hits through the full-text index, never checking every document\'s vector', async () => {
    // A broad word: most documents match, which is when the planner used to scan them all.
    const scope = { archiveIds: [A.invoices, A.paidInvoices], fields: await archiveFields(s.store, A.invoices) };
    const prompts = await promptsOf(s.store, S.contentSearch);
    const content = prompts.find((p) => p.prompt === 'Search text');
    expect(content).toBeDefined();
    const conds = parseCriteria(JSON.stringify([{ ID: content?.id, VAL: 'invoice' }]), prompts);
    const archives = new Map<number, ArchiveRow>();
    const { store, plans } = recordingPlans(s.store);
    const result = await runPage(store, scope, conds, { page: 1, size: 5, sort: [{ field: 'HITS', dir: 'desc' }], freshCount: true }, { trgm: s.store.hasTrgm, now: s.clock.t, archives });

    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toContain('Bitmap Index Scan on documents_tsv_gin');
      expect(plan).not.toMatch(/Seq Scan|documents_archive_idx/);
    }
    // The same answer as the plain query: the count, and the best ranked documents in order.
    const q = `NOT deleted AND archive_id IN (${A.invoices}, ${A.paidInvoices}) AND content_tsv @@ websearch_to_tsquery('english', 'invoice')`;
    const n = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${q}`);
    expect(result.count).toBe(Number(n.rows[0]?.n));
    expect(result.count).toBeGreaterThan(scope.archiveIds.length * 10);
    const best = await s.store.query<{ id: number }>(`SELECT id FROM documents WHERE ${q} ORDER BY ts_rank(content_tsv, websearch_to_tsquery('english', 'invoice'))::float8 DESC, id LIMIT 5`);
    expect(result.docs.map((d) => d.Id)).toEqual(best.rows.map((r) => Number(r.id)));
  });
});
