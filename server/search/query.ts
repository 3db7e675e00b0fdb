/**
 * Turns a search's prompts, the user's SearchCriteria, a view tab and a sort into one SQL WHERE and
 * ORDER BY over `documents d` (src/api/search.ts documents the semantics). Field ids are integers
 * from the catalogue and are written into the SQL; every user value is a bind parameter.
 * Field values are jsonb text: `d.fields->>'id'` (numbers/decimals compared through doc_num, dates
 * as ISO text), multi-value fields in `d.mvals->'id'` (arrays).
 */
import { HITS_SORT, SearchCriteria, type SortSpec } from '../../src/api/search.js';
import { WIRE_MESSAGES } from '../../src/api/errors.js';
import { ApiError, Errors } from '../http/errors.js';
import { isMulti, type FieldRow, type Prompt } from './model.js';

export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
  /** A copy to add more to (a page's own parameters after the filter's). */
  copy(): Params {
    const p = new Params();
    p.values.push(...this.values);
    return p;
  }
}

const fid = (id: number) => {
  if (!Number.isInteger(id) || id <= 0) throw new Error(`bad field id ${id}`);
  return id;
};
const scalar = (id: number) => `(d.fields->>'${fid(id)}')`;

/**
 * The sort key of a scalar field: numbers and decimals by value, dates as ISO text, other text
 * case-insensitively; an empty value is NULL (sorted last). Exactly the expressions of the sort
 * indexes (sort_index_statements in 009_sort_indexes.sql), so ORDER BY, Equals and Range walk them.
 */
export function sortKey(f: Pick<FieldRow, 'id' | 'type'>): string {
  const raw = scalar(f.id);
  if (f.type === 2 || f.type === 4) return `doc_num(${raw})`;
  if (f.type === 3) return `NULLIF(${raw}, '')`;
  return `lower(NULLIF(${raw}, ''))`;
}
const mvArray = (id: number) => `(CASE jsonb_typeof(d.mvals->'${fid(id)}') WHEN 'array' THEN d.mvals->'${fid(id)}' ELSE '[]'::jsonb END)`;

/** `pred(x)` for a scalar field, or "some value matches" for a multi-value one. */
function match(f: { id: number; multi: boolean }, pred: (x: string) => string): string {
  if (!f.multi) return pred(scalar(f.id));
  return `EXISTS (SELECT 1 FROM jsonb_array_elements_text(${mvArray(f.id)}) mv(x) WHERE ${pred('mv.x')})`;
}

function isEmpty(f: { id: number; multi: boolean }): string {
  if (!f.multi) return `COALESCE(${scalar(f.id)}, '') = ''`;
  return `NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(${mvArray(f.id)}) mv(x) WHERE mv.x <> '')`;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const NUMBER = /^-?\d{1,19}$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function checkValue(p: Prompt, v: string): string {
  const t = v.trim();
  const bad = (what: string) => Errors.badRequest(`Incorrect parameters: "${v}" is not ${what} (prompt "${p.prompt}")`);
  if (p.type === 2 && !NUMBER.test(t)) throw bad('a number');
  if (p.type === 4 && !DECIMAL.test(t)) throw bad('a decimal number');
  if (p.type === 3 && !validDate(t)) throw bad('a date (yyyy-mm-dd)');
  return t;
}

export interface Condition {
  prompt: Prompt;
  val: string;
  mval: string[];
}

/** The conditions to apply: the listed criteria, or without criteria the prompts' defaults. */
export function parseCriteria(raw: string | undefined, prompts: readonly Prompt[]): Condition[] {
  if (raw === undefined || raw.trim() === '') {
    return prompts.map((p) => ({ prompt: p, val: p.defaultVal ?? '', mval: p.defaultMval ?? [] }));
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw Errors.badRequest('Incorrect parameters: SearchCriteria is not valid JSON');
  }
  const items = SearchCriteria.parse(json);
  const byId = new Map(prompts.map((p) => [p.id, p]));
  return items.map((c) => {
    const p = byId.get(c.ID);
    if (!p) throw Errors.badRequest(`Incorrect parameters: SearchCriteria ID ${c.ID} is not a prompt of this search`);
    return { prompt: p, val: c.VAL ?? '', mval: (c.MVAL ?? []).map((v) => v ?? '') };
  });
}

export interface Built {
  where: string[];
  /** Full-text query parameter placeholder when the content search is on. */
  tsquery?: string;
  /** The content search's text and its clause in `where`. */
  text?: { query: string; clause: string };
  /** Clauses of `where` that are one scalar text field equal to one value: the field and the value's sort key. */
  equals: Map<string, { field: number; term: string }>;
  terms: string[];
}

/** Positive words of a websearch query, for highlighting (quotes, OR and -excluded words removed). */
export function termsOf(q: string): string[] {
  const out: string[] = [];
  const re = /(-?)"([^"]*)"|(-?)(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(q))) {
    const neg = (m[1] ?? m[3]) === '-';
    if (neg) continue;
    const words = m[2] !== undefined ? m[2].split(/\s+/) : [m[4] ?? ''];
    for (const w of words) {
      const clean = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (!clean || clean === 'OR' || clean.toLowerCase() === 'or') continue;
      if (!out.includes(clean.toLowerCase())) out.push(clean.toLowerCase());
    }
  }
  return out;
}

/**
 * WHERE clauses for the conditions, for one archive whose field set is `fields`: a condition on a
 * field the archive does not have is not applied there (multi-archive searches share prompts).
 * `text: false` leaves the content search out.
 */
export function buildConditions(conds: readonly Condition[], fields: readonly FieldRow[], params: Params, opts: { trgm: boolean; text?: boolean }): Built {
  const fieldSet = new Map(fields.map((f) => [f.id, f]));
  const where: string[] = [];
  const out: Built = { where, terms: [], equals: new Map() };
  for (const { prompt: p, val, mval } of conds) {
    if (p.type === 0) {
      const q = val.trim();
      if (!q || opts.text === false) continue;
      if (!out.tsquery) {
        out.tsquery = params.add(q);
        out.terms = termsOf(q);
        out.text = { query: q, clause: `d.content_tsv @@ websearch_to_tsquery('english', ${out.tsquery})` };
        where.push(out.text.clause);
      }
      continue;
    }
    const f = fieldSet.get(p.fieldId);
    if (!f) continue;
    const fm = { id: f.id, multi: isMulti(f) };
    const type = f.type;
    switch (p.condition) {
      case 'IsEmpty':
        where.push(isEmpty(fm));
        break;
      case 'IsNotEmpty':
        where.push(`NOT (${isEmpty(fm)})`);
        break;
      case 'Range': {
        const [from = '', to = ''] = mval.length ? mval : [val, ''];
        const parts: string[] = [];
        const bound = (v: string, op: '>=' | '<=') => {
          const t = checkValue(p, v);
          if (type === 2 || type === 4) return (x: string) => `doc_num(${x}) ${op} ${params.add(t)}::numeric`;
          return (x: string) => `NULLIF(${x}, '') ${op} ${params.add(t)}`;
        };
        const preds: ((x: string) => string)[] = [];
        if (from.trim()) preds.push(bound(from, '>='));
        if (to.trim()) preds.push(bound(to, '<='));
        if (!preds.length) break;
        parts.push(match(fm, (x) => preds.map((pr) => pr(x)).join(' AND ')));
        where.push(...parts);
        break;
      }
      case 'Contains':
      case 'Equals': {
        const values = [val, ...mval].map((v) => v.trim()).filter((v) => v !== '');
        if (!values.length) break;
        const unique = [...new Set(values)];
        const ors: string[] = [];
        for (const v of unique) {
          if (p.condition === 'Contains') {
            const pat = params.add(`%${likeEscape(v)}%`);
            let pred = match(fm, (x) => `${x} ILIKE ${pat}`);
            // The trigram index on fields::text narrows the rows first (jsonb text escapes " and \).
            if (opts.trgm && !fm.multi && v.length >= 3 && !/["\\\p{Cc}]/u.test(v)) pred = `(d.fields::text ILIKE ${pat} AND ${pred})`;
            ors.push(pred);
          } else if (type === 2 || type === 4) {
            const t = params.add(checkValue(p, v));
            ors.push(match(fm, (x) => `doc_num(${x}) = ${t}::numeric`));
          } else if (type === 3) {
            const t = params.add(checkValue(p, v));
            // v is not empty, so comparing the sort key (NULL for '') matches the same documents.
            ors.push(fm.multi ? match(fm, (x) => `${x} = ${t}`) : `${sortKey(f)} = ${t}`);
          } else {
            const t = params.add(v.toLowerCase());
            ors.push(fm.multi ? match(fm, (x) => `lower(${x}) = ${t}`) : `${sortKey(f)} = ${t}`);
          }
        }
        where.push(ors.length === 1 ? (ors[0] as string) : `(${ors.join(' OR ')})`);
        const only = unique[0];
        if (p.condition === 'Equals' && unique.length === 1 && only !== undefined && type === 1 && !fm.multi) out.equals.set(ors[0] as string, { field: f.id, term: only.toLowerCase() });
        break;
      }
    }
  }
  return out;
}

/** sort=3:desc,HITS:desc. Throws the spec's "Invalid search string, Sort field ..." for anything else. */
export function parseSort(raw: string | undefined, fields: readonly FieldRow[]): SortSpec[] {
  if (!raw || !raw.trim()) return [];
  const out: SortSpec[] = [];
  for (const part of raw.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const [name = '', dirRaw = 'asc', ...rest] = item.split(':').map((s) => s.trim());
    const dir = dirRaw.toLowerCase();
    const invalid = () => new ApiError(400, `${WIRE_MESSAGES.invalidSort} ${name || item} is not a column of this archive`, 'DISCARDING_INVALID_GRID_SORT_MSG');
    if (rest.length || (dir !== 'asc' && dir !== 'desc')) throw invalid();
    if (name.toUpperCase() === HITS_SORT) {
      out.push({ field: HITS_SORT, dir });
      continue;
    }
    if (!/^\d+$/.test(name) || !fields.some((f) => f.id === Number(name))) throw invalid();
    out.push({ field: String(Number(name)), dir });
  }
  return out;
}

export function orderBy(sort: readonly SortSpec[], fields: readonly FieldRow[], hasHits: boolean): string {
  const parts: string[] = [];
  for (const s of sort) {
    const dir = s.dir === 'desc' ? 'DESC' : 'ASC';
    if (s.field === HITS_SORT) {
      if (hasHits) parts.push(`hits ${dir}`);
      continue;
    }
    const f = fields.find((x) => x.id === Number(s.field));
    if (!f) continue;
    let expr = sortKey(f);
    if (isMulti(f)) expr = expr.replace(scalar(f.id), `(d.mvals->'${fid(f.id)}'->>0)`);
    parts.push(`${expr} ${dir} NULLS LAST`);
  }
  parts.push('d.id ASC');
  return parts.join(', ');
}
