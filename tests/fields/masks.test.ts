import { describe, expect, it } from 'vitest';
import {
  applyMask,
  clampNumber,
  compareVersions,
  formatWireValue,
  isTextArea,
  parsePicture,
  roundDecimal,
  toEditText,
} from '../../src/fields/masks';

describe('currency masks on blur', () => {
  const usd = { Type: 4, Mask: 'C2', Currency: 'USD' } as const;
  const eur = { Type: 4, Mask: 'C2', Currency: 'EUR' } as const;
  it("C2: the field's currency, written the locale's way", () => {
    expect(applyMask(usd, '1234.5', 'en-US')).toBe('$1,234.50');
    expect(applyMask(usd, '1234.5', 'en-GB')).toBe('$1,234.50');
    expect(applyMask(usd, '1234,5', 'de-DE')).toBe('1.234,50\u00a0$');
    expect(applyMask(usd, '1 234,5', 'fr-FR')).toBe('1\u202f234,50\u00a0$');
    expect(applyMask(eur, '1234.5', 'en-US')).toBe('€1,234.50');
    expect(applyMask(eur, '1234,5', 'de-DE')).toBe('1.234,50\u00a0€');
    expect(applyMask({ ...usd, Mask: 'C0' }, '-1234.5', 'en-US')).toBe('-$1,235');
  });
  it('switching the language never changes the currency', () => {
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-PT', 'ja-JP']) {
      expect(formatWireValue(usd, '24254.18', locale).replace(/[\d\s.,'\u00a0\u202f]/g, ''), locale).toBe('$');
    }
  });
  it('a C mask whose currency is unknown shows the grouped amount with no symbol', () => {
    expect(formatWireValue({ Type: 4, Mask: 'C2' }, '24254.18', 'de-DE')).toBe('24.254,18');
    expect(formatWireValue({ Type: 4, Mask: 'C2', Currency: 'not money' }, '24254.18', 'en-US')).toBe('24,254.18');
  });
  it('keeps every digit of large values', () => {
    expect(applyMask(usd, '12345678901234567.555', 'en-US')).toBe('$12,345,678,901,234,567.56');
  });
  it('picture masks with literal separators', () => {
    expect(parsePicture('$#,##0.00')).toEqual({ prefix: '$', suffix: '', group: ',', decimal: '.', places: 2 });
    expect(parsePicture('€ #.##0,00')).toEqual({ prefix: '€ ', suffix: '', group: '.', decimal: ',', places: 2 });
    expect(parsePicture('#,##0.00 €')).toMatchObject({ prefix: '', suffix: ' €', decimal: '.', places: 2 });
    expect(parsePicture('#,##0')).toMatchObject({ group: ',', places: 0 });
    expect(parsePicture('0,000')).toMatchObject({ group: null, decimal: ',', places: 3 });
    expect(parsePicture('abc')).toBeNull();
    expect(applyMask({ Type: 4, Mask: '$#,##0.00' }, '1234567.891', 'en-US')).toBe('$1,234,567.89');
    expect(applyMask({ Type: 4, Mask: '€ #.##0,00' }, '1234,5', 'de-DE')).toBe('€ 1.234,50');
    expect(applyMask({ Type: 4, Mask: '$#,##0.00' }, '-0.004', 'en-US')).toBe('$0.00');
    expect(applyMask({ Type: 4, Mask: '$#,##0.00' }, '-2.005', 'en-US')).toBe('-$2.01');
  });
  it('N and F masks; number fields', () => {
    expect(applyMask({ Type: 2, Mask: 'N0' }, '1234567', 'de-DE')).toBe('1.234.567');
    expect(applyMask({ Type: 4, Mask: 'F3' }, '1234,5', 'fr-FR')).toBe('1234,500');
    expect(applyMask({ Type: 2 }, '-42', 'en-US')).toBe('-42');
  });
  it('a masked decimal validates again (the editor may start from it)', () => {
    expect(applyMask(eur, applyMask(eur, '1234,5', 'de-DE'), 'de-DE')).toBe('1.234,50\u00a0€');
    expect(applyMask(usd, applyMask(usd, '1234,5', 'de-DE'), 'de-DE')).toBe('1.234,50\u00a0$');
  });
  it('invalid or empty input is left as typed', () => {
    expect(applyMask({ Type: 4, Mask: 'C2' }, '12abc', 'en-US')).toBe('12abc');
    expect(applyMask({ Type: 3, Mask: 'dd.MM.yyyy' }, '31/02/2025', 'en-GB')).toBe('31/02/2025');
    expect(applyMask({ Type: 4, Mask: 'C2' }, '', 'en-US')).toBe('');
  });
  it('roundDecimal rounds half away from zero on the digits', () => {
    expect(roundDecimal('0.995', 2)).toEqual({ negative: false, int: '1', frac: '00' });
    expect(roundDecimal('-12.344', 2)).toEqual({ negative: true, int: '12', frac: '34' });
    expect(roundDecimal('9999999999999999999.5', 0)).toEqual({ negative: false, int: '10000000000000000000', frac: '' });
  });
});

describe('date masks on blur: the mask says which parts, the locale their order and separators', () => {
  it.each([
    ['MM/dd/yyyy', 'en-GB', '04/03/2025', '04/03/2025'],
    ['MM/dd/yyyy', 'de-DE', '4.3.25', '04.03.2025'],
    ['MM/dd/yyyy', 'en-US', '3/4/25', '03/04/2025'],
    ['dd.MM.yyyy', 'en-US', '03/04/2025', '03/04/2025'],
    ['yyyy-MM-dd', 'de-DE', '4.3.25', '04.03.2025'],
    ['yyyy-MM-dd', 'sv-SE', '2025-03-04', '2025-03-04'],
    ['M/d/yy', 'de-DE', '4.3.2025', '4.3.25'],
    ['MM/yyyy', 'de-DE', '4.3.2025', '03.2025'],
    ['MM/dd/yyyy HH:mm', 'de-DE', '4.3.2025', '04.03.2025, 00:00'],
    ['d', 'de-DE', '4.3.25', '04.03.2025'],
    ['d', 'en-US', '3/4/25', '03/04/2025'],
    ['D', 'en-US', '3/4/25', 'Tuesday, March 4, 2025'],
    ['D', 'fr-FR', '4/3/25', 'mardi 4 mars 2025'],
    ['dd MMM yyyy', 'en-GB', '4/3/25', '04 Mar 2025'],
    ["d 'of' MMMM yyyy", 'en-US', '3/4/2025', 'March 4, 2025'],
    ["d 'of' MMMM yyyy", 'de-DE', '4.3.2025', '4. März 2025'],
    ['Y', 'de-DE', '4.3.2025', 'März 2025'],
    ['', 'fr-FR', '4/3/25', '04/03/2025'],
  ])('%j in %s: %s -> %s', (mask, locale, typed, shown) => {
    expect(applyMask({ Type: 3, Mask: mask }, typed, locale)).toBe(shown);
  });
});

describe('wire values for display and editing', () => {
  it('formatWireValue and toEditText', () => {
    // One order in one screen: the cell, the editor (and the prompts, tests/search) agree.
    expect(formatWireValue({ Type: 3, Mask: 'MM/dd/yyyy' }, '2025-03-04', 'de-DE')).toBe('04.03.2025');
    expect(formatWireValue({ Type: 3, Mask: 'd' }, '2025-03-04', 'de-DE')).toBe('04.03.2025');
    expect(toEditText({ Type: 3, Mask: 'MM/dd/yyyy' }, '2025-03-04', 'de-DE')).toBe('04.03.2025');
    expect(toEditText({ Type: 4, Mask: 'C2' }, '1234.5', 'fr-FR')).toBe('1234,5');
    expect(toEditText({ Type: 1 }, 'a.b', 'de-DE')).toBe('a.b');
    expect(formatWireValue({ Type: 4 }, '1234.5', 'de-DE')).toBe('1234,5');
    expect(formatWireValue({ Type: 3 }, 'not a date', 'en-US')).toBe('not a date');
  });
});

describe('clamp, text area', () => {
  it('clampNumber', () => {
    expect(clampNumber(5, 1, 10)).toBe(5);
    expect(clampNumber(-5, 1, 10)).toBe(1);
    expect(clampNumber(50, 1, 10)).toBe(10);
    expect(clampNumber(50, null, undefined)).toBe(50);
    expect(clampNumber(Number.NaN, 1, 10)).toBeNaN();
  });
  it('Size 150 or more is a text area', () => {
    expect(isTextArea({ Size: 149 })).toBe(false);
    expect(isTextArea({ Size: 150 })).toBe(true);
    expect(isTextArea({ Size: 500 })).toBe(true);
    expect(isTextArea({})).toBe(false);
  });
});

describe('compareVersions', () => {
  it.each([
    ['1.10', '1.9', 1], ['1.9', '1.10', -1], ['1.0', '1', 0], ['2', '10', -1], ['1.02', '1.2', 0],
    ['10.0.1', '10.0.0.9', 1], ['99999999999999999999', '99999999999999999998', 1], [' 3.1 ', '3.1', 0],
  ])('%s vs %s -> %i', (a, b, r) => {
    expect(compareVersions(a, b)).toBe(r);
  });
  it.each([['1.a', '1'], ['', '1'], ['1..2', '1'], ['v1', '1'], ['1', '-1'], ['1.', '1']])('%j vs %j is NaN', (a, b) => {
    expect(compareVersions(a, b)).toBeNaN();
  });
});
