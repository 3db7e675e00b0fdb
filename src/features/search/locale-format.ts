/**
 * How the user writes dates and decimals (user-app.md §5: dates by locale, two-digit years expanded;
 * decimals with the locale separator). The wire always carries ISO yyyy-mm-dd and '.'.
 */

export type DatePart = 'day' | 'month' | 'year';

export interface DatePattern {
  /** The order the user writes the parts in, e.g. month, day, year for en-US. */
  order: DatePart[];
  /** What goes between the parts: '/', '.', '-', ... */
  separator: string;
}

/**
 * The locale to format with: the browser's own regional variant when it speaks the app's language
 * (en-GB for an English app on a British browser), else the app's language itself.
 */
export function searchLocale(appLanguage: string, browserLanguages: readonly string[]): string {
  const base = appLanguage.toLowerCase().split(/[-_]/)[0] ?? 'en';
  const match = browserLanguages.find((l) => l.toLowerCase().split(/[-_]/)[0] === base);
  return match ?? base;
}

const BIDI_MARKS = /[\u200e\u200f\u061c]/g;

/** The order and separator of a locale's numeric date, derived from Intl (formatToParts). */
export function datePattern(locale: string): DatePattern {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2033, 10, 22));
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2033, 10, 22));
  }
  const order = parts.map((p) => p.type).filter((t): t is DatePart => t === 'day' || t === 'month' || t === 'year');
  const literal = parts.find((p) => p.type === 'literal')?.value.replace(BIDI_MARKS, '') ?? '/';
  return { order: order.length === 3 ? order : ['month', 'day', 'year'], separator: literal.trim() === '' ? '/' : literal.trimEnd() || '/' };
}

/** The format shown as a placeholder, e.g. MM/DD/YYYY, with the letters of the app's language. */
export function datePlaceholder(p: DatePattern, letters: Record<DatePart, string>): string {
  return p.order.map((part) => letters[part]).join(p.separator);
}

/** A two-digit year to four: at most 20 years ahead of `now`, else the century before. */
export function expandYear(yy: number, now: Date = new Date()): number {
  const year = now.getFullYear();
  let full = Math.floor(year / 100) * 100 + yy;
  if (full > year + 20) full -= 100;
  return full;
}

function isValidDate(y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate();
  const feb29 = m === 2 && d === 29;
  if (feb29) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= days;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const toIso = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;

/**
 * A date typed in the locale's order to ISO yyyy-mm-dd; null when it is not a real date.
 * Accepts any non-digit separators, digits only (ddmmyy / ddmmyyyy in the locale's order), and ISO.
 */
export function parseLocaleDate(text: string, p: DatePattern, now: Date = new Date()): string | null {
  const s = text.trim();
  if (s === '') return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (iso) {
    const [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    return isValidDate(y, m, d) ? toIso(y, m, d) : null;
  }
  let tokens = s.split(/\D+/).filter(Boolean);
  if (tokens.length === 1 && /^\d+$/.test(s) && (s.length === 6 || s.length === 8)) {
    const yearLen = s.length - 4;
    tokens = [];
    let at = 0;
    for (const part of p.order) {
      const len = part === 'year' ? yearLen : 2;
      tokens.push(s.slice(at, at + len));
      at += len;
    }
  }
  if (tokens.length !== 3 || /[^\d\s./\-,]/.test(s)) return null;
  const byPart: Partial<Record<DatePart, string>> = {};
  p.order.forEach((part, i) => (byPart[part] = tokens[i]));
  const [dt, mt, yt] = [byPart.day ?? '', byPart.month ?? '', byPart.year ?? ''];
  if (dt.length > 2 || mt.length > 2) return null;
  let y: number;
  if (yt.length === 4) y = Number(yt);
  else if (yt.length <= 2) y = expandYear(Number(yt), now);
  else return null;
  const [m, d] = [Number(mt), Number(dt)];
  return isValidDate(y, m, d) ? toIso(y, m, d) : null;
}

/** ISO yyyy-mm-dd (or a longer ISO timestamp) in the locale's order; other text is returned as it is. */
export function formatIsoDate(iso: string, p: DatePattern): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso.trim());
  if (!m) return iso;
  const values: Record<DatePart, string> = { year: m[1]!, month: m[2]!, day: m[3]! };
  return p.order.map((part) => values[part]).join(p.separator);
}

/** The locale's decimal separator ('.' or ',' for the app's languages). */
export function decimalSeparator(locale: string): string {
  try {
    return new Intl.NumberFormat(locale).formatToParts(1.5).find((x) => x.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

/** What a number prompt keeps of typed text: digits and one leading minus. */
export function filterNumberInput(text: string): string {
  const negative = text.trimStart().startsWith('-');
  return (negative ? '-' : '') + text.replace(/\D/g, '');
}

/** What a decimal prompt keeps: digits, one leading minus and the first locale separator. */
export function filterDecimalInput(text: string, separator: string): string {
  const negative = text.trimStart().startsWith('-');
  let out = '';
  let seenSep = false;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === separator && !seenSep) {
      out += ch;
      seenSep = true;
    }
  }
  return (negative ? '-' : '') + out;
}

/** A whole number as the spec allows it: optional minus, 1 to 19 digits. */
export function isValidNumber(text: string): boolean {
  return /^-?\d{1,19}$/.test(text.trim());
}

/** A typed decimal to the wire ('.'); null when invalid (either side of the separator may be empty, not both). */
export function decimalToWire(text: string, separator: string): string | null {
  const s = text.trim();
  const sep = separator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^(-?)(\\d*)(?:${sep}(\\d*))?$`).exec(s);
  if (!m) return null;
  const [, sign, int = '', frac] = m;
  if (int === '' && (frac ?? '') === '') return null;
  if (frac === undefined || frac === '') return `${sign}${int}`;
  return `${sign}${int || '0'}.${frac}`;
}

/** A wire decimal ('.') shown with the locale separator. */
export function decimalFromWire(wire: string, separator: string): string {
  return /^-?\d*\.\d*$/.test(wire.trim()) ? wire.trim().replace('.', separator) : wire;
}
