/**
 * What a locale writes numbers and dates like, read from Intl (formatToParts) so that any locale
 * string works, not only the app's languages (the archive-ops spec §9: "locale separators and date
 * order are detected"). Results are cached per locale string: Intl formatters are costly to build
 * and the grid asks for every cell.
 */

export type DatePart = 'day' | 'month' | 'year';
export type DateOrder = 'DMY' | 'MDY' | 'YMD';

export interface LocaleFacts {
  /** The locale Intl resolved the given string to ('en-US' when the string was not a valid tag). */
  locale: string;
  decimal: string;
  group: string;
  dateOrder: DateOrder;
  /** The same order as parts, for parsing and formatting. */
  dateParts: readonly DatePart[];
  /** What goes between the numeric date parts ('/', '.', '-', '. '). */
  dateSeparator: string;
}

const FALLBACK = 'en-US';
const BIDI_MARKS = /[\u200e\u200f\u061c]/g;
const cache = new Map<string, LocaleFacts>();

/** A locale Intl accepts: underscores become hyphens, anything invalid becomes en-US. */
export function resolveLocale(locale: string | undefined | null): string {
  const tag = (locale ?? '').trim().replace(/_/g, '-');
  if (!tag) return FALLBACK;
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag])[0] ?? new Intl.NumberFormat(tag).resolvedOptions().locale;
  } catch {
    return FALLBACK;
  }
}

/*
 * The currency table by country code (the user-app spec §9): an archive's country (ISO 3166-1 alpha-2)
 * to the currency its 'C' masks show. Never the user's locale: switching the app's language may
 * change how an amount is written (separators), never which money it is.
 */
const EURO = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK', 'MC', 'SM', 'VA', 'AD', 'ME', 'XK'];
const CURRENCY_BY_REGION: Record<string, string> = {
  ...Object.fromEntries(EURO.map((r) => [r, 'EUR'])),
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', CH: 'CHF', LI: 'CHF', JP: 'JPY', CN: 'CNY', IN: 'INR', BR: 'BRL',
  MX: 'MXN', RO: 'RON', PL: 'PLN', CZ: 'CZK', HU: 'HUF', SE: 'SEK', NO: 'NOK', DK: 'DKK', ZA: 'ZAR', RU: 'RUB', TR: 'TRY',
  KR: 'KRW', SG: 'SGD', HK: 'HKD', AR: 'ARS', CL: 'CLP', CO: 'COP', IL: 'ILS', AE: 'AED', SA: 'SAR', IE: 'EUR',
};

/** ISO 4217 code of a country's currency; null for a country the table does not know (or none). */
export function currencyForCountry(country: string | null | undefined): string | null {
  return CURRENCY_BY_REGION[(country ?? '').trim().toUpperCase()] ?? null;
}

function orderOf(parts: readonly DatePart[]): DateOrder {
  const key = parts.map((p) => p[0]!.toUpperCase()).join('');
  return key === 'DMY' || key === 'MDY' || key === 'YMD' ? key : 'MDY';
}

export function localeFacts(locale: string): LocaleFacts {
  const hit = cache.get(locale);
  if (hit) return hit;
  const resolved = resolveLocale(locale);
  const num = new Intl.NumberFormat(resolved, { useGrouping: true, numberingSystem: 'latn' }).formatToParts(1234567.5);
  const decimal = num.find((p) => p.type === 'decimal')?.value ?? '.';
  const group = num.find((p) => p.type === 'group')?.value ?? (decimal === ',' ? '.' : ',');
  // 22 November 2033: day, month and year all differ, so the order is unambiguous.
  const dateParts = new Intl.DateTimeFormat(resolved, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC', numberingSystem: 'latn' }).formatToParts(
    new Date(Date.UTC(2033, 10, 22)),
  );
  const parts = dateParts.map((p) => p.type).filter((t): t is DatePart => t === 'day' || t === 'month' || t === 'year');
  const ordered: DatePart[] = parts.length === 3 ? parts : ['month', 'day', 'year'];
  const literal = dateParts.find((p) => p.type === 'literal')?.value.replace(BIDI_MARKS, '') ?? '/';
  const facts: LocaleFacts = {
    locale: resolved,
    decimal,
    group,
    dateOrder: orderOf(ordered),
    dateParts: ordered,
    dateSeparator: literal.trim() === '' ? '/' : literal,
  };
  cache.set(locale, facts);
  return facts;
}
