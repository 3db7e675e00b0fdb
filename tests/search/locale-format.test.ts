import { describe, expect, it } from 'vitest';
import {
  datePattern,
  datePlaceholder,
  decimalFromWire,
  decimalSeparator,
  decimalToWire,
  filterDecimalInput,
  filterNumberInput,
  formatIsoDate,
  isValidNumber,
  parseLocaleDate,
} from '../../src/features/search/locale-format';

const letters = { day: 'DD', month: 'MM', year: 'YYYY' };

describe('date pattern by locale (Intl formatToParts)', () => {
  it.each([
    ['en-US', 'MM/DD/YYYY'],
    ['en-GB', 'DD/MM/YYYY'],
    ['fr-FR', 'DD/MM/YYYY'],
    ['de-DE', 'DD.MM.YYYY'],
    ['nl-NL', 'DD-MM-YYYY'],
  ])('%s shows %s', (locale, shown) => {
    expect(datePlaceholder(datePattern(locale), letters)).toBe(shown);
  });

});

describe('parseLocaleDate', () => {
  const us = datePattern('en-US');
  const gb = datePattern('en-GB');
  const de = datePattern('de-DE');
  const fr = datePattern('fr-FR');

  it('reads the order of each locale', () => {
    expect(parseLocaleDate('03/04/2024', us)).toBe('2024-03-04');
    expect(parseLocaleDate('03/04/2024', gb)).toBe('2024-04-03');
    expect(parseLocaleDate('03.04.2024', de)).toBe('2024-04-03');
    expect(parseLocaleDate('3/4/2024', fr)).toBe('2024-04-03');
  });

  it('accepts any separator, digits only, and ISO', () => {
    expect(parseLocaleDate('3-4-2024', us)).toBe('2024-03-04');
    expect(parseLocaleDate('03042024', gb)).toBe('2024-04-03');
    expect(parseLocaleDate('030424', de)).toBe('2024-04-03');
    expect(parseLocaleDate('2024-04-03', us)).toBe('2024-04-03');
  });

  it('expands two-digit years as the field rules do (00-49 -> 20xx, 50-99 -> 19xx)', () => {
    expect(parseLocaleDate('1/2/24', us)).toBe('2024-01-02');
    expect(parseLocaleDate('1/2/49', us)).toBe('2049-01-02');
    expect(parseLocaleDate('1/2/50', us)).toBe('1950-01-02');
    expect(parseLocaleDate('1/2/99', us)).toBe('1999-01-02');
    expect(parseLocaleDate('31.12.05', de)).toBe('2005-12-31');
  });

  it('refuses dates that do not exist and text that is not a date', () => {
    expect(parseLocaleDate('02/30/2024', us)).toBeNull();
    expect(parseLocaleDate('29/02/2023', gb)).toBeNull();
    expect(parseLocaleDate('29/02/2024', gb)).toBe('2024-02-29');
    expect(parseLocaleDate('13/01/2024', us)).toBeNull();
    expect(parseLocaleDate('yesterday', us)).toBeNull();
    expect(parseLocaleDate('1/2', us)).toBeNull();
    expect(parseLocaleDate('1/2/202', us)).toBeNull();
    expect(parseLocaleDate('', us)).toBeNull();
  });

  it('formats ISO back in the locale order, leaving other text alone', () => {
    expect(formatIsoDate('2024-04-03', datePattern('en-US'))).toBe('04/03/2024');
    expect(formatIsoDate('2024-04-03', datePattern('en-GB'))).toBe('03/04/2024');
    expect(formatIsoDate('2024-04-03T00:00:00Z', datePattern('de-DE'))).toBe('03.04.2024');
    expect(formatIsoDate('Today', datePattern('fr-FR'))).toBe('Today');
  });
});

describe('numbers and decimals', () => {
  it('number inputs keep digits and a leading minus', () => {
    expect(filterNumberInput('-12a3-4')).toBe('-1234');
    expect(filterNumberInput('1.5')).toBe('15');
    expect(filterNumberInput('abc')).toBe('');
    expect(isValidNumber('-1234')).toBe(true);
    expect(isValidNumber('-')).toBe(false);
    expect(isValidNumber('1'.repeat(20))).toBe(false);
  });

  it('decimal separator per locale', () => {
    expect(decimalSeparator('en-US')).toBe('.');
    expect(decimalSeparator('en-GB')).toBe('.');
    expect(decimalSeparator('de-DE')).toBe(',');
    expect(decimalSeparator('fr-FR')).toBe(',');
  });

  it('decimal inputs keep digits, a leading minus and one locale separator', () => {
    expect(filterDecimalInput('12,5,6', ',')).toBe('12,56');
    expect(filterDecimalInput('12.5', ',')).toBe('125');
    expect(filterDecimalInput('-1.2x5', '.')).toBe('-1.25');
  });

  it('decimals travel with a dot', () => {
    expect(decimalToWire('12,50', ',')).toBe('12.50');
    expect(decimalToWire(',5', ',')).toBe('0.5');
    expect(decimalToWire('7.', '.')).toBe('7');
    expect(decimalToWire('-3', '.')).toBe('-3');
    expect(decimalToWire(',', ',')).toBeNull();
    expect(decimalToWire('1.5', ',')).toBeNull();
    expect(decimalFromWire('12.5', ',')).toBe('12,5');
    expect(decimalFromWire('12.5', '.')).toBe('12.5');
  });
});
