/**
 * Pure rules of the results grid (the user-app spec §2, §4, §5, §9): the pager window, page-size
 * validation, the server's sort parameter, the content-search hits marker, and the grid's column
 * model built from the result set's Fields and the stored grid state. No React, no Dexie: unit-tested
 * in tests/results/grid-logic.test.ts.
 */
import { PAGER_WINDOW, RECORDS_PER_PAGE } from '../../api/constants';
import type { GridState } from '../../db/db';
import { PackedDoc } from './packed-page';

export type SortDirection = 'asc' | 'desc';
export interface SortSpec {
  /** A field id (as a string) or HITS. */
  column: string;
  direction: SortDirection;
}
export const HITS_COLUMN = 'HITS';
export const VERSION_COLUMN = 'VERSION';
export const CHECK_COLUMN = 'check';
export const THUMB_COLUMN = 'THUMB';
export const DEFAULT_COLUMN_WIDTH = 100;
export const MIN_COLUMN_WIDTH = 100;
export const PAGE_SIZE_CHOICES: readonly number[] = RECORDS_PER_PAGE.choices;

// --- pager -------------------------------------------------------------------------------------

export function totalPages(count: number, pageSize: number): number {
  if (!(count > 0) || !(pageSize > 0)) return 1;
  return Math.max(1, Math.ceil(count / pageSize));
}

/** The page numbers shown: current ± 2, inside 1..total (at most 5). */
export function pagerWindow(current: number, total: number, radius: number = PAGER_WINDOW): number[] {
  const last = Math.max(1, total);
  const page = clampPage(current, last);
  const from = Math.max(1, page - radius);
  const to = Math.min(last, page + radius);
  const out: number[] = [];
  for (let p = from; p <= to; p++) out.push(p);
  return out;
}

export function clampPage(page: number, total: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, total));
}

/**
 * A page that came back empty while the search has results (deleted rows, a shrunken count): the
 * page to fall back to — the last page that can hold results, at least 1, always before `page`.
 * Null when no fallback applies.
 */
export function fallbackPage(page: number, rows: number, count: number, pageSize: number): number | null {
  if (rows > 0 || count <= 0 || page <= 1) return null;
  return Math.max(1, Math.min(page - 1, totalPages(count, pageSize)));
}

// --- page size ---------------------------------------------------------------------------------

export type PageSizeCheck =
  | { ok: true; size: number; large: boolean }
  | { ok: false; size: number };

/**
 * A page size chosen or typed: a whole number from 1; above 10000 is a large page that needs the
 * user's confirmation. Anything else is invalid and falls back to the configured default (§9).
 */
export function checkPageSize(value: unknown, fallback: number): PageSizeCheck {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return { ok: false, size: fallback };
  return { ok: true, size: n, large: n > RECORDS_PER_PAGE.max };
}

// --- sort --------------------------------------------------------------------------------------

/** `{fieldId}:asc|desc`, comma-separated, in priority order; HITS is always descending. */
export function buildSortParam(sorts: readonly SortSpec[]): string {
  return sorts
    .map((s) => (s.column === HITS_COLUMN ? `${HITS_COLUMN}:desc` : `${s.column}:${s.direction}`))
    .join(',');
}

export function parseSortParam(param: string | null | undefined): SortSpec[] {
  if (!param) return [];
  const out: SortSpec[] = [];
  for (const part of param.split(',')) {
    const [rawCol, rawDir] = part.split(':').map((s) => s.trim());
    if (!rawCol) continue;
    const column = rawCol.toUpperCase() === HITS_COLUMN ? HITS_COLUMN : rawCol;
    if (column !== HITS_COLUMN && !/^\d+$/.test(column)) continue;
    const dir = (rawDir ?? 'asc').toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') continue;
    if (out.some((s) => s.column === column)) continue;
    out.push({ column, direction: column === HITS_COLUMN ? 'desc' : dir });
  }
  return out;
}

/**
 * The sort actually requested: with a hits marker a descending HITS sort is added (first, unless
 * the user already placed it); without one any HITS entry is dropped (the server has no hits).
 */
export function effectiveSort(sorts: readonly SortSpec[], hits: boolean): SortSpec[] {
  const rest = sorts.filter((s) => s.column !== HITS_COLUMN);
  if (!hits) return rest;
  if (sorts.some((s) => s.column === HITS_COLUMN)) return sorts.map((s) => (s.column === HITS_COLUMN ? { column: HITS_COLUMN, direction: 'desc' } : s));
  return [{ column: HITS_COLUMN, direction: 'desc' }, ...rest];
}

export const INVALID_SORT_TEXT = 'Invalid search string, Sort field';
export function isInvalidSortMessage(message: string | undefined | null): boolean {
  return !!message && message.includes(INVALID_SORT_TEXT);
}

// --- hits marker -------------------------------------------------------------------------------

interface CriteriaItem {
  ID?: unknown;
  FID?: unknown;
  Type?: unknown;
  VAL?: unknown;
}

function criteriaItems(criteria: unknown): CriteriaItem[] {
  if (Array.isArray(criteria)) return criteria as CriteriaItem[];
  if (criteria && typeof criteria === 'object') {
    const o = criteria as Record<string, unknown>;
    for (const k of ['Detail', 'Items', 'SearchCriteria', 'Criteria']) if (Array.isArray(o[k])) return o[k] as CriteriaItem[];
  }
  return [];
}

/** Detail item ids of the search's content-search prompt (Type 0 or FID 0). */
export function contentPromptIds(detail: readonly { ID: number; FID?: number | null; Type?: number | null }[] | null | undefined): Set<number> {
  const ids = new Set<number>();
  for (const d of detail ?? []) if (d.Type === 0 || d.FID === 0) ids.add(d.ID);
  return ids;
}

/**
 * The criteria (SearchCriteria JSON as in the address: an array of {ID, VAL, MVAL}) contain a hits
 * marker when the content-search prompt carries a non-empty VAL. The prompt is known by its detail
 * id (from the search's Detail), or by Type 0 / FID 0 on the item itself.
 */
export function hasHitsMarker(criteria: string | null | undefined, contentIds: ReadonlySet<number> = new Set()): boolean {
  if (!criteria) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(criteria);
  } catch {
    return false;
  }
  return criteriaItems(parsed).some((item) => {
    if (!item || typeof item !== 'object') return false;
    const content = item.Type === 0 || item.FID === 0 || (typeof item.ID === 'number' && contentIds.has(item.ID));
    const val = typeof item.VAL === 'string' ? item.VAL : '';
    return content && val.trim() !== '';
  });
}

// --- columns -----------------------------------------------------------------------------------

export interface FieldDef {
  ID: number;
  Name: string;
  Type: number;
  Size?: number | null;
  Prop?: number | null;
  ExtendedConfig?: { LiveField?: boolean } | null;
}

export type ColumnKind = 'check' | 'thumb' | 'hits' | 'version' | 'field';
export interface ColumnDef {
  /** Stable id: `check`, `THUMB`, `HITS`, `VERSION` or the field id. */
  id: string;
  kind: ColumnKind;
  title: string;
  fieldId?: number;
  fieldType?: number;
  sortable: boolean;
  /** Can be hidden, pinned and resized by the user. */
  configurable: boolean;
}

export interface ColumnView extends ColumnDef {
  width: number;
  hidden: boolean;
  pinned: boolean;
  order: number;
}

function isFieldDef(f: unknown): f is FieldDef {
  if (!f || typeof f !== 'object') return false;
  const o = f as Record<string, unknown>;
  return typeof o.ID === 'number' && typeof o.Name === 'string';
}

/** One column per field (live fields are not shown in the grid, the user-app spec §5), plus Hits/Version. */
export function buildColumns(fields: readonly unknown[], opts: { hits: boolean; version: boolean; titles: { hits: string; version: string; thumb: string; check: string } }): ColumnDef[] {
  const cols: ColumnDef[] = [
    { id: CHECK_COLUMN, kind: 'check', title: opts.titles.check, sortable: false, configurable: false },
    { id: THUMB_COLUMN, kind: 'thumb', title: opts.titles.thumb, sortable: false, configurable: false },
  ];
  if (opts.hits) cols.push({ id: HITS_COLUMN, kind: 'hits', title: opts.titles.hits, sortable: true, configurable: true });
  for (const f of fields) {
    if (!isFieldDef(f) || f.ExtendedConfig?.LiveField) continue;
    cols.push({ id: String(f.ID), kind: 'field', title: f.Name, fieldId: f.ID, fieldType: f.Type, sortable: true, configurable: true });
  }
  if (opts.version) cols.push({ id: VERSION_COLUMN, kind: 'version', title: opts.titles.version, sortable: false, configurable: true });
  return cols;
}

/**
 * The columns as shown: stored order/width/hidden/pinned applied; check and thumbnail first and
 * always visible; pinned columns next (fixed left), then the rest in stored order (new columns at
 * the end, in field order). Widths are never below the minimum.
 */
export function applyColumnState(defs: readonly ColumnDef[], state: GridState['columns'] | undefined): ColumnView[] {
  const byId = new Map((state ?? []).map((c) => [c.id, c]));
  const views = defs.map((d, i): ColumnView => {
    const s = d.configurable ? byId.get(d.id) : undefined;
    return {
      ...d,
      width: Math.max(MIN_COLUMN_WIDTH, Math.round(s?.width ?? DEFAULT_COLUMN_WIDTH)),
      hidden: !!s?.hidden,
      pinned: !!s?.pinned,
      order: s?.order ?? 10_000 + i,
    };
  });
  const fixed = views.filter((v) => !v.configurable);
  const rest = views.filter((v) => v.configurable).sort((a, b) => Number(b.pinned) - Number(a.pinned) || a.order - b.order);
  return [...fixed, ...rest];
}

/** The state record for a column list as shown (order renumbered 0..n). */
export function columnsToState(views: readonly ColumnView[]): GridState['columns'] {
  return views
    .filter((v) => v.configurable)
    .map((v, i) => ({ id: v.id, width: v.width, hidden: v.hidden || undefined, pinned: v.pinned || undefined, order: i }));
}

/** Moves a configurable column one place left (-1) or right (+1) among the configurable ones. */
export function moveColumn(views: readonly ColumnView[], id: string, delta: -1 | 1): ColumnView[] {
  const fixed = views.filter((v) => !v.configurable);
  const rest = views.filter((v) => v.configurable);
  const i = rest.findIndex((v) => v.id === id);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= rest.length) return [...views];
  const next = [...rest];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return [...fixed, ...next.map((v, k) => ({ ...v, order: k }))];
}

// --- rows --------------------------------------------------------------------------------------

export interface DocLike {
  Id: number;
  Hash: string;
  FileName?: string | null;
  FileType?: string | null;
  ArchiveId?: number;
  Archive?: number;
  Permissions?: number;
  Hits?: number | null;
  Version?: string | null;
  /** The first page's picture version: in the thumbnail's address. */
  ThumbVersion?: string | null;
  Fields: readonly { ID: number; VAL?: string | null; MVAL?: readonly string[] | null }[];
}

/** Cell value of a field: VAL, or the multi-values joined. */
export function fieldValue(f: { VAL?: string | null; MVAL?: readonly string[] | null } | undefined): string {
  if (!f) return '';
  if (f.MVAL && f.MVAL.length > 0) return f.MVAL.join('; ');
  return f.VAL ?? '';
}

/**
 * An array of `n` items whose item i is made by `make(i)` when it is first read, and kept. It reads
 * and iterates as a plain array (length, indexes, spread, map, JSON).
 */
export function lazyArray<T>(n: number, make: (i: number) => T): T[] {
  const made = new Array<T>(n);
  const index = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1;
    const i = Number(key);
    return Number.isInteger(i) && i >= 0 && i < n && String(i) === key ? i : -1;
  };
  const ensure = (i: number): T => {
    if (!(i in made)) made[i] = make(i);
    return made[i]!;
  };
  return new Proxy(made, {
    get(target, key, receiver) {
      const i = index(key);
      return i >= 0 ? ensure(i) : Reflect.get(target, key, receiver);
    },
    has(target, key) {
      return index(key) >= 0 || Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      const i = index(key);
      if (i >= 0) ensure(i);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      const keys: (string | symbol)[] = [];
      for (let i = 0; i < n; i++) keys.push(String(i));
      for (const k of Reflect.ownKeys(target)) if (index(k) < 0) keys.push(k);
      return keys;
    },
  });
}

/**
 * Array-of-arrays data for the grid, one row per document, one cell per visible column (the fastest
 * shape for Handsontable). The check cell holds whether the document is selected; the thumbnail cell
 * holds the row index (the renderer looks the document up). A row is made when it is first read:
 * Handsontable reads only the rows it draws, so a 10,000-row page makes ~25 rows to paint instead
 * of 10,000 arrays and their strings (which the garbage collector would have to copy).
 */
export function buildRows(docs: readonly DocLike[], columns: readonly ColumnView[], checked: ReadonlySet<number>): unknown[][] {
  const visible = columns.filter((c) => !c.hidden);
  const fieldIdx = visible.map((c) => c.fieldId ?? -1);
  return lazyArray(docs.length, (r) => {
    const d = docs[r]!;
    let byId: Map<number, DocLike['Fields'][number]> | null = null;
    const row: unknown[] = new Array(visible.length);
    for (let c = 0; c < visible.length; c++) {
      const col = visible[c]!;
      switch (col.kind) {
        case 'check':
          row[c] = checked.has(d.Id);
          break;
        case 'thumb':
          row[c] = r;
          break;
        case 'hits':
          row[c] = d.Hits ?? '';
          break;
        case 'version':
          row[c] = d.Version ?? '';
          break;
        default: {
          const id = fieldIdx[c]!;
          // A packed page's document reads its columns (no field objects made).
          if (d instanceof PackedDoc) row[c] = d.cellText(id);
          // A linear scan beats building a map for the usual handful of fields.
          else if (d.Fields.length < 16) row[c] = fieldValue(d.Fields.find((x) => x.ID === id));
          else {
            byId ??= new Map(d.Fields.map((x) => [x.ID, x]));
            row[c] = fieldValue(byId.get(id));
          }
        }
      }
    }
    return row;
  });
}

/** Whether any document carries a Version (the Version column is shown then). */
export function docsHaveVersion(docs: readonly DocLike[]): boolean {
  return docs.some((d) => d.Version !== undefined && d.Version !== null && d.Version !== '');
}

/**
 * Sorts documents in memory by the given sort (used only when the page holds the whole result set,
 * so the order is the server's too): numbers and dates by value, text by locale collation.
 */
export function sortDocsLocally<T extends DocLike>(docs: readonly T[], sorts: readonly SortSpec[], fieldTypes: ReadonlyMap<number, number>): T[] {
  if (sorts.length === 0) return [...docs];
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  const keys = sorts.map((s) => {
    const values: (string | number)[] = new Array(docs.length);
    const fieldId = s.column === HITS_COLUMN ? null : Number(s.column);
    const type = fieldId === null ? 2 : (fieldTypes.get(fieldId) ?? 1);
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if (fieldId === null) values[i] = d.Hits ?? 0;
      else {
        const v = d instanceof PackedDoc ? d.cellText(fieldId) : fieldValue(d.Fields.find((f) => f.ID === fieldId));
        if (type === 2 || type === 4) values[i] = v === '' ? Number.NEGATIVE_INFINITY : Number(v.replace(',', '.'));
        else if (type === 3) values[i] = v === '' ? Number.NEGATIVE_INFINITY : Date.parse(v) || 0;
        else values[i] = v;
      }
    }
    return { values, sign: s.direction === 'desc' ? -1 : 1 };
  });
  const idx = docs.map((_, i) => i);
  idx.sort((a, b) => {
    for (const k of keys) {
      const x = k.values[a]!;
      const y = k.values[b]!;
      const c = typeof x === 'number' && typeof y === 'number' ? (x === y ? 0 : x < y ? -1 : 1) : collator.compare(String(x), String(y));
      if (c !== 0) return c * k.sign;
    }
    return a - b;
  });
  return idx.map((i) => docs[i]!);
}
