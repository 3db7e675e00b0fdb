/**
 * How the user writes dates and decimals (the user-app spec §5: dates by locale, two-digit years expanded;
 * decimals with the locale separator). The wire always carries ISO yyyy-mm-dd and '.'.
 */

import { formatLocaleDate, localeDatePlaceholder, parseIsoDate, parseLocaleDate as parseDate, toIsoDate } from '../../fields/dates';
import { localeFacts, type DatePart } from '../../fields/locale';

export type { DatePart };

/**
 * How a locale writes numeric dates, for the prompt form: the parts' order and separator (for the
 * placeholder) and the locale itself. Parsing, two-digit years and formatting are the field rules'
 * (src/fields), so a date means the same in a search prompt as in a grid cell.
 */
export interface DatePattern {
  /** The order the user writes the parts in, e.g. month, day, year for en-US. */
  order: readonly DatePart[];
  /** What goes between the parts: '/', '.', '-', ... */
  separator: string;
  locale: string;
}

export function datePattern(locale: string): DatePattern {
  const f = localeFacts(locale);
  return { order: f.dateParts, separator: f.dateSeparator.trimEnd() || '/', locale: f.locale };
}

/** The format shown as a placeholder, e.g. MM/DD/YYYY, with the letters of the app's language (src/fields: the grid's order too). */
export function datePlaceholder(p: DatePattern, letters: Record<DatePart, string>): string {
  return localeDatePlaceholder(p.locale, letters);
}

/** A date typed in the locale's order to ISO yyyy-mm-dd; null when it is not a real date. */
export function parseLocaleDate(text: string, p: DatePattern): string | null {
  const ymd = parseDate(text, p.locale);
  return ymd ? toIsoDate(ymd) : null;
}

/** ISO yyyy-mm-dd (or a longer ISO timestamp) in the locale's order; other text is returned as it is. */
export function formatIsoDate(iso: string, p: DatePattern): string {
  const ymd = parseIsoDate(iso.trim().slice(0, 10));
  return ymd ? formatLocaleDate(ymd, p.locale) : iso;
}

/** The locale's decimal separator ('.' or ',' for the app's languages). */
export function decimalSeparator(locale: string): string {
  return localeFacts(locale).decimal;
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
