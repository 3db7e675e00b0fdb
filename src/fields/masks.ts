/**
 * Display masks applied when a cell loses focus (the archive-ops spec §5), editor text, input
 * filters and the small column helpers of the user-app spec §5 (numeric clamp, text area, versions).
 *
 * Masks as the catalogue stores them (server/seed/catalog.ts):
 * - number and decimal fields: .NET standard letters C, N, F with optional places (C2: the field's
 *   Currency, which the server gives from the archive's country, 2 places; N0: grouped; F3: fixed),
 *   or a picture such as `$#,##0.00`,
 *   `€ #.##0,00`, `#,##0.00 €` whose separators and symbols are literal: the last '.' or ',' in
 *   the digits is the decimal separator (unless it is followed by a group of three '#'/'0' that
 *   starts with '#', as in `#,##0`).
 * - date fields: see dates.ts formatDateMask (MM/dd/yyyy, dd.MM.yyyy, yyyy-MM-dd, d, D, ...).
 */
import { formatDateMask, formatLocaleDate, parseIsoDate } from './dates';
import { localeFacts } from './locale';
import { FIELD_TYPE, validateValue, type FieldRule } from './rules';

interface Picture {
  prefix: string;
  suffix: string;
  group: string | null;
  decimal: string;
  places: number;
}

/** A number picture mask, or null when the mask has no '#'/'0' digits. */
export function parsePicture(mask: string): Picture | null {
  const core = /[#0](?:[#0.,'\u00a0\u202f ]*[#0])?/.exec(mask);
  if (!core) return null;
  const digits = core[0];
  const prefix = mask.slice(0, core.index);
  const suffix = mask.slice(core.index + digits.length);
  const seps = [...digits.matchAll(/[.,'\u00a0\u202f ]/g)];
  let decimalAt = -1;
  const last = seps[seps.length - 1];
  if (last && (last[0] === '.' || last[0] === ',')) {
    const after = digits.slice(last.index! + 1);
    const kinds = new Set(seps.map((s) => s[0]));
    const looksLikeGroup = kinds.size === 1 && (seps.length > 1 || (after.length === 3 && after.startsWith('#')));
    if (!looksLikeGroup) decimalAt = last.index!;
  }
  const intPart = decimalAt >= 0 ? digits.slice(0, decimalAt) : digits;
  const groupSep = /[.,'\u00a0\u202f ]/.exec(intPart)?.[0] ?? null;
  return {
    prefix,
    suffix,
    group: groupSep,
    decimal: decimalAt >= 0 ? digits[decimalAt]! : '.',
    places: decimalAt >= 0 ? digits.length - decimalAt - 1 : 0,
  };
}

/** A wire decimal rounded half away from zero to `places`, as sign, integer digits and fraction digits. */
export function roundDecimal(wire: string, places: number): { negative: boolean; int: string; frac: string } {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(wire.trim());
  if (!m) return { negative: false, int: '0', frac: '0'.repeat(places) };
  const negative = m[1] === '-';
  const int = m[2] || '0';
  const frac = m[3] ?? '';
  let kept = BigInt(int + frac.slice(0, places).padEnd(places, '0'));
  if ((frac[places] ?? '0') >= '5') kept += 1n;
  const s = kept.toString().padStart(places + 1, '0');
  const out = { int: places ? s.slice(0, -places) : s, frac: places ? s.slice(-places) : '' };
  return { negative: negative && kept !== 0n, ...out };
}

const group3 = (int: string, sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);

function formatPicture(p: Picture, wire: string): string {
  const r = roundDecimal(wire, p.places);
  const int = p.group ? group3(r.int, p.group) : r.int;
  return `${r.negative ? '-' : ''}${p.prefix}${int}${p.places ? p.decimal + r.frac : ''}${p.suffix}`;
}

/** A wire number as Intl takes it exactly (a string, so that 19 digits keep every digit). */
const numeric = (wire: string) => {
  let s = wire.trim().replace(/\.$/, '');
  if (s.startsWith('.')) s = `0${s}`;
  if (s.startsWith('-.')) s = `-0${s.slice(1)}`;
  return s as `${number}`;
};

/**
 * The locale writes the number (separators, where the symbol goes); the currency is the field's
 * (never the locale's: the same amount must not turn from dollars into euros when the user switches
 * language). A 'C' mask with no known currency shows the grouped number without a symbol. The
 * narrow symbol ($, €, £), so an amount carries the same sign in every language (Intl's default
 * writes US$ in en-GB, $US in French, USD in Italian).
 */
function formatNumberMask(mask: string, wire: string, locale: string, fieldCurrency: string | null | undefined): string | null {
  // A well-formed ISO 4217 code only: Intl throws on anything else.
  const currency = /^[A-Za-z]{3}$/.test(fieldCurrency?.trim() ?? '') ? fieldCurrency!.trim().toUpperCase() : null;
  const std = /^([CcNnFf])(\d{0,2})$/.exec(mask.trim());
  const f = localeFacts(locale);
  if (std) {
    const letter = std[1]!.toUpperCase();
    const places = std[2] ? Number(std[2]) : undefined;
    const digits = places === undefined ? (letter === 'C' && currency ? {} : { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : { minimumFractionDigits: places, maximumFractionDigits: places };
    const opts: Intl.NumberFormatOptions =
      letter === 'C' && currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol', ...digits } : { useGrouping: letter === 'N' || letter === 'C', ...digits };
    return new Intl.NumberFormat(f.locale, { ...opts, numberingSystem: 'latn' }).format(numeric(wire));
  }
  const p = parsePicture(mask);
  return p ? formatPicture(p, wire) : null;
}

/** A valid wire value as the grid shows it: through the field's Mask, else in the locale's form. */
export function formatWireValue(field: FieldRule, wire: string | null | undefined, locale: string): string {
  const v = wire ?? '';
  if (v.trim() === '') return '';
  const mask = field.Mask?.trim() ?? '';
  if (field.Type === FIELD_TYPE.date) {
    const ymd = parseIsoDate(v);
    return ymd ? formatDateMask(ymd, mask, locale) : v;
  }
  if (field.Type === FIELD_TYPE.number || field.Type === FIELD_TYPE.decimal) {
    if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(v.trim())) return v;
    if (mask) {
      const masked = formatNumberMask(mask, v, locale, field.Currency);
      if (masked !== null) return masked;
    }
    return toEditText(field, v, locale);
  }
  return v;
}

/** A wire value as an editor opens it: locale date order and decimal separator, no mask (so it parses back). */
export function toEditText(field: FieldRule, wire: string | null | undefined, locale: string): string {
  const v = wire ?? '';
  if (field.Type === FIELD_TYPE.date) {
    const ymd = parseIsoDate(v);
    return ymd ? formatLocaleDate(ymd, locale) : v;
  }
  if (field.Type === FIELD_TYPE.decimal && /^-?\d*\.\d*$/.test(v.trim())) return v.trim().replace('.', localeFacts(locale).decimal);
  return v;
}

/**
 * On blur: the typed text through the mask when it is valid (currency and date masks, and the
 * locale form of unmasked numbers); invalid or empty text is left as typed for the validator to flag.
 */
export function applyMask(field: FieldRule, value: string, locale: string): string {
  const r = validateValue(field, value, locale);
  if (r.code !== 0 || !r.normalized) return value;
  return formatWireValue(field, r.normalized, locale);
}

/** Clamps to [min, max]; a missing bound does not clamp; NaN stays NaN. */
export function clampNumber(value: number, min?: number | null, max?: number | null): number {
  if (Number.isNaN(value)) return value;
  let v = value;
  if (min !== undefined && min !== null && v < min) v = min;
  if (max !== undefined && max !== null && v > max) v = max;
  return v;
}

export const TEXT_AREA_SIZE = 150;
/** the user-app spec §5: a field Size of 150 or more edits in a text area. */
export const isTextArea = (field: Pick<FieldRule, 'Size'>): boolean => (field.Size ?? 0) >= TEXT_AREA_SIZE;

const VERSION = /^\d+(?:\.\d+)*$/;
/** True for dotted numeric versions: 1, 1.2, 10.0.3. */
export const isValidVersion = (v: string): boolean => VERSION.test(v.trim());

/**
 * Dotted versions compared part by part as numbers (1.10 > 1.9; 1.0 = 1): -1, 0 or 1. NaN when
 * either is not a dotted numeric version (the user-app spec §5 "non-numeric is invalid"), so every
 * comparison with it is false. Parts of any length compare exactly.
 */
export function compareVersions(a: string, b: string): number {
  if (!isValidVersion(a) || !isValidVersion(b)) return Number.NaN;
  const pa = a.trim().split('.');
  const pb = b.trim().split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = (pa[i] ?? '0').replace(/^0+(?=\d)/, '');
    const y = (pb[i] ?? '0').replace(/^0+(?=\d)/, '');
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
