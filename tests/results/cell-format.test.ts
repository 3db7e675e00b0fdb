import { describe, expect, it } from 'vitest';
import { FORMAT_CACHE_LIMIT, cellFormatter } from '../../src/features/results/cell-format';

const fields = [
  { ID: 1, Name: 'Title', Type: 1 },
  { ID: 3, Name: 'Document Date', Type: 3, Mask: 'MM/dd/yyyy' },
  // Currency: what the server sends from the archive's country (server/search/model.ts fieldToWire).
  { ID: 4, Name: 'Amount', Type: 4, Mask: 'C2', Currency: 'USD' },
  { ID: 5, Name: 'Quantity', Type: 4 },
  { ID: 6, Name: 'Created', Type: 3 },
];

describe('what a field cell shows', () => {
  it('dates and amounts through their masks, in the locale; text as it is', () => {
    const us = cellFormatter(fields, 'en-US');
    expect(us(1, '2024-12-14 memo')).toBe('2024-12-14 memo');
    expect(us(3, '2024-12-14')).toBe('12/14/2024');
    expect(us(4, '24160.5')).toBe('$24,160.50');
    expect(us(5, '12.5')).toBe('12.5');
    expect(us(6, '2024-12-14')).toBe('12/14/2024');
  });

  it('follows the locale where the field has no fixed pattern', () => {
    const de = cellFormatter(fields, 'de-DE');
    expect(de(5, '12.5')).toBe('12,5');
    expect(de(6, '2024-12-14')).toBe('14.12.2024');
  });

  it("the locale writes dates and amounts, the field's mask and currency say what: same order in every date column, same money in every language", () => {
    const de = cellFormatter(fields, 'de-DE');
    expect(de(3, '2024-12-14')).toBe('14.12.2024');
    expect(de(4, '24254.18')).toBe('24.254,18\u00a0$');
    expect(cellFormatter(fields, 'en-US')(4, '24254.18')).toBe('$24,254.18');
  });

  it('formats multi-value cells value by value and leaves non-wire text alone', () => {
    const us = cellFormatter(fields, 'en-US');
    expect(us(4, '1.5; 20')).toBe('$1.50; $20.00');
    expect(us(4, '$1.50')).toBe('$1.50');
    expect(us(99, '2024-12-14')).toBe('2024-12-14');
  });
});

describe('formatter memory', () => {
  it('gives the same text for a value seen before, and keeps working past its limit', () => {
    const us = cellFormatter(fields, 'en-US');
    expect(us(4, '24160.5')).toBe('$24,160.50');
    expect(us(4, '24160.5')).toBe('$24,160.50');
    for (let i = 0; i < FORMAT_CACHE_LIMIT + 5; i++) us(5, String(i));
    expect(us(5, '12.5')).toBe('12.5');
    expect(us(4, '1.5; 20')).toBe('$1.50; $20.00');
  });

  it("keeps fields apart: one wire value formats by each field's own mask", () => {
    const us = cellFormatter(fields, 'en-US');
    expect(us(3, '2024-12-14')).toBe('12/14/2024');
    expect(us(1, '2024-12-14')).toBe('2024-12-14');
    expect(us(4, '12.5')).toBe('$12.50');
    expect(us(5, '12.5')).toBe('12.5');
  });
});
