/**
 * The form's values and the SearchCriteria sent to the results screen: a JSON array of
 * {ID, VAL?, MVAL?} with ranges as MVAL [from, to], dates as ISO yyyy-mm-dd and decimals with '.'.
 * Parsing goes the other way, for "refine search" (the results screen links back with criteria).
 */
import { normaliseRecordsPerPage, RECORDS_PER_PAGE } from '../../api/constants';
import { SearchCriteria, encodeSearchCriteria } from '../../api/search';
import { decimalFromWire, decimalToWire, formatIsoDate, isValidNumber, parseLocaleDate, type DatePattern } from './locale-format';
import type { Prompt, ValueType } from './prompts';

export interface PromptValue {
  /** Single value, or "from" of a range. */
  value: string;
  /** "To" of a range. */
  to: string;
  /** Multi-value entries; the last one is always empty, for typing the next value. */
  values: string[];
  /** IsEmpty / IsNotEmpty: apply the condition. */
  checked: boolean;
}
export type FormValues = Record<string, PromptValue>;

export interface LocaleFormat {
  date: DatePattern;
  decimalSeparator: string;
}

/** One SearchCriteria entry as the form builds it (src/api/search.ts SearchCriterion). */
export interface CriteriaItem {
  ID: number;
  VAL?: string;
  MVAL?: string[];
}

export const emptyValue = (): PromptValue => ({ value: '', to: '', values: [''], checked: false });

/** Multi-value rows: typing into the last entry adds an empty one; emptied middle rows stay until removed. */
export function withTrailingEmpty(values: readonly string[]): string[] {
  const out = [...values];
  if (out.length === 0 || out[out.length - 1] !== '') out.push('');
  return out;
}

/** A wire value as the user sees it: ISO dates in the locale's order, decimals with its separator. */
export function fromWire(type: ValueType, wire: string, f: LocaleFormat): string {
  if (type === 'date') return formatIsoDate(wire, f.date);
  if (type === 'decimal') return decimalFromWire(wire, f.decimalSeparator);
  return wire;
}

function valueFrom(p: Prompt, entry: { VAL?: string | null; MVAL?: readonly string[] | null } | undefined, f: LocaleFormat): PromptValue {
  const v = emptyValue();
  if (!entry) return v;
  const val = entry.VAL ?? '';
  const mval = entry.MVAL ?? [];
  const show = (s: string) => fromWire(p.valueType, s, f);
  switch (p.control) {
    case 'check':
      v.checked = true;
      break;
    case 'range':
      v.value = show(mval[0] ?? val);
      v.to = show(mval[1] ?? '');
      break;
    case 'multi':
      v.values = withTrailingEmpty((mval.length ? mval : val ? [val] : []).filter((s) => s !== '').map(show));
      break;
    default:
      v.value = show(val !== '' ? val : (mval[0] ?? ''));
  }
  return v;
}

/**
 * The values a search opens with: the saved defaults (VAL / MVAL), and IsEmpty / IsNotEmpty ticked,
 * as the server applies them when no criteria are sent.
 */
export function defaultValues(prompts: readonly Prompt[], f: LocaleFormat): FormValues {
  const out: FormValues = {};
  for (const p of prompts) {
    const hasDefault = (p.defaultVal ?? '') !== '' || (p.defaultMval ?? []).some((s) => s !== '');
    if (p.control === 'check') out[p.key] = { ...emptyValue(), checked: true };
    else out[p.key] = hasDefault ? valueFrom(p, { VAL: p.defaultVal, MVAL: p.defaultMval }, f) : emptyValue();
  }
  return out;
}

export function emptyValues(prompts: readonly Prompt[]): FormValues {
  return Object.fromEntries(prompts.map((p) => [p.key, emptyValue()]));
}

/** SearchCriteria JSON (the contract's schema) to items; anything unreadable gives none. */
export function parseCriteria(json: string | null | undefined): CriteriaItem[] {
  if (!json) return [];
  try {
    const parsed = SearchCriteria.safeParse(JSON.parse(json));
    if (!parsed.success) return [];
    return parsed.data.map((c) => ({
      ID: c.ID,
      ...(c.VAL != null ? { VAL: c.VAL } : {}),
      ...(c.MVAL ? { MVAL: c.MVAL.map((v) => v ?? '') } : {}),
    }));
  } catch {
    return [];
  }
}

/** The form filled from criteria (refine search): each input takes the first of its IDs present. */
export function valuesFromCriteria(prompts: readonly Prompt[], items: readonly CriteriaItem[], f: LocaleFormat): FormValues {
  const byId = new Map(items.map((i) => [i.ID, i]));
  const out: FormValues = {};
  for (const p of prompts) {
    const entry = p.ids.map((id) => byId.get(id)).find((e) => e !== undefined);
    out[p.key] = valueFrom(p, entry, f);
  }
  return out;
}

export type ValueError = 'date' | 'number' | 'decimal';

/** One typed value to the wire; '' stays ''; an invalid value is an error. */
export function toWire(type: ValueType, text: string, f: LocaleFormat): { wire: string } | { error: ValueError } {
  const s = text.trim();
  if (s === '') return { wire: '' };
  switch (type) {
    case 'date': {
      const iso = parseLocaleDate(s, f.date);
      return iso ? { wire: iso } : { error: 'date' };
    }
    case 'number':
      return isValidNumber(s) ? { wire: s } : { error: 'number' };
    case 'decimal': {
      const w = decimalToWire(s, f.decimalSeparator);
      return w !== null ? { wire: w } : { error: 'decimal' };
    }
    default:
      return { wire: s };
  }
}

export interface BuiltCriteria {
  items: CriteriaItem[];
  /** Per input key: the first invalid value's kind. Non-empty means the search must not run. */
  errors: Record<string, ValueError>;
}

/** The form's values to SearchCriteria items; empty inputs send nothing. */
export function buildCriteria(prompts: readonly Prompt[], values: FormValues, f: LocaleFormat): BuiltCriteria {
  const items: CriteriaItem[] = [];
  const errors: Record<string, ValueError> = {};
  for (const p of prompts) {
    const v = values[p.key] ?? emptyValue();
    const conv = (text: string): string | null => {
      const r = toWire(p.valueType, text, f);
      if ('error' in r) {
        errors[p.key] ??= r.error;
        return null;
      }
      return r.wire;
    };
    let make: ((id: number) => CriteriaItem) | null = null;
    if (p.control === 'check') {
      if (v.checked) make = (ID) => ({ ID });
    } else if (p.control === 'range') {
      const from = conv(v.value);
      const to = conv(v.to);
      if (from !== null && to !== null && (from !== '' || to !== '')) make = (ID) => ({ ID, MVAL: [from, to] });
    } else if (p.control === 'multi') {
      const wires = v.values.map(conv);
      const good = wires.filter((w): w is string => w !== null && w !== '');
      if (!wires.includes(null) && good.length > 0) make = (ID) => ({ ID, MVAL: good });
    } else {
      const w = conv(v.value);
      if (w) make = (ID) => ({ ID, VAL: w });
    }
    if (make) for (const id of p.ids) items.push(make(id));
  }
  return { items, errors };
}

/** Records per page on the search screen: 1 to 10000, anything else 10 (the user-app spec §5). */
export function clampRecordsPerPage(text: string | number | null | undefined): number {
  const v = typeof text === 'string' ? text.trim() : text;
  return normaliseRecordsPerPage(v === '' ? undefined : v, RECORDS_PER_PAGE.searchScreenDefault);
}

export interface ResultsTarget {
  hash: string;
  searchId: number;
  db: number;
  archive: number;
  criteria: readonly CriteriaItem[];
  recordsPerPage: number;
  time: number;
}

/** /results/{hash}?Id&db&archive&criteria&rpp&time: the results screen's address. */
export function resultsUrl(t: ResultsTarget): string {
  const q = [
    `Id=${t.searchId}`,
    `db=${t.db}`,
    `archive=${t.archive}`,
    `criteria=${encodeURIComponent(encodeSearchCriteria(t.criteria))}`,
    `rpp=${t.recordsPerPage}`,
    `time=${t.time}`,
  ];
  return `/results/${encodeURIComponent(t.hash)}?${q.join('&')}`;
}

/** /view (or /scan) reopened with a search and its criteria filled in ("refine search"). */
export function refineUrl(mode: 'view' | 'scan', db: number, searchId: number, criteria: readonly CriteriaItem[], recordsPerPage?: number): string {
  const q = [`db=${db}`, `search=${searchId}`, `criteria=${encodeURIComponent(encodeSearchCriteria(criteria))}`];
  if (recordsPerPage !== undefined) q.push(`rpp=${recordsPerPage}`);
  return `/${mode}?${q.join('&')}`;
}
