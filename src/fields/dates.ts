/**
 * Dates typed in the locale's order (the user-app spec §5: day/month order by locale, two-digit years
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

/** How wide a numeric date shows each part; a part left out is not shown (a mask such as MM/yyyy). */
export interface DateWidths {
  day?: 1 | 2;
  month?: 1 | 2;
  year?: 2 | 4;
}

const FULL_DATE: DateWidths = { day: 2, month: 2, year: 4 };

/**
 * The one numeric date writer (grid cells, grid editors, the touch edit panel and the search
 * prompts all come here): the parts in the locale's order with the locale's separator, each as
 * wide as `widths` says. The locale decides order and separators; the field's mask only which
 * parts show and how wide (dateWidthsOfMask).
 */
export function formatDateParts(ymd: YMD, locale: string, widths: DateWidths = FULL_DATE): string {
  const f = localeFacts(locale);
  const values: Record<DatePart, string | null> = {
    year: widths.year ? (widths.year === 2 ? pad(ymd.y % 100, 2) : pad(ymd.y, 4)) : null,
    month: widths.month ? pad(ymd.m, widths.month) : null,
    day: widths.day ? pad(ymd.d, widths.day) : null,
  };
  const text = f.dateParts
    .map((p) => values[p])
    .filter((v): v is string => v !== null)
    .join(f.dateSeparator);
  // Locales like hu-HU end the date with the separator's dot ("2025. 03. 04.").
  return f.dateSeparator.trim() === '.' && f.dateOrder === 'YMD' ? `${text}.` : text;
}

/** The locale's own numeric date (e.g. 03/04/2025 en-US, 04/03/2025 en-GB, 04.03.2025 de-DE): what an editor opens with. */
export function formatLocaleDate(ymd: YMD, locale: string): string {
  return formatDateParts(ymd, locale, FULL_DATE);
}

/** The date format a prompt shows as its placeholder, e.g. MM/DD/YYYY or TT.MM.JJJJ, with the letters of the app's language. */
export function localeDatePlaceholder(locale: string, letters: Record<DatePart, string>): string {
  const f = localeFacts(locale);
  return f.dateParts.map((p) => letters[p]).join(f.dateSeparator.trimEnd() || '/');
}

const utc = (ymd: YMD) => new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d));

function intl(locale: string, opts: Intl.DateTimeFormatOptions, ymd: YMD): string {
  return new Intl.DateTimeFormat(localeFacts(locale).locale, { ...opts, timeZone: 'UTC', numberingSystem: 'latn' }).format(utc(ymd));
}

/**
 * .NET standard date format letters (the user-app spec §9: D, d, f, F, G, g, M, m, T, t, U, Y, y).
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

const MASK_TOKENS = /'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|ss|tt|./g;

/**
 * What a custom mask asks to show, as Intl options: yyyy/yy the year (4 or 2 digits), MMMM/MMM the
 * month's name, MM/M its number, dddd/ddd the weekday, dd/d the day, HH/H/hh/h, mm, ss and tt the
 * time (a date field has none: midnight). Literal text and the order the mask writes them in are
 * not kept: those are the locale's.
 */
function maskOptions(mask: string): Intl.DateTimeFormatOptions {
  const o: Intl.DateTimeFormatOptions = {};
  for (const [tok, quoted] of mask.matchAll(MASK_TOKENS)) {
    if (quoted !== undefined) continue;
    if (tok === 'yyyy') o.year = 'numeric';
    else if (tok === 'yy') o.year = '2-digit';
    else if (tok === 'MMMM') o.month = 'long';
    else if (tok === 'MMM') o.month = 'short';
    else if (tok === 'MM') o.month = '2-digit';
    else if (tok === 'M') o.month = 'numeric';
    else if (tok === 'dddd') o.weekday = 'long';
    else if (tok === 'ddd') o.weekday = 'short';
    else if (tok === 'dd') o.day = '2-digit';
    else if (tok === 'd') o.day = 'numeric';
    else if (tok === 'HH' || tok === 'H') Object.assign(o, { hour: tok === 'HH' ? '2-digit' : 'numeric', hourCycle: 'h23' });
    else if (tok === 'hh' || tok === 'h') Object.assign(o, { hour: tok === 'hh' ? '2-digit' : 'numeric', hourCycle: 'h12' });
    else if (tok === 'mm') o.minute = '2-digit';
    else if (tok === 'ss') o.second = '2-digit';
  }
  return o;
}

/**
 * The rule for dates on screen (the user-app spec §5 "Dates are normalised against the field mask (day/
 * month order by locale, two-digit years expanded)"): the field's mask says which parts a date
 * shows and how wide; the user's locale says their order and separators. So MM/dd/yyyy,
 * dd.MM.yyyy and yyyy-MM-dd all show 04.03.2025 in German and 03/04/2025 in American English,
 * the same order the editors open with and the search prompts ask for. A standard letter
 * (the user-app spec §9: D, d, f, F, ...) is the locale's own format of that kind; no mask or 'd' is the
 * locale's numeric date. Masks with names or a time go through Intl in the locale.
 */
export function formatDateMask(ymd: YMD, mask: string | null | undefined, locale: string): string {
  const m = (mask ?? '').trim();
  if (!m || m === 'd') return formatLocaleDate(ymd, locale);
  if (m.length === 1) {
    const std = STANDARD[m];
    return std ? intl(locale, std, ymd) : formatLocaleDate(ymd, locale);
  }
  const o = maskOptions(m);
  const numericOnly = !o.weekday && !o.hour && !o.minute && !o.second && o.month !== 'long' && o.month !== 'short';
  if (!numericOnly) return intl(locale, o, ymd);
  if (!o.year && !o.month && !o.day) return formatLocaleDate(ymd, locale);
  return formatDateParts(ymd, locale, {
    ...(o.day ? { day: o.day === '2-digit' ? 2 : 1 } : {}),
    ...(o.month ? { month: o.month === '2-digit' ? 2 : 1 } : {}),
    ...(o.year ? { year: o.year === '2-digit' ? 2 : 4 } : {}),
  });
}
