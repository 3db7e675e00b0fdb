/**
 * Result pages that do not grow with the archive (issue 8, item 20): every sort walks its index,
 * a count without conditions (kept per archive by the database) stays right through inserts,
 * moves, deletes and the folding of its delta rows, and a content search sorted by hits (how many
 * times its words occur) reads a one-word page from the word's rows in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentPage } from '../../src/api/search';
import type { ArchiveRow } from '../../server/auth/permissions';
import type { Queryable, Store } from '../../server/db/store';
import { archiveFields, isMulti, promptsOf } from '../../server/search/model';
import { orderBy, parseCriteria } from '../../server/search/query';
import { runPage } from '../../server/search/run';
import { fillTerms, fillTermsStep } from '../../server/search/terms-fill';
import { foldDocCounts } from '../../server/search/doc-counts';
import { F, SEED_IDS } from '../../server/seed/catalog';
import type { SortSpec } from '../../src/api/search';
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

describe('pages sorted by several columns', () => {
  it('walk the first column\'s values one by one and give the same pages as one sort of all matches, documents without a value last', async () => {
    const fields = await archiveFields(s.store, A.invoices);
    const scope = { archiveIds: [A.invoices, A.paidInvoices], fields };
    // Some documents without a department, which every order puts last.
    await s.store.query(`UPDATE documents SET fields = fields - '${F.department}' WHERE id IN (SELECT id FROM documents WHERE archive_id = ${A.invoices} ORDER BY id LIMIT 6)`);
    const prompts = await promptsOf(s.store, S.contentSearch);
    const content = prompts.find((p) => p.prompt === 'Search text');
    const searches = [
      { conds: [], where: '' },
      { conds: parseCriteria(JSON.stringify([{ ID: content?.id, VAL: 'invoice' }]), prompts), where: ` AND d.content_tsv @@ websearch_to_tsquery('english', 'invoice')` },
    ];
    const sorts: SortSpec[][] = [
      [{ field: String(F.department), dir: 'asc' }, { field: String(F.amount), dir: 'desc' }],
      [{ field: String(F.department), dir: 'desc' }, { field: String(F.title), dir: 'asc' }, { field: String(F.documentDate), dir: 'desc' }],
      [{ field: String(F.documentDate), dir: 'asc' }, { field: String(F.customer), dir: 'asc' }],
    ];
    const size = 7;
    for (const search of searches) {
      for (const sort of sorts) {
        const all = await s.store.query<{ id: number }>(
          `SELECT d.id FROM documents d WHERE NOT d.deleted AND d.archive_id IN (${A.invoices}, ${A.paidInvoices})${search.where} ORDER BY ${orderBy(sort, fields, false)}`,
        );
        const want = all.rows.map((r) => Number(r.id));
        expect(want.length).toBeGreaterThan(3 * size);
        const got: number[] = [];
        for (let n = 1; n <= Math.ceil(want.length / size); n++) {
          const { store, plans } = recordingAll(s.store);
          const result = await runPage(store, scope, search.conds, { page: n, size, sort, freshCount: false }, { trgm: s.store.hasTrgm, now: s.clock.t, archives: new Map<number, ArchiveRow>() });
          expect(plans.some((p) => p.includes('Recursive Union')), JSON.stringify(sort)).toBe(true);
          got.push(...result.docs.map((d) => d.Id));
        }
        expect(got, JSON.stringify(sort)).toEqual(want);
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
    const rows = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM archive_doc_counts WHERE field_id = 0 AND term = '' AND archive_id IN (${scope.join(',')})`);
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

describe('counts of one list value or one view tab', () => {
  it('are kept per archive and value, never counted from the documents, and follow edits, moves, deletes and restores', async () => {
    const fields = await archiveFields(s.store, A.invoices);
    const scope = { archiveIds: [A.invoices, A.paidInvoices], fields };
    const prompts = await promptsOf(s.store, S.allInvoices);
    const department = prompts.find((p) => p.prompt === 'Department');
    expect(department).toBeDefined();
    const inScope = `NOT deleted AND archive_id IN (${A.invoices}, ${A.paidInvoices})`;
    const byDepartment = async (value: string) => {
      const { store, sqls } = recordingAll(s.store);
      const conds = parseCriteria(JSON.stringify([{ ID: department?.id, VAL: value }]), prompts);
      const result = await runPage(store, scope, conds, { page: 1, size: 5, sort: [{ field: String(F.amount), dir: 'desc' }], freshCount: true }, { trgm: s.store.hasTrgm, now: s.clock.t, archives: new Map<number, ArchiveRow>() });
      expect(sqls.filter((q) => /count\(\*\)/.test(q))).toEqual([]);
      return result.count;
    };
    const byTab = async (value: string) => {
      const { store, sqls } = recordingAll(s.store);
      const result = await runPage(store, { ...scope, tab: { fieldId: F.status, value } }, [], { page: 1, size: 5, sort: [], freshCount: true }, { trgm: s.store.hasTrgm, now: s.clock.t, archives: new Map<number, ArchiveRow>() });
      expect(sqls.filter((q) => /count\(\*\)/.test(q))).toEqual([]);
      return result.count;
    };
    const inDb = async (field: number, value: string) => {
      const r = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${inScope} AND lower(fields->>'${field}') = $1`, [value.toLowerCase()]);
      return Number(r.rows[0]?.n);
    };
    const check = async () => {
      for (const v of ['Finance', 'sales', 'Nowhere']) expect(await byDepartment(v), v).toBe(await inDb(F.department, v));
      for (const v of ['Paid', 'New']) expect(await byTab(v), v).toBe(await inDb(F.status, v));
    };
    await check();
    expect(await inDb(F.department, 'Finance')).toBeGreaterThan(0);

    const ins = await s.store.query<{ id: number }>(
      `INSERT INTO documents (archive_id, secure_hash, fields) SELECT ${A.paidInvoices}, 'count-test-' || g, jsonb_build_object('${F.department}', CASE WHEN g % 2 = 0 THEN 'FINANCE' ELSE 'Sales' END, '${F.status}', 'Paid')
         FROM generate_series(1, 9) g RETURNING id`,
    );
    const ids = ins.rows.map((r) => Number(r.id)).join(', ');
    await check();
    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.department}}', '"Finance"') WHERE id IN (${ids})`);
    await check();
    await s.store.query(`UPDATE documents SET fields = fields - '${F.department}' WHERE id IN (${ids}) AND id % 3 = 0`);
    await s.store.query(`UPDATE documents SET fields = jsonb_set(fields, '{${F.status}}', '"New"') WHERE id IN (${ids}) AND id % 3 = 1`);
    await check();
    await s.store.query(`UPDATE documents SET archive_id = ${A.contracts} WHERE id IN (${ids}) AND id % 2 = 0`);
    await s.store.query(`UPDATE documents SET deleted = true WHERE id IN (${ids}) AND id % 2 = 1`);
    await check();
    await s.store.query(`UPDATE documents SET deleted = false, archive_id = ${A.invoices} WHERE id IN (${ids})`);
    await check();
    await foldDocCounts(s.store);
    await check();
    await s.store.query(`DELETE FROM documents WHERE id IN (${ids})`);
    await check();
  });
});

/** The store, with the plan of every full-text statement it runs (a match, or the word table) recorded (EXPLAIN in the same transaction). */
const recordingPlans = (store: Store) => recording(store, (sql) => /^\s*SELECT/i.test(sql) && /content_tsv @@|FROM document_terms t /.test(sql));
/** The same for every statement that reads documents. */
const recordingAll = (store: Store) => recording(store, (sql) => /^\s*(SELECT|WITH)/i.test(sql) && sql.includes('FROM documents d'));

function recording(store: Store, record: (sql: string) => boolean): { store: Store; plans: string[]; sqls: string[] } {
  const plans: string[] = [];
  const sqls: string[] = [];
  const wrap = (q: Queryable): Queryable => ({
    query: async <T,>(sql: string, params?: unknown[]) => {
      if (record(sql)) {
        sqls.push(sql);
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
  return { store: proxy, plans, sqls };
}

describe('content search', () => {
  const invoiceScope = async () => ({ archiveIds: [A.invoices, A.paidInvoices], fields: await archiveFields(s.store, A.invoices) });
  const inScope = `NOT deleted AND archive_id IN (${A.invoices}, ${A.paidInvoices})`;
  const byHits = [{ field: 'HITS', dir: 'desc' }] as const;

  async function contentConds(text: string) {
    const prompts = await promptsOf(s.store, S.contentSearch);
    const content = prompts.find((p) => p.prompt === 'Search text');
    expect(content).toBeDefined();
    return parseCriteria(JSON.stringify([{ ID: content?.id, VAL: text }]), prompts);
  }

  /** A page of the Content Search over Invoices, with the plan of each statement the page ran. */
  async function hitsPage(text: string, db: Store = s.store, size = 5) {
    const { store, plans } = recordingPlans(db);
    const result = await runPage(store, await invoiceScope(), await contentConds(text), { page: 1, size, sort: byHits, freshCount: true }, { trgm: s.store.hasTrgm, now: s.clock.t, archives: new Map<number, ArchiveRow>() });
    return { result, plans };
  }

  /** What the page must be: the matches, each with how many times the lexemes occur in its text, most first. */
  async function expected(text: string, lexemes: string[], size = 5) {
    const match = `${inScope} AND content_tsv @@ websearch_to_tsquery('english', $1)`;
    const n = await s.store.query<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${match}`, [text]);
    const hits = `(SELECT sum(array_length(u.positions, 1)) FROM unnest(content_tsv) u WHERE u.lexeme IN (${lexemes.map((l) => `'${l}'`).join(', ')}))`;
    const best = await s.store.query<{ id: number; hits: number }>(`SELECT id, ${hits} AS hits FROM documents WHERE ${match} ORDER BY 2 DESC, id LIMIT ${size}`, [text]);
    return { count: Number(n.rows[0]?.n), docs: best.rows.map((r) => ({ Id: Number(r.id), Hits: Number(r.hits) })) };
  }

  it('one word sorted by hits: its page walks the word\'s rows in order and its count is kept, through edits, deletes and restores', async () => {
    // A broad word: most documents match, which is when ranking them all cost most.
    const check = async () => {
      const { result, plans } = await hitsPage('invoice');
      const want = await expected('invoice', ['invoic']);
      expect(result.count).toBe(want.count);
      expect(result.docs.map((d) => ({ Id: d.Id, Hits: d.Hits }))).toEqual(want.docs);
      expect(plans).toHaveLength(1);
      // In the order of the page: no sort of the matches (at this size the planner may read the few documents whole).
      expect(plans[0]).toContain('Index Only Scan using document_terms_rank');
      expect(plans[0]).not.toMatch(/\bSort\b|documents_tsv_gin/);
      return result;
    };
    const before = await check();
    expect(before.count).toBeGreaterThan(20);

    // Invoice, invoices and invoiced are one word to the search: 32 hits, more than any seeded document.
    const r = await s.store.query<{ id: number }>(
      `INSERT INTO documents (archive_id, secure_hash, content_text) VALUES (${A.paidInvoices}, 'hits-test', repeat('Invoice ', 30) || 'invoices invoiced') RETURNING id`,
    );
    const id = Number(r.rows[0]?.id);
    let now = await check();
    expect(now.docs[0]).toMatchObject({ Id: id, Hits: 32 });
    expect(now.count).toBe(before.count + 1);

    await s.store.query(`UPDATE documents SET content_text = 'one invoice, then ' || repeat('invoices ', 40) WHERE id = ${id}`);
    expect((await check()).docs[0]).toMatchObject({ Id: id, Hits: 41 });
    await s.store.query(`UPDATE documents SET content_text = 'nothing to see' WHERE id = ${id}`);
    now = await check();
    expect(now.count).toBe(before.count);
    await s.store.query(`UPDATE documents SET content_text = repeat('invoice ', 50), archive_id = ${A.invoices} WHERE id = ${id}`);
    expect((await check()).docs[0]).toMatchObject({ Id: id, Hits: 50 });
    await s.store.query(`UPDATE documents SET deleted = true WHERE id = ${id}`);
    expect((await check()).docs.map((d) => d.Id)).not.toContain(id);
    await s.store.query(`UPDATE documents SET archive_id = ${A.contracts} WHERE id = ${id}`);
    await s.store.query(`UPDATE documents SET deleted = false WHERE id = ${id}`);
    expect((await check()).count).toBe(before.count);
    await s.store.query(`UPDATE documents SET archive_id = ${A.invoices} WHERE id = ${id}`);
    expect((await check()).docs[0]).toMatchObject({ Id: id, Hits: 50 });
    await s.store.query(`DELETE FROM documents WHERE id = ${id}`);
    expect((await check()).count).toBe(before.count);
    const left = await s.store.query(`SELECT 1 FROM document_terms WHERE document_id = ${id}`);
    expect(left.rowCount).toBe(0);

    // Many at once, as when an archive is deleted with its documents.
    const sub = await s.store.query(`DELETE FROM documents WHERE archive_id = ${A.paidInvoices}`);
    expect(sub.rowCount).toBeGreaterThan(3);
    expect((await check()).count).toBeLessThan(before.count);
    const orphans = await s.store.query('SELECT 1 FROM document_terms t WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = t.document_id AND NOT d.deleted)');
    expect(orphans.rowCount).toBe(0);
  });

  it('several words sorted by hits: the hits of each add up, and the page and count go through the full-text index, never checking every document\'s vector', async () => {
    const { result, plans } = await hitsPage('invoice payment');
    const want = await expected('invoice payment', ['invoic', 'payment']);
    expect(want.count).toBeGreaterThan(5);
    expect(result.count).toBe(want.count);
    expect(result.docs.map((d) => ({ Id: d.Id, Hits: d.Hits }))).toEqual(want.docs);
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toContain('Bitmap Index Scan on documents_tsv_gin');
      expect(plan).not.toMatch(/Seq Scan|documents_archive_idx/);
    }
  });

  it('documents written before the word table get their words from a background fill; searches answer the same before and after it', async () => {
    // As after migration 018 on an existing archive: no words kept, every document still to fill.
    await s.store.exec(`DELETE FROM document_terms; DELETE FROM archive_doc_counts WHERE term <> '';
      INSERT INTO document_terms_fill (next_id, upto) SELECT 1, max(id) FROM documents`);
    const ids = await s.store.query<{ id: number }>(`SELECT id FROM documents WHERE ${inScope} ORDER BY id`);
    const [first, last] = [Number(ids.rows[0]?.id), Number(ids.rows[ids.rows.length - 1]?.id)];
    const want = await expected('invoice', ['invoic']);
    const unfilled = await hitsPage('invoice', recordingPlans(s.store).store);
    expect(unfilled.result.count).toBe(want.count);
    expect(unfilled.result.docs.map((d) => ({ Id: d.Id, Hits: d.Hits }))).toEqual(want.docs);
    expect(unfilled.plans.join('\n')).toContain('documents_tsv_gin');
    expect(unfilled.plans.join('\n')).not.toContain('document_terms');

    // A step fills the first documents; a change to one of them is kept by the triggers, a change
    // to one further on is left to the fill, which reads it as it is then.
    expect(await fillTermsStep(s.store, 10)).toBe(true);
    await s.store.query(`UPDATE documents SET content_text = repeat('invoice ', 60) WHERE id = ${first}`);
    await s.store.query(`UPDATE documents SET content_text = repeat('invoice ', 70) WHERE id = ${last}`);
    await fillTerms(s.store);
    expect(await fillTermsStep(s.store)).toBe(false);

    const kept = await s.store.query<{ n: number }>(
      `SELECT count(*) AS n FROM (
         (SELECT term, hits, document_id, archive_id FROM document_terms
          EXCEPT ALL SELECT u.lexeme, array_length(u.positions, 1), d.id, d.archive_id FROM documents d, unnest(d.content_tsv) u WHERE NOT d.deleted)
         UNION ALL
         (SELECT u.lexeme, array_length(u.positions, 1), d.id, d.archive_id FROM documents d, unnest(d.content_tsv) u WHERE NOT d.deleted
          EXCEPT ALL SELECT term, hits, document_id, archive_id FROM document_terms)) x`,
    );
    expect(Number(kept.rows[0]?.n)).toBe(0);
    const filled = await hitsPage('invoice', recordingPlans(s.store).store);
    const now = await expected('invoice', ['invoic']);
    expect(now.docs.slice(0, 2)).toEqual([{ Id: last, Hits: 70 }, { Id: first, Hits: 60 }]);
    expect(filled.result.count).toBe(now.count);
    expect(filled.result.docs.map((d) => ({ Id: d.Id, Hits: d.Hits }))).toEqual(now.docs);
    expect(filled.plans.join('\n')).toContain('document_terms_rank');
  });
});
