import { describe, expect, it } from 'vitest';
import {
  addTableRow,
  compactMultiValue,
  editMultiValue,
  removeMultiValue,
  removeTableRow,
  TABLE_MIN_ROWS_MESSAGE,
  tableRowCount,
  withTrailingEntry,
} from '../../src/fields/multi-value';

describe('multi-value cells', () => {
  it('typing into the last entry adds an empty one', () => {
    let e = withTrailingEntry([]);
    expect(e).toEqual(['']);
    e = editMultiValue(e, 0, 'a');
    expect(e).toEqual(['a', '']);
    e = editMultiValue(e, 1, 'b');
    expect(e).toEqual(['a', 'b', '']);
    e = editMultiValue(e, 0, 'A');
    expect(e).toEqual(['A', 'b', '']);
    expect(editMultiValue(['a', ''], 1, '')).toEqual(['a', '']);
    expect(() => editMultiValue(['a'], 5, 'x')).toThrow(RangeError);
  });
  it('trailing empties are dropped on save; removal keeps the empty entry', () => {
    expect(compactMultiValue(['a', '', 'b', '', ' '])).toEqual(['a', '', 'b']);
    expect(compactMultiValue(['', ''])).toEqual([]);
    expect(withTrailingEntry(['a'])).toEqual(['a', '']);
    expect(removeMultiValue(['a', 'b', ''], 0)).toEqual(['b', '']);
  });
});

describe('table fields', () => {
  const t = { 20: ['Pen', 'Ink'], 21: ['2', '1'], 22: ['1.5'] };
  it('counts and adds rows, padding columns', () => {
    expect(tableRowCount(t)).toBe(2);
    expect(tableRowCount({})).toBe(0);
    expect(addTableRow(t)).toEqual({ 20: ['Pen', 'Ink', ''], 21: ['2', '1', ''], 22: ['1.5', '', ''] });
    expect(addTableRow(t, 0)[20]).toEqual(['', 'Pen', 'Ink']);
  });
  it('removes a row but never the last one', () => {
    expect(removeTableRow(t, 0)).toEqual({ ok: true, columns: { 20: ['Ink'], 21: ['1'], 22: [] } });
    expect(removeTableRow({ 20: ['Pen'], 21: ['2'] }, 0)).toEqual({ ok: false, message: 'Can not have less than 1 Row.' });
    expect(TABLE_MIN_ROWS_MESSAGE).toBe('Can not have less than 1 Row.');
    expect(() => removeTableRow(t, 2)).toThrow(RangeError);
  });
});
