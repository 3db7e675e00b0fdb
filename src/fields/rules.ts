/**
 * The index value rules (the user-app spec §5 "Index values", "Column validators"; the archive-ops spec
 * §4-5), one implementation for the grid, the validation worker and the server:
 *
 * - validateValue: a value as the user typed it in a locale; answers the code and the value
 *   normalised for the wire (ISO yyyy-mm-dd dates, '.' decimals).
 * - validateWireValue: a value as the wire carries it (the server's check of PUT FieldData and
 *   POST indexes).
 * - validateFieldValue: VAL/MVAL of one field, multi-value and table columns included.
 *
 * Codes (codes.ts): empty is always valid unless the field is required (Prop 2, -5); a number or
 * decimal that does not parse is -1; a date that does not parse is -2; more characters (or, for
 * numbers and decimals, digits) than Size is -3. A RegEx mismatch is -1 too: the spec has no code
 * of its own for it, the grid shows it like any other invalid value, and the message is the RegEx's
 * comment prefix when it has one (else the key FIELD_REGEX_MISMATCH). -4 (field not in archive) and
 * the fixed-list check (-1, FIELD_NOT_IN_LIST) need the catalogue and are the server's.
 */
import type { Field } from '../api/archives';
import { FIELD_CODES, FIELD_MESSAGE_KEYS, FIELD_OUT_OF_RANGE_KEY, FIELD_REGEX_MISMATCH_KEY, type FieldCode, type FieldMessageKey } from './codes';
import { parseIsoDate, parseLocaleDate, toIsoDate } from './dates';
import { localeFacts } from './locale';
import { parseRegEx } from './regex';

/** What the rules read of a field; the wire Field (src/api/archives.ts) fits. */
export type FieldRule = Pick<Field, 'Type'> &
  Partial<Pick<Field, 'ID' | 'Size' | 'Mask' | 'RegEx' | 'Prop' | 'MultiValue' | 'Parent' | 'ExtendedConfig' | 'Currency'>>;

export interface ValidationResult {
  code: FieldCode;
  /** i18n key of the message when code < 0. */
  key?: FieldMessageKey;
  /** A literal message that wins over the key: the RegEx's own comment text. */
  message?: string;
  /** The value for the wire when code is 0 ('' for empty). */
  normalized?: string;
  /** True when a typed number was clamped to the field's Min/Max (normalized holds the bound). */
  clamped?: boolean;
}

export const FIELD_TYPE = { character: 1, number: 2, date: 3, decimal: 4 } as const;
/** the archive-ops spec §9: default field length. */
export const DEFAULT_FIELD_SIZE = 50;
/** 19 digits: a 64-bit signed integer's width (the spec's limit, not its range). */
export const MAX_NUMBER_DIGITS = 19;
const REQUIRED = 2;

const ok = (normalized: string): ValidationResult => ({ code: 0, normalized });
const fail = (code: Exclude<FieldCode, 0>, message?: string): ValidationResult => ({
  code,
  key: FIELD_MESSAGE_KEYS[code],
  ...(message ? { message } : {}),
});

export const isEmptyValue = (v: string | null | undefined): boolean => v === null || v === undefined || v.trim() === '';
export const isRequiredField = (f: FieldRule): boolean => ((f.Prop ?? 0) & REQUIRED) !== 0;
/** Values live in MVAL: multi-value fields (MultiValue or Prop 32) and table-field columns (Parent > 0). */
export const isMultiField = (f: FieldRule): boolean => Boolean(f.MultiValue) || (f.Parent ?? 0) > 0 || ((f.Prop ?? 0) & 32) !== 0;

/** RegEx applies unless ExtendedConfig.UseRegExValidation is explicitly false. */
function regexCheck(f: FieldRule, normalized: string): ValidationResult | null {
  if (!f.RegEx || f.ExtendedConfig?.UseRegExValidation === false) return null;
  const { pattern, message } = parseRegEx(f.RegEx);
  if (!pattern || pattern.test(normalized)) return null;
  return { code: FIELD_CODES.invalidNumber, key: FIELD_REGEX_MISMATCH_KEY, ...(message ? { message } : {}) };
}

/** A loop, not replace(/\D/g): this runs for every value of every row of a CSV being checked. */
function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}
const sizeOf = (f: FieldRule) => (f.Size && f.Size > 0 ? f.Size : DEFAULT_FIELD_SIZE);

/**
 * The most characters a valid value of the field can have once typeCheck has passed it, which is
 * what a RegEx check costs at most (regex.ts regexProblem): Size characters for text, yyyy-mm-dd
 * for dates, the digits with a sign (and a decimal point) for numbers.
 */
export function longestValue(f: FieldRule): number {
  switch (f.Type) {
    case FIELD_TYPE.date:
      return 10;
    case FIELD_TYPE.number:
      return Math.min(f.Size && f.Size > 0 ? f.Size : MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS) + 1;
    case FIELD_TYPE.decimal:
      return sizeOf(f) + 2;
    default:
      return sizeOf(f);
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SPACES = ' \u00a0\u202f';

/** A decimal typed in `locale` to the wire ('.'), or null. Accepts the locale's grouping in threes and a leading currency symbol. */
export function parseLocaleDecimal(text: string, locale: string): string | null {
  const f = localeFacts(locale);
  let s = text.replace(/\p{Sc}/gu, '').trim();
  let sign = '';
  if (s.startsWith('-') || s.startsWith('\u2212')) {
    sign = '-';
    s = s.slice(1).trim();
  }
  const sep = escapeRe(f.decimal);
  const groupChars = SPACES.includes(f.group) ? SPACES : f.group === '\u2019' ? "\u2019'" : f.group;
  const group = `[${escapeRe(groupChars)}]`;
  const plain = new RegExp(`^(\\d*)(?:${sep}(\\d*))?$`).exec(s);
  const grouped = plain ? null : new RegExp(`^(\\d{1,3}(?:${group}\\d{3})+)(?:${sep}(\\d*))?$`).exec(s);
  const m = plain ?? grouped;
  if (!m) return null;
  const int = (m[1] ?? '').replace(/\D/g, '');
  const frac = m[2] ?? '';
  if (int === '' && frac === '') return null;
  return frac === '' ? `${sign}${int}` : `${sign}${int || '0'}.${frac}`;
}

function typeCheck(f: FieldRule, text: string, wire: boolean, locale: string): ValidationResult {
  switch (f.Type) {
    case FIELD_TYPE.number: {
      const s = text.trim();
      if (!/^-?\d+$/.test(s)) return fail(-1);
      const digits = s.charCodeAt(0) === 45 ? s.length - 1 : s.length;
      if (digits > MAX_NUMBER_DIGITS) return fail(-1);
      return f.Size && digits > f.Size ? fail(-3) : ok(s);
    }
    case FIELD_TYPE.decimal: {
      const s = text.trim();
      const n = wire ? (/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(s) ? s : null) : parseLocaleDecimal(s, locale);
      if (n === null) return fail(-1);
      return f.Size && countDigits(n) > f.Size ? fail(-3) : ok(n);
    }
    case FIELD_TYPE.date: {
      const ymd = wire ? parseIsoDate(text) : parseLocaleDate(text, locale);
      // A wire date that parses is already yyyy-mm-dd.
      return ymd ? ok(wire ? text.trim() : toIsoDate(ymd)) : fail(-2);
    }
    default:
      // Characters, not UTF-16 units; a string no longer in units than the size has no more of them.
      return text.length > sizeOf(f) && [...text].length > sizeOf(f) ? fail(-3) : ok(text);
  }
}

/**
 * Min/Max of a number or decimal field (ExtendedConfig.Min, ExtendedConfig.Max; the user-app spec §5
 * "numeric range for number fields", the archive-ops spec §5 "Numeric input clamps to its minimum
 * and maximum"). A number field's bounds are whole numbers (rounded inwards).
 */
export function fieldBounds(f: FieldRule): { min: number | null; max: number | null } {
  if (f.Type !== FIELD_TYPE.number && f.Type !== FIELD_TYPE.decimal) return { min: null, max: null };
  const ec = f.ExtendedConfig ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  let min = num(ec.Min);
  let max = num(ec.Max);
  if (f.Type === FIELD_TYPE.number) {
    if (min !== null) min = Math.ceil(min);
    if (max !== null) max = Math.floor(max);
  }
  return { min, max };
}

/** Typed input is clamped to the bounds; a wire value outside them is refused (-1, FIELD_OUT_OF_RANGE). */
function rangeCheck(f: FieldRule, typed: ValidationResult, wire: boolean): ValidationResult {
  if (!f.ExtendedConfig) return typed;
  const { min, max } = fieldBounds(f);
  if (min === null && max === null) return typed;
  const n = Number(typed.normalized);
  const bound = min !== null && n < min ? min : max !== null && n > max ? max : null;
  if (bound === null) return typed;
  if (wire) return { code: FIELD_CODES.invalidNumber, key: FIELD_OUT_OF_RANGE_KEY };
  return { code: 0, normalized: String(bound), clamped: true };
}

function check(f: FieldRule, value: string | null | undefined, wire: boolean, locale: string): ValidationResult {
  if (isEmptyValue(value)) return isRequiredField(f) ? fail(-5) : ok('');
  const typed = typeCheck(f, value!, wire, locale);
  if (typed.code !== 0) return typed;
  const ranged = rangeCheck(f, typed, wire);
  if (ranged.code !== 0) return ranged;
  return regexCheck(f, ranged.normalized!) ?? ranged;
}

/** One value as typed in `locale` (any string Intl accepts; invalid tags fall back to en-US). */
export function validateValue(field: FieldRule, value: string | null | undefined, locale: string): ValidationResult {
  return check(field, value, false, locale);
}

/** One value in wire form: number digits, decimal with '.', date yyyy-mm-dd; the server's rules. */
export function validateWireValue(field: FieldRule, value: string | null | undefined): ValidationResult {
  return check(field, value, true, 'en-US');
}

export interface FieldValueResult extends ValidationResult {
  /** Multi-value fields: the entries normalised, trailing empties dropped. */
  normalizedMVAL?: string[];
  /** Multi-value fields: index of the first invalid entry. */
  index?: number;
}

/**
 * VAL/MVAL of one field. Multi-value fields and table columns check every MVAL entry (VAL when MVAL
 * is missing); required means at least one non-empty entry. VAL comes back as the first entry. `locale` null: wire form.
 */
export function validateFieldValue(
  field: FieldRule,
  entry: { VAL?: string | null; MVAL?: readonly string[] | null },
  locale: string | null,
): FieldValueResult {
  const one = (v: string | null | undefined) => (locale === null ? validateWireValue(field, v) : validateValue(field, v, locale));
  if (!isMultiField(field)) return one(entry.VAL);
  const values = entry.MVAL ?? (isEmptyValue(entry.VAL) ? [] : [entry.VAL!]);
  const optional = { ...field, Prop: (field.Prop ?? 0) & ~REQUIRED };
  const normalized: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const r = locale === null ? validateWireValue(optional, values[i]) : validateValue(optional, values[i], locale);
    if (r.code !== 0) return { ...r, index: i };
    normalized.push(r.normalized ?? '');
  }
  // Table columns keep their rows aligned with the other columns; multi-value entries drop trailing empties.
  if (!((field.Parent ?? 0) > 0)) while (normalized.length && normalized[normalized.length - 1] === '') normalized.pop();
  if (!normalized.some((v) => v !== '') && isRequiredField(field)) return fail(-5);
  return { code: 0, normalized: normalized[0] ?? '', normalizedMVAL: normalized };
}
