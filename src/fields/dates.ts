/**
 * Dates typed in the locale's order (user-app.md §5: day/month order by locale, two-digit years
 * expanded) to ISO yyyy-mm-dd for the wire, and ISO back to text through a field Mask.
 */
import { localeFacts, type DatePart } from './locale';

export interface YMD {
  y: number;
  m: number;
  d: number;
}

/**
 * Two-digit years pivot at 50: 00-49 are 2000-2049, 50-99 are 1950-1999. A fixed pivot (not a
 * window around today) so that the worker, the server and tests agree on every machine and day.
 */
export const TWO_DIGIT_YEAR_PIVOT = 50;

export function expandTwoDigitYear(yy: number): number {
  return yy < TWO_DIGIT_YEAR_PIVOT ? 2000 + yy : 1900 + yy;
}

export function isRealDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false;
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
export const toIsoDate = ({ y, m, d }: YMD): string => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;

/** A wire date: yyyy-mm-dd, a real calendar date. */
export function parseIsoDate(text: string): YMD | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const ymd = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  return isRealDate(ymd.y, ymd.m, ymd.d) ? ymd : null;
}

const BIDI_MARKS = /[\u200e\u200f\u061c]/g;

/**
 * A date as the user types it in `locale`: three numbers in the locale's order separated by any of
 * / . - space (a trailing '.' allowed), digits only (ddmmyy, ddmmyyyy in the locale's order), or
 * ISO yyyy-m-d in every locale. Day and month have at most 2 digits; the year 1-2 digits
 * (expanded) or 4. Null when it is not a real date.
 */
export function parseLocaleDate(text: string, locale: string): YMD | null {
  const s = text.replace(BIDI_MARKS, '').trim();
  if (!s) return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (iso) {
    const ymd = { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
    return isRealDate(ymd.y, ymd.m, ymd.d) ? ymd : null;
  }
  const order = localeFacts(locale).dateParts;
  let tokens: string[];
  if (/^\d+$/.test(s)) {
    if (s.length !== 6 && s.length !== 8) return null;
    const yearLen = s.length - 4;
    tokens = [];
    let at = 0;
    for (const part of order) {
      const len = part === 'year' ? yearLen : 2;
      tokens.push(s.slice(at, at + len));
      at += len;
    }
  } else {
    if (!/^\d{1,4}(?:\s*[./-]\s*|\s+)\d{1,4}(?:\s*[./-]\s*|\s+)\d{1,4}\.?$/.test(s)) return null;
    tokens = s.split(/[^\d]+/).filter(Boolean);
  }
  if (tokens.length !== 3) return null;
  const by: Partial<Record<DatePart, string>> = {};
  order.forEach((part, i) => (by[part] = tokens[i]));
  const [dt, mt, yt] = [by.day ?? '', by.month ?? '', by.year ?? ''];
  if (dt.length > 2 || mt.length > 2) return null;
  let y: number;
  if (yt.length === 4) y = Number(yt);
  else if (yt.length <= 2) y = expandTwoDigitYear(Number(yt));
  else return null;
  const ymd = { y, m: Number(mt), d: Number(dt) };
  return isRealDate(ymd.y, ymd.m, ymd.d) ? ymd : null;
}

/** The locale's own numeric date (e.g. 03/04/2025 en-US, 04/03/2025 en-GB, 04.03.2025 de-DE): what an editor opens with. */
export function formatLocaleDate(ymd: YMD, locale: string): string {
  const f = localeFacts(locale);
  const values: Record<DatePart, string> = { year: pad(ymd.y, 4), month: pad(ymd.m, 2), day: pad(ymd.d, 2) };
  const text = f.dateParts.map((p) => values[p]).join(f.dateSeparator);
  // Locales like hu-HU end the date with the separator's dot ("2025. 03. 04.").
  return f.dateSeparator.trim() === '.' && f.dateOrder === 'YMD' ? `${text}.` : text;
}

const utc = (ymd: YMD) => new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d));

function intl(locale: string, opts: Intl.DateTimeFormatOptions, ymd: YMD): string {
  return new Intl.DateTimeFormat(localeFacts(locale).locale, { ...opts, timeZone: 'UTC', numberingSystem: 'latn' }).format(utc(ymd));
}

/**
 * .NET standard date format letters (user-app.md §9: D, d, f, F, G, g, M, m, T, t, U, Y, y).
 * A date field carries no time, so the time formats show midnight.
 */
const STANDARD: Record<string, Intl.DateTimeFormatOptions> = {
  d: { year: 'numeric', month: '2-digit', day: '2-digit' },
  D: { dateStyle: 'full' },
  f: { dateStyle: 'full', timeStyle: 'short' },
  F: { dateStyle: 'full', timeStyle: 'medium' },
  g: { dateStyle: 'short', timeStyle: 'short' },
  G: { dateStyle: 'short', timeStyle: 'medium' },
  M: { month: 'long', day: 'numeric' },
  m: { month: 'long', day: 'numeric' },
  T: { timeStyle: 'medium' },
  t: { timeStyle: 'short' },
  U: { dateStyle: 'full', timeStyle: 'medium' },
  Y: { month: 'long', year: 'numeric' },
  y: { month: 'long', year: 'numeric' },
};

/** True for masks this module formats dates with: a standard letter or a custom pattern with d, M or y. */
export function isDateMask(mask: string | null | undefined): boolean {
  const m = (mask ?? '').trim();
  return m.length === 1 ? m in STANDARD : /[dMy]/.test(m);
}

/**
 * ISO date through a mask: a standard letter (above) or a custom pattern of yyyy, yy, MMMM, MMM,
 * MM, M, dddd, ddd, dd, d with other characters literal ('quoted' text too). No mask: the
 * locale's numeric date.
 */
export function formatDateMask(ymd: YMD, mask: string | null | undefined, locale: string): string {
  const m = (mask ?? '').trim();
  if (!m) return formatLocaleDate(ymd, locale);
  if (m.length === 1) {
    if (m === 'd') return formatLocaleDate(ymd, locale);
    const std = STANDARD[m];
    return std ? intl(locale, std, ymd) : formatLocaleDate(ymd, locale);
  }
  let out = '';
  const re = /'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|./g;
  for (const [tok, quoted] of m.matchAll(re)) {
    if (quoted !== undefined) out += quoted;
    else if (tok === 'yyyy') out += pad(ymd.y, 4);
    else if (tok === 'yy') out += pad(ymd.y % 100, 2);
    else if (tok === 'MMMM') out += intl(locale, { month: 'long' }, ymd);
    else if (tok === 'MMM') out += intl(locale, { month: 'short' }, ymd);
    else if (tok === 'MM') out += pad(ymd.m, 2);
    else if (tok === 'M') out += String(ymd.m);
    else if (tok === 'dddd') out += intl(locale, { weekday: 'long' }, ymd);
    else if (tok === 'ddd') out += intl(locale, { weekday: 'short' }, ymd);
    else if (tok === 'dd') out += pad(ymd.d, 2);
    else if (tok === 'd') out += String(ymd.d);
    else out += tok;
  }
  return out;
}
