import { describe, expect, it } from 'vitest';
import { UPPER_WIRE_KEYS, camelKey, pascalKey, toCamel, toPascal } from '../../src/api/case';

describe('case conversion at the edge', () => {
  it('camelKey: capitals-only keys go lower case, others lose their first capital', () => {
    expect(camelKey('ID')).toBe('id');
    expect(camelKey('MVAL')).toBe('mval');
    expect(camelKey('DocLimit')).toBe('docLimit');
    expect(camelKey('ListF1')).toBe('listF1');
    expect(camelKey('')).toBe('');
  });

  it('pascalKey raises the first letter, and upper keys entirely', () => {
    expect(pascalKey('docLimit')).toBe('DocLimit');
    expect(pascalKey('id', UPPER_WIRE_KEYS)).toBe('ID');
    expect(pascalKey('id')).toBe('Id');
  });

  it('converts nested objects and arrays both ways', () => {
    const wire = { Count: 2, Docs: [{ Id: 1, Fields: [{ ID: 5, VAL: 'a', MVAL: ['x'] }] }] };
    const camel = toCamel(wire);
    expect(camel).toEqual({ count: 2, docs: [{ id: 1, fields: [{ id: 5, val: 'a', mval: ['x'] }] }] });
    expect(camel.docs[0]!.fields[0]!.val).toBe('a');
    expect(toPascal({ fields: [{ id: 5, val: 'a', mval: ['x'] }] }, UPPER_WIRE_KEYS)).toEqual({ Fields: [{ ID: 5, VAL: 'a', MVAL: ['x'] }] });
  });

  it('leaves non-plain values alone', () => {
    const d = new Date(0);
    expect(toCamel({ When: d }).when).toBe(d);
    expect(toCamel(null)).toBeNull();
    expect(toPascal('text')).toBe('text');
  });
});
