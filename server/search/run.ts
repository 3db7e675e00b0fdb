/**
 * Runs a search over one archive (and its sub-archives the user may view): one page of documents
 * and the total count. The count is computed once per criteria and data version (data-version.ts)
 * and kept briefly (COUNT_TTL_MS); paging and sorting reuse it. Any committed write to the documents
 * raises the data version, so a count from before a write is never served after it (in this
 * process or any other on the same database).
 */
import type { ResultDocument } from '../../src/api/search.js';
import type { ArchiveRow } from '../auth/permissions.js';
import { intArray, type Queryable, type Store } from '../db/store.js';
import { dataVersion } from './data-version.js';
import { archiveDocCount } from './doc-counts.js';
import { countedFields } from './field-counts.js';
import { isMulti, type FieldRow } from './model.js';
import { Params, buildConditions, orderBy, sortKey, type Condition } from './query.js';
import { HITS_SORT, type SortSpec } from '../../src/api/search.js';
import { termsReady } from './terms-fill.js';
import { textWords, type TextWords } from './text-words.js';

const COUNT_TTL_MS = 60_000;
const COUNT_MAX = 1000;
/**
 * Counts by filter, per database (two stores in one process, as the tests run them, can have the same
 * data version and filters and must not answer each other's counts).
 */
const countsByDb = new WeakMap<Queryable, Map<string, { n: number; at: number }>>();
const countsOf = (db: Queryable) => {
  let m = countsByDb.get(db);
  if (!m) countsByDb.set(db, (m = new Map()));
  return m;
};

function cachedCount(db: Queryable, key: string, now: number): number | undefined {
  const counts = countsOf(db);
  const hit = counts.get(key);
  if (!hit) return undefined;
  if (now - hit.at > COUNT_TTL_MS) {
    counts.delete(key);
    return undefined;
  }
  return hit.n;
}

function remember(db: Queryable, key: string, n: number, now: number) {
  const counts = countsOf(db);
  counts.delete(key);
  counts.set(key, { n, at: now });
  while (counts.size > COUNT_MAX) counts.delete(counts.keys().next().value as string);
}

export interface Scope {
  /** Archives searched: the archive and its sub-archives the user may view. */
  archiveIds: number[];
  /** Fields of the searched archive (conditions and sorts use these). */
  fields: FieldRow[];
  /** Status field and value of the chosen view tab, if any. */
  tab?: { fieldId: number; value: string };
}

interface Where {
  sql: string;
  params: Params;
  /** The archives searched (integers, written into the SQL). */
  ids: number[];
  tsquery?: string;
  terms: string[];
  /** With a full-text condition: the same filter, for a plan driven by the full-text index (textDriven). */
  textSql?: string;
  /** With a full-text condition: its words (Hits counts the positive ones). */
  words?: TextWords;
  /**
   * With a one-word full-text condition and document_terms filled: the filter without the full-text
   * clause, which the word's rows in document_terms stand for (they are the live documents whose
   * text holds it).
   */
  term?: { sql: string; params: Params };
  /**
   * The key the database keeps this filter's count under (doc-counts.ts), when the archives and at
   * most one more condition filter: nothing more ({}), one content-search word, or one value of a
   * counted field (field-counts.ts).
   */
  kept?: { field?: number; term?: string };
}

/** The filter's clauses (`text: false`: without the full-text one) and their parameters. */
function filterOf(scope: Scope, conds: readonly Condition[], opts: { trgm: boolean; text: boolean }) {
  const params = new Params();
  // Archive ids come from the catalogue (integers), written into the SQL so the planner sees them.
  const ids = scope.archiveIds.filter((id) => Number.isInteger(id));
  const clauses = ['NOT d.deleted', inArchives('d.archive_id', ids)];
  const built = buildConditions(conds, scope.fields, params, opts);
  clauses.push(...built.where);
  if (scope.tab && scope.tab.value !== '') {
    const f = scope.fields.find((x) => x.id === scope.tab?.fieldId);
    // The value is not empty, so the text sort key (NULL for '') matches the same documents and walks its index.
    if (f && !isMulti(f)) {
      const term = scope.tab.value.toLowerCase();
      const clause = `${sortKey({ id: f.id, type: 1 })} = ${params.add(term)}`;
      clauses.push(clause);
      if (f.type === 1) built.equals.set(clause, { field: f.id, term });
    }
  }
  return { ids, clauses, params, built };
}

async function whereOf(db: Queryable, scope: Scope, conds: readonly Condition[], trgm: boolean): Promise<Where> {
  const { ids, clauses, params, built } = filterOf(scope, conds, { trgm, text: true });
  const w: Where = { sql: clauses.join(' AND '), params, ids, tsquery: built.tsquery, terms: built.terms, kept: clauses.length === 2 ? {} : undefined };
  const only = clauses.length === 3 ? built.equals.get(clauses[2] as string) : undefined;
  if (only && (await countedFields(db)).has(only.field)) w.kept = only;
  const text = built.text;
  if (!text) return w;
  // The same rows, in a form no index serves (deleted is NOT NULL): see textDriven.
  w.textSql = ['d.deleted IS NOT TRUE', inArchives('(d.archive_id + 0)', ids), ...clauses.slice(2)].join(' AND ');
  w.words = await textWords(db, text.query);
  if (w.words.single !== undefined && (await termsReady(db))) {
    const rest = filterOf(scope, conds, { trgm, text: false });
    w.term = { sql: rest.clauses.join(' AND '), params: rest.params };
    if (rest.clauses.length === 2) w.kept = { term: w.words.single };
  }
  return w;
}

const inArchives = (col: string, ids: readonly number[]) => (ids.length ? `${col} IN (${ids.join(', ')})` : 'false');

/**
 * Hits: how many times the search's words occur in the document, from the positions of their
 * lexemes in its vector (the lexemes as a JSON array: a parameter that reads the same on PGlite and PostgreSQL).
 */
const hitsOf = (params: Params, lexemes: readonly string[]) =>
  `(SELECT COALESCE(sum(tsv_hits(u.positions)), 0) FROM unnest(d.content_tsv) u WHERE u.lexeme IN (SELECT jsonb_array_elements_text(${params.add(JSON.stringify(lexemes))}::jsonb)))::float8`;

/**
 * Runs a full-text count or a page sorted by hits on a plan driven by the full-text (GIN) index,
 * when document_terms cannot serve it (several words, or its fill not done). The planner prices a
 * tsvector match at one operator call, but each one it checks row by row first fetches the
 * document's tsvector from the TOAST table (~3 buffers; counting hits then fetches it again). For a
 * broad search ("invoice": 35,000 of 45,000 documents at 100,000) it preferred a sequential scan,
 * or the archive index, checking every vector: 113,000 buffers for the count and 209,000 for the
 * page, against 16,500 and 112,000 through the GIN index, whose match needs no recheck. So the
 * sequential scan is priced out for this one statement, and the archive filter is written
 * `archive_id + 0` and `deleted IS NOT TRUE`, which neither the archive index nor its predicate
 * (NOT deleted) serves: both are checked on the heap rows the GIN index yields. Pages sorted by a
 * field keep their plain plan: walking the field's sort index and checking vectors until the page
 * is full stops after a few dozen rows.
 */
async function textDriven<T>(db: Store, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off');
    return fn(tx);
  });
}

/**
 * The number of matches: kept per archive by the database when only the archives filter, or with
 * them one content-search word or one value of a counted field; counted otherwise.
 */
async function countOf(db: Store, w: Where, values: unknown[]): Promise<number> {
  if (w.kept) return archiveDocCount(db, w.ids, w.kept);
  const { textSql } = w;
  const r = textSql
    ? await textDriven(db, (tx) => tx.query<{ n: number }>(`SELECT count(*) AS n FROM documents d WHERE ${textSql}`, values))
    : await db.query<{ n: number }>(`SELECT count(*) AS n FROM documents d WHERE ${w.sql}`, values);
  return Number(r.rows[0]?.n ?? 0);
}

export async function countMatches(db: Store, scope: Scope, conds: readonly Condition[], opts: { trgm: boolean; now: number; fresh?: boolean }): Promise<number> {
  const w = await whereOf(db, scope, conds, opts.trgm);
  const key = `${await dataVersion(db)}\n${w.sql}\n${JSON.stringify(w.params.values)}`;
  if (!opts.fresh) {
    const c = cachedCount(db, key, opts.now);
    if (c !== undefined) return c;
  }
  const n = await countOf(db, w, w.params.values);
  remember(db, key, n, opts.now);
  return n;
}

export interface DocRow {
  id: number;
  archive_id: number;
  secure_hash: string;
  file_name: string | null;
  file_type: string | null;
  page_count: number;
  version: number;
  rev: number;
  fields: Record<string, unknown>;
  mvals: Record<string, unknown>;
  hits: number | null;
}

export interface PageResult {
  count: number;
  docs: ResultDocument[];
  terms: string[];
}

const VERSIONED = 1 | 4 | 16;
/** The columns of a document row toResultDocument reads (hits: NULL where there is no ranking). */
export const DOC_ROW_COLUMNS = 'd.id, d.archive_id, d.secure_hash, d.file_name, d.file_type, d.page_count, d.version, d.rev, d.fields, d.mvals';

/**
 * The version of each document's first page as its thumbnail shows it (the page's file content, its
 * place in the file, its rotation), by document id: it changes with a rotate, a burst, a merge that
 * puts another page first, a new file. The grid's thumbnail addresses carry it (ThumbVersion), so a
 * browser never shows a cached thumbnail of an earlier picture. One indexed query for a page's ids.
 */
export async function thumbVersions(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const r = await db.query<{ document_id: number | string; sha256: string | null; page_in_file: number; rotation: number }>(
    `SELECT p.document_id, f.sha256, p.page_in_file, p.rotation FROM document_pages p LEFT JOIN document_files f ON f.id = p.file_id
      WHERE p.document_id = ANY($1::bigint[]) AND p.page_no = 1`,
    [intArray(ids)],
  );
  return new Map(r.rows.map((x) => [Number(x.document_id), `${(x.sha256 ?? '').slice(0, 16)}.${x.page_in_file}.${x.rotation}`]));
}

/** A document row as the grid (and the viewer's indexer) receives it: every field of the archive with its value. */
export function toResultDocument(d: DocRow, fields: readonly FieldRow[], archives: ReadonlyMap<number, ArchiveRow>, thumbs: ReadonlyMap<number, string>): ResultDocument {
  const archive = archives.get(d.archive_id);
  return {
    Id: Number(d.id),
    Hash: d.secure_hash,
    ArchiveId: d.archive_id,
    FileName: d.file_name,
    FileType: d.file_type,
    PageCount: d.page_count,
    Permissions: archive?.rights ?? 0,
    Hits: d.hits === null || d.hits === undefined ? null : Number(d.hits),
    Version: archive && (archive.props & VERSIONED) !== 0 ? String(d.version) : null,
    Rev: Number(d.rev),
    ThumbVersion: thumbs.get(Number(d.id)) ?? null,
    Fields: fields.map((f) => {
      if (isMulti(f)) {
        const raw = d.mvals?.[String(f.id)];
        const mval = Array.isArray(raw) ? raw.map((v) => (v === null || v === undefined ? '' : String(v))) : [];
        return { ID: f.id, VAL: mval[0] ?? '', MVAL: mval };
      }
      const v = d.fields?.[String(f.id)];
      return { ID: f.id, VAL: v === null || v === undefined ? '' : String(v) };
    }),
  };
}

export async function runPage(
  db: Store,
  scope: Scope,
  conds: readonly Condition[],
  page: { page: number; size: number; sort: readonly SortSpec[]; freshCount: boolean },
  ctx: { trgm: boolean; now: number; archives: ReadonlyMap<number, ArchiveRow> },
): Promise<PageResult> {
  const w = await whereOf(db, scope, conds, ctx.trgm);
  const offset = (page.page - 1) * page.size;
  // Read before the page: a count the page implies is then never filed under a newer version.
  const version = await dataVersion(db);
  const byHits = w.textSql !== undefined && page.sort[0]?.field === HITS_SORT;
  const word = w.words?.single;
  const byTerm = byHits && page.sort.length === 1 && page.sort[0]?.dir === 'desc' && w.term && word !== undefined ? { ...w.term, word } : undefined;
  const params = (byTerm?.params ?? w.params).copy();
  let sql: string;
  if (byTerm) {
    // One word, most hits first: walk the word's rows of document_terms in that order (its index
    // is (term, hits DESC, document_id)) and stop when the page is full.
    sql = `SELECT ${DOC_ROW_COLUMNS}, t.hits::float8 AS hits
             FROM document_terms t JOIN documents d ON d.id = t.document_id
            WHERE t.term = ${params.add(byTerm.word)} AND ${inArchives('t.archive_id', w.ids)} AND ${byTerm.sql}
            ORDER BY t.hits DESC, t.document_id
            LIMIT ${params.add(page.size)} OFFSET ${params.add(offset)}`;
  } else {
    const hits = w.words ? hitsOf(params, w.words.lexemes) : 'NULL::float8';
    const first = byHits ? undefined : groupedSort(page.sort, scope.fields);
    if (first) {
      // Sorted by a field and more: walk the first field's values in order (one step of its index
      // each) and take each value's best rows by the other keys (each walks its own index), rather
      // than reading every document of the first value (7,400 of 45,000 for a department) to sort
      // them. The rows come out in the walk's order: a nested loop over the recursive walk, then
      // the documents without a value, which that sort puts last; the LIMIT stops the walk as soon
      // as the page is full.
      const select = `SELECT ${DOC_ROW_COLUMNS}, ${hits} AS hits FROM documents d WHERE ${w.sql}`;
      const rest = orderBy(page.sort.slice(1), scope.fields, Boolean(w.tsquery));
      const each = params.add(offset + page.size);
      const next = (cond: string) => `SELECT ${first.key} FROM documents d WHERE ${w.sql} AND ${first.key} ${cond} ORDER BY ${first.key} ${first.dir} NULLS LAST LIMIT 1`;
      sql = `WITH RECURSIVE v(k) AS (
               (${next('IS NOT NULL')})
               UNION ALL
               SELECT (${next(`${first.dir === 'ASC' ? '>' : '<'} v.k`)}) FROM v WHERE v.k IS NOT NULL
             )
             SELECT * FROM (
               (SELECT p.* FROM v CROSS JOIN LATERAL (${select} AND ${first.key} = v.k ORDER BY ${rest} LIMIT ${each}) p)
               UNION ALL
               (${select} AND ${first.key} IS NULL ORDER BY ${rest} LIMIT ${each})
             ) x LIMIT ${params.add(page.size)} OFFSET ${params.add(offset)}`;
    } else {
      sql = `SELECT ${DOC_ROW_COLUMNS}, ${hits} AS hits
               FROM documents d WHERE ${byHits ? w.textSql : w.sql}
              ORDER BY ${orderBy(page.sort, scope.fields, Boolean(w.tsquery))}
              LIMIT ${params.add(page.size)} OFFSET ${params.add(offset)}`;
    }
  }
  const r = byHits && !byTerm ? await textDriven(db, (tx) => tx.query<DocRow>(sql, params.values)) : await db.query<DocRow>(sql, params.values);
  const rows = r.rows;

  // The page itself often tells the total; otherwise count once per criteria.
  const key = `${version}\n${w.sql}\n${JSON.stringify(w.params.values)}`;
  let count: number | undefined;
  if (rows.length > 0 && rows.length < page.size) count = offset + rows.length;
  else if (!page.freshCount) count = cachedCount(db, key, ctx.now);
  if (count === undefined) {
    count = await countOf(db, w, w.params.values);
  }
  remember(db, key, count, ctx.now);

  const thumbs = await thumbVersions(db, rows.map((d) => Number(d.id)));
  const docs = rows.map((d) => toResultDocument(d, scope.fields, ctx.archives, thumbs));
  return { count, docs, terms: w.terms };
}

/**
 * The first key of a sort by several columns, when it is a scalar field (which has sort indexes,
 * 009) and no key is hits: its sort expression and direction.
 */
function groupedSort(sort: readonly SortSpec[], fields: readonly FieldRow[]): { key: string; dir: 'ASC' | 'DESC' } | undefined {
  const [head] = sort;
  if (!head || sort.length < 2 || sort.some((x) => x.field === HITS_SORT)) return undefined;
  const f = fields.find((x) => x.id === Number(head.field));
  if (!f || isMulti(f)) return undefined;
  return { key: sortKey(f), dir: head.dir === 'desc' ? 'DESC' : 'ASC' };
}

/**
 * Every matching document (id and archive) in the grid's order for `sort`, at most `limit`: an export
 * of a whole search (services/export.ts) lists them once, then works them one by one.
 */
export async function matchingDocuments(
  db: Store,
  scope: Scope,
  conds: readonly Condition[],
  opts: { trgm: boolean; sort: readonly SortSpec[]; limit: number },
): Promise<{ id: number; archiveId: number }[]> {
  const w = await whereOf(db, scope, conds, opts.trgm);
  const params = w.params.copy();
  // Hits read every listed document's vector: only when the order asks for them.
  const byHits = w.words !== undefined && opts.sort.some((x) => x.field === HITS_SORT);
  const hits = byHits && w.words ? `, ${hitsOf(params, w.words.lexemes)} AS hits` : '';
  const r = await db.query<{ id: number; archive_id: number }>(
    `SELECT d.id, d.archive_id${hits} FROM documents d WHERE ${w.sql}
      ORDER BY ${orderBy(opts.sort, scope.fields, byHits)} LIMIT ${params.add(opts.limit)}`,
    params.values,
  );
  return r.rows.map((d) => ({ id: Number(d.id), archiveId: d.archive_id }));
}
