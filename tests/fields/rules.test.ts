import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGE_KEYS } from '../../src/fields/codes';
import { currencyForCountry, localeFacts } from '../../src/fields/locale';
import { expandTwoDigitYear, parseLocaleDate } from '../../src/fields/dates';
import { parseRegEx } from '../../src/fields/regex';
import { validateFieldValue, validateValue, validateWireValue, type FieldRule } from '../../src/fields/rules';

const text: FieldRule = { Type: 1, Size: 10 };
const num: FieldRule = { Type: 2 };
const date: FieldRule = { Type: 3, Mask: 'MM/dd/yyyy' };
const dec: FieldRule = { Type: 4 };
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR'];

describe('locale facts from Intl', () => {
  it.each([
    ['en-US', '.', ',', 'MDY', '/'],
    ['en-GB', '.', ',', 'DMY', '/'],
    ['de-DE', ',', '.', 'DMY', '.'],
    ['fr-FR', ',', '\u202f', 'DMY', '/'],
    ['sv-SE', ',', '\u00a0', 'YMD', '-'],
  ])('%s', (locale, decimal, group, order, sep) => {
    expect(localeFacts(locale)).toMatchObject({ decimal, group, dateOrder: order, dateSeparator: sep });
  });
  it('invalid tags fall back to en-US; underscores are accepted', () => {
    expect(localeFacts('not a locale!').locale).toBe('en-US');
    expect(localeFacts('de_DE').decimal).toBe(',');
  });
  it('the currency table goes by the country code, never by the locale', () => {
    expect(currencyForCountry('DE')).toBe('EUR');
    expect(currencyForCountry('gb')).toBe('GBP');
    expect(currencyForCountry('US')).toBe('USD');
    expect(currencyForCountry('ZZ')).toBeNull();
    expect(currencyForCountry(null)).toBeNull();
    expect(localeFacts('de-DE')).not.toHaveProperty('currency');
  });
});

describe('empty and required', () => {
  it.each(LOCALES)('empty is valid for every type in %s', (locale) => {
    for (const f of [text, num, date, dec]) {
      expect(validateValue(f, '', locale)).toEqual({ code: 0, normalized: '' });
      expect(validateValue(f, '   ', locale).code).toBe(0);
      expect(validateValue(f, null, locale).code).toBe(0);
    }
  });
  it('required (Prop 2) empty is -5 with its key', () => {
    for (const t of [1, 2, 3, 4]) expect(validateValue({ Type: t, Prop: 2 | 64 }, ' ', 'en-US')).toEqual({ code: -5, key: 'FIELD_REQUIRED' });
    expect(validateValue({ Type: 1, Prop: 2 }, 'x', 'en-US').code).toBe(0);
  });
});

describe('number (Type 2)', () => {
  it.each([
    ['0', 0], ['42', 0], ['-42', 0], [' 7 ', 0], ['1234567890123456789', 0], ['-1234567890123456789', 0],
    ['12345678901234567890', -1], ['--1', -1], ['1-', -1], ['-', -1], ['+1', -1], ['1.5', -1], ['1,000', -1], ['abc', -1], ['1e5', -1],
  ])('%j -> %i', (v, code) => {
    for (const l of LOCALES) expect(validateValue(num, v, l).code).toBe(code);
  });
  it('normalises to trimmed digits; Size counts digits (-3)', () => {
    expect(validateValue(num, ' -12 ', 'en-US').normalized).toBe('-12');
    expect(validateValue({ Type: 2, Size: 3 }, '-123', 'en-US').code).toBe(0);
    expect(validateValue({ Type: 2, Size: 3 }, '1234', 'en-US')).toEqual({ code: -3, key: 'FIELD_TOO_LONG' });
  });
});

describe('decimal (Type 4)', () => {
  it.each([
    ['en-US', '1234.5', '1234.5'], ['en-US', '1,234.5', '1234.5'], ['en-US', '.5', '0.5'], ['en-US', '5.', '5'], ['en-US', '-0.25', '-0.25'],
    ['en-GB', '1,234,567.89', '1234567.89'], ['de-DE', '1234,5', '1234.5'], ['de-DE', '1.234,5', '1234.5'], ['de-DE', ',5', '0.5'],
    ['fr-FR', '1234,5', '1234.5'], ['fr-FR', '1 234,5', '1234.5'], ['fr-FR', '1\u202f234,5', '1234.5'], ['de-DE', '€ 1.234,50', '1234.50'], ['en-US', '$12', '12'],
  ])('%s %j -> %s', (locale, v, wire) => {
    expect(validateValue(dec, v, locale)).toEqual({ code: 0, normalized: wire });
  });
  it.each([
    ['en-US', '.'], ['en-US', '1,5'], ['en-US', '1.2.3'], ['en-US', '1,23.4'], ['de-DE', '1.5'], ['de-DE', ','], ['de-DE', '1,2,3'],
    ['fr-FR', '1.5'], ['en-GB', 'abc'], ['en-US', '1.5-'],
  ])('%s %j -> -1', (locale, v) => {
    expect(validateValue(dec, v, locale)).toEqual({ code: -1, key: 'FIELD_INVALID_NUMBER' });
  });
  it('Size counts digits', () => {
    expect(validateValue({ Type: 4, Size: 4 }, '12,34', 'de-DE').code).toBe(0);
    expect(validateValue({ Type: 4, Size: 4 }, '12,345', 'de-DE').code).toBe(-3);
  });
});

describe('date (Type 3)', () => {
  it('03/04/2025 is 4 March in en-US and 3 April in en-GB and fr-FR', () => {
    expect(validateValue(date, '03/04/2025', 'en-US').normalized).toBe('2025-03-04');
    expect(validateValue(date, '03/04/2025', 'en-GB').normalized).toBe('2025-04-03');
    expect(validateValue(date, '03/04/2025', 'fr-FR').normalized).toBe('2025-04-03');
    expect(validateValue(date, '03.04.2025', 'de-DE').normalized).toBe('2025-04-03');
  });
  it.each([
    ['en-US', '3/4/25', '2025-03-04'], ['en-US', '12/31/49', '2049-12-31'], ['en-US', '1/1/50', '1950-01-01'], ['en-GB', '31/12/99', '1999-12-31'],
    ['de-DE', '4.3.00', '2000-03-04'], ['de-DE', '040325', '2025-03-04'], ['en-US', '03042025', '2025-03-04'], ['fr-FR', '29-02-2024', '2024-02-29'],
    ['de-DE', '2025-03-04', '2025-03-04'], ['en-GB', '4 3 2025', '2025-03-04'], ['sv-SE', '2025-3-4', '2025-03-04'], ['hu-HU', '2025. 03. 04.', '2025-03-04'],
  ])('%s %j -> %s', (locale, v, iso) => {
    expect(validateValue(date, v, locale)).toEqual({ code: 0, normalized: iso });
  });
  it.each([
    ['en-US', '13/01/2025'], ['en-GB', '01/13/2025'], ['en-US', '02/29/2025'], ['de-DE', '31.04.2025'], ['en-US', '1/2/203'],
    ['en-US', 'tomorrow'], ['fr-FR', '2025'], ['en-US', '1/2'], ['en-US', '001/02/2025'], ['de-DE', '0.1.2025'],
  ])('%s %j -> -2', (locale, v) => {
    expect(validateValue(date, v, locale)).toEqual({ code: -2, key: 'FIELD_INVALID_DATE' });
  });
  it('two-digit years pivot at 50', () => {
    expect(expandTwoDigitYear(0)).toBe(2000);
    expect(expandTwoDigitYear(49)).toBe(2049);
    expect(expandTwoDigitYear(50)).toBe(1950);
    expect(expandTwoDigitYear(99)).toBe(1999);
    expect(parseLocaleDate('1/2/5', 'en-US')).toEqual({ y: 2005, m: 1, d: 2 });
  });
});

describe('character (Type 1) and Size', () => {
  it('always valid within Size; longer is -3; default Size 50', () => {
    expect(validateValue(text, 'héllo wörl', 'en-US')).toEqual({ code: 0, normalized: 'héllo wörl' });
    expect(validateValue(text, 'x'.repeat(11), 'en-US')).toEqual({ code: -3, key: 'FIELD_TOO_LONG' });
    expect(validateValue({ Type: 1 }, 'x'.repeat(50), 'en-US').code).toBe(0);
    expect(validateValue({ Type: 1 }, 'x'.repeat(51), 'en-US').code).toBe(-3);
    expect(validateValue({ Type: 1, Size: 2 }, '😀😀', 'en-US').code).toBe(0);
    expect(validateValue({ Type: 1 }, '12/99/abc', 'de-DE').code).toBe(0);
  });
});

describe('RegEx with a comment message', () => {
  const account: FieldRule = { Type: 1, Size: 7, RegEx: '(?#Account code must look like AB-1234)^[A-Z]{2}-\\d{4}$', ExtendedConfig: { UseRegExValidation: true } };
  it('parses the comment prefix', () => {
    expect(parseRegEx(account.RegEx).message).toBe('Account code must look like AB-1234');
    expect(parseRegEx(account.RegEx).pattern?.source).toBe('^[A-Z]{2}-\\d{4}$');
    expect(parseRegEx('^a$').message).toBeUndefined();
    expect(parseRegEx('(?#only a message)').pattern).toBeNull();
    expect(parseRegEx('([unclosed').pattern).toBeNull();
  });
  it('a mismatch is -1 with the custom message; a match passes; empty stays valid', () => {
    expect(validateValue(account, 'AB-1234', 'en-US')).toEqual({ code: 0, normalized: 'AB-1234' });
    expect(validateValue(account, 'ab-1234', 'en-US')).toEqual({ code: -1, key: 'FIELD_REGEX_MISMATCH', message: 'Account code must look like AB-1234' });
    expect(validateValue(account, '', 'en-US').code).toBe(0);
    expect(validateValue(account, 'ABC-12345', 'en-US').code).toBe(-3);
  });
  it('without a comment the key alone; UseRegExValidation false skips it; a broken pattern is ignored', () => {
    expect(validateValue({ Type: 1, RegEx: '^\\d+$' }, 'x', 'en-US')).toEqual({ code: -1, key: 'FIELD_REGEX_MISMATCH' });
    expect(validateValue({ Type: 1, RegEx: '^\\d+$', ExtendedConfig: { UseRegExValidation: false } }, 'x', 'en-US').code).toBe(0);
    expect(validateValue({ Type: 1, RegEx: '([' }, 'x', 'en-US').code).toBe(0);
  });
  it('applies to the normalised value (dates as ISO)', () => {
    expect(validateValue({ Type: 3, RegEx: '^2025-' }, '03/04/2025', 'en-US').code).toBe(0);
    expect(validateValue({ Type: 3, RegEx: '^2024-' }, '03/04/2025', 'en-US').code).toBe(-1);
  });
});

describe('wire values (server)', () => {
  it('number, decimal with ".", ISO date', () => {
    expect(validateWireValue(num, '-1234567890123456789').code).toBe(0);
    expect(validateWireValue(num, '12345678901234567890').code).toBe(-1);
    expect(validateWireValue(dec, '1234.5').code).toBe(0);
    expect(validateWireValue(dec, '.5').code).toBe(0);
    expect(validateWireValue(dec, '1234,5').code).toBe(-1);
    expect(validateWireValue(dec, '1,234.5').code).toBe(-1);
    expect(validateWireValue(date, '2025-03-04')).toEqual({ code: 0, normalized: '2025-03-04' });
    expect(validateWireValue(date, '03/04/2025').code).toBe(-2);
    expect(validateWireValue(date, '2025-02-29').code).toBe(-2);
    expect(validateWireValue(date, '2024-02-29').code).toBe(0);
    expect(validateWireValue({ Type: 1, Prop: 2 }, '').code).toBe(-5);
  });
  it('what validateValue normalises, validateWireValue accepts unchanged', () => {
    for (const l of LOCALES)
      for (const [f, v] of [[dec, l.startsWith('en') ? '1,234.5' : '1234,5'], [date, '03/04/25'], [num, '-9']] as const) {
        const n = validateValue(f, v, l).normalized!;
        expect(validateWireValue(f, n)).toEqual({ code: 0, normalized: n });
      }
  });
});

describe('multi-value and table columns (validateFieldValue)', () => {
  const tags: FieldRule = { Type: 1, Size: 5, Prop: 32 };
  it('checks every entry, drops trailing empties, reports the first bad index', () => {
    expect(validateFieldValue(tags, { MVAL: ['a', 'b', '', ''] }, 'en-US')).toMatchObject({ code: 0, normalized: 'a', normalizedMVAL: ['a', 'b'] });
    expect(validateFieldValue(tags, { MVAL: ['a', 'toolong'] }, 'en-US')).toMatchObject({ code: -3, index: 1 });
    expect(validateFieldValue({ ...tags, Prop: 32 | 2 }, { MVAL: ['', ''] }, 'en-US').code).toBe(-5);
    expect(validateFieldValue({ ...tags, Prop: 32 | 2 }, { VAL: 'x' }, 'en-US')).toMatchObject({ code: 0, normalizedMVAL: ['x'] });
  });
  it('table columns keep empty rows aligned; values in locale or wire form', () => {
    const price: FieldRule = { Type: 4, Parent: 1, MultiValue: true };
    expect(validateFieldValue(price, { MVAL: ['1,5', ''] }, 'de-DE')).toMatchObject({ code: 0, normalizedMVAL: ['1.5', ''] });
    expect(validateFieldValue(price, { MVAL: ['1.5', 'x'] }, null)).toMatchObject({ code: -1, index: 1 });
  });
  it('single-value fields read VAL', () => {
    expect(validateFieldValue(num, { VAL: '12', MVAL: ['x'] }, 'en-US')).toEqual({ code: 0, normalized: '12' });
  });
});

describe('message keys', () => {
  it('one key per code -1..-6', () => {
    expect(FIELD_MESSAGE_KEYS).toEqual({
      [-1]: 'FIELD_INVALID_NUMBER',
      [-2]: 'FIELD_INVALID_DATE',
      [-3]: 'FIELD_TOO_LONG',
      [-4]: 'FIELD_NOT_FOUND',
      [-5]: 'FIELD_REQUIRED',
      [-6]: 'FIELD_CONFIDENCE_ERROR',
    });
  });
});
