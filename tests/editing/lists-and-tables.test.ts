import { describe, expect, it } from 'vitest';
import { TEXT_COMPLETE_MAX } from '../../src/api/archives';
import { dynamicDependents, dynamicFilters, filterItems, keepInRefreshedList, listKindOf, matchListItem } from '../../src/fields/lists';
import { alignTable, removeTableRow, trimTableRows } from '../../src/fields/multi-value';
import { fieldBounds, validateFieldValue, validateValue, validateWireValue } from '../../src/fields/rules';
import {
  NO_DIRTY, applyCheck, evaluateInput, invalidEntries, isDropdownField, markOf, putDirtyCell, sameValue, type EditDoc, type EditField,
} from '../../src/features/editing/edit-logic';

/** The seed's list and table fields (server/seed/catalog.ts). */
const F = {
  department: { ID: 5, Name: 'Department', Type: 1, Prop: 64, List: 1 },
  customer: { ID: 6, Name: 'Customer', Type: 1, List: 2 },
  country: { ID: 7, Name: 'Country', Type: 1, Size: 30 },
  region: { ID: 8, Name: 'Region', Type: 1, Size: 30 },
  city: { ID: 9, Name: 'City', Type: 1, Size: 40, Prop: 128, List: 3, ListF1: 7, ListF2: 8 },
  item: { ID: 20, Name: 'Item', Type: 1, Parent: 1, MultiValue: true },
  quantity: { ID: 21, Name: 'Quantity', Type: 2, Parent: 1, MultiValue: true, ExtendedConfig: { Min: 1, Max: 1000 } },
  unitPrice: { ID: 22, Name: 'Unit Price', Type: 4, Parent: 1, MultiValue: true, Mask: 'C2', Currency: 'USD' },
  amount: { ID: 4, Name: 'Amount', Type: 4, ExtendedConfig: { Min: -10.5, Max: 99.75 } },
} satisfies Record<string, EditField>;

const doc: EditDoc = {
  Id: 7,
  Hash: 'h7',
  ArchiveId: 5,
  Permissions: 1 | 1024,
  Fields: [
    { ID: 7, VAL: 'USA' },
    { ID: 8, VAL: 'East' },
    { ID: 9, VAL: 'Boston' },
    { ID: 20, VAL: 'Paper', MVAL: ['Paper', 'Toner'] },
    { ID: 21, VAL: '2', MVAL: ['2', '3'] },
  ],
};

describe('list kinds (the archive-ops spec §3 Prop bits)', () => {
  it('64 fixed, 128 dynamic (wins over 64), a List without either type-ahead, no List none', () => {
    expect(listKindOf(F.department)).toBe('fixed');
    expect(listKindOf(F.city)).toBe('dynamic');
    expect(listKindOf({ Prop: 64 | 128, List: 3 })).toBe('dynamic');
    expect(listKindOf(F.customer)).toBe('typeahead');
    expect(listKindOf({ Prop: 0, List: null })).toBeNull();
    expect(listKindOf({ Prop: 64, List: null })).toBeNull();
    expect(isDropdownField(F.department)).toBe(true);
    expect(isDropdownField(F.city)).toBe(false);
  });
});

describe('dynamic lists (the archive-ops spec §4)', () => {
  it('dependents of a parent and the filters from the row', () => {
    const fields = [F.country, F.region, F.city, F.customer];
    expect(dynamicDependents(fields, 7)).toEqual([F.city]);
    expect(dynamicDependents(fields, 8)).toEqual([F.city]);
    expect(dynamicDependents(fields, 9)).toEqual([]);
    const values: Record<number, string> = { 7: ' USA ', 8: 'West' };
    expect(dynamicFilters(F.city, (id) => values[id] ?? '')).toEqual({ filter1: 'USA', filter2: 'West' });
    expect(dynamicFilters({ ListF1: 7, ListF2: null }, (id) => values[id] ?? '')).toEqual({ filter1: 'USA', filter2: '' });
  });

  it('a value the refreshed list holds stays (in the list spelling); one it does not, or an empty list, clears it', () => {
    expect(keepInRefreshedList('Boston', ['Boston', 'New York'])).toEqual({ value: 'Boston', cleared: false });
    expect(keepInRefreshedList('boston', ['Boston'])).toEqual({ value: 'Boston', cleared: false });
    expect(keepInRefreshedList('Boston', ['Denver', 'Seattle'])).toEqual({ value: '', cleared: true });
    expect(keepInRefreshedList('Boston', [])).toEqual({ value: '', cleared: true });
    expect(keepInRefreshedList('', [])).toEqual({ value: '', cleared: false });
    expect(matchListItem(' nice ', ['Nice'])).toBe('Nice');
    expect(matchListItem('Nizza', ['Nice'])).toBeNull();
  });

  it('a typed value is judged against the known items: outside refused, case fixed', () => {
    expect(evaluateInput(F.city, 'seattle', 'en-US', ['Denver', 'Seattle']).wire).toEqual({ VAL: 'Seattle' });
    const bad = evaluateInput(F.city, 'Paris', 'en-US', ['Denver', 'Seattle']);
    expect(bad.wire).toBeNull();
    expect(bad.error?.key).toBe('FIELD_NOT_IN_LIST');
    // Not known yet (offline, never fetched): the server checks it on save.
    expect(evaluateInput(F.city, 'Paris', 'en-US', null).wire).toEqual({ VAL: 'Paris' });
    expect(evaluateInput(F.city, '', 'en-US', ['Denver']).wire).toEqual({ VAL: '' });
  });
});

describe('type-ahead suggestions', () => {
  it('those starting with the text first, then those containing it, at most the cap', () => {
    const items = ['Stark Industries', 'Initech', 'Rich Industries', 'Industrial Light'];
    expect(filterItems(items, 'indus', TEXT_COMPLETE_MAX)).toEqual(['Industrial Light', 'Stark Industries', 'Rich Industries']);
    expect(filterItems(items, '', 2)).toEqual(['Stark Industries', 'Initech']);
    const many = Array.from({ length: 250 }, (_, i) => `Item ${i}`);
    expect(filterItems(many, 'item', TEXT_COMPLETE_MAX)).toHaveLength(100);
  });
});

describe('numeric Min/Max (the user-app spec §5 numeric range; the archive-ops spec §5 clamp)', () => {
  it('bounds of number and decimal fields only; a number field\'s bounds are whole', () => {
    expect(fieldBounds(F.quantity)).toEqual({ min: 1, max: 1000 });
    expect(fieldBounds({ Type: 2, ExtendedConfig: { Min: 0.5, Max: 9.5 } })).toEqual({ min: 1, max: 9 });
    expect(fieldBounds(F.amount)).toEqual({ min: -10.5, max: 99.75 });
    expect(fieldBounds({ Type: 1, ExtendedConfig: { Min: 1, Max: 2 } })).toEqual({ min: null, max: null });
    expect(fieldBounds({ Type: 2 })).toEqual({ min: null, max: null });
  });

  it('typed input is clamped; the wire form outside the bounds is refused (the server)', () => {
    expect(validateValue(F.quantity, '5000', 'en-US')).toEqual({ code: 0, normalized: '1000', clamped: true });
    expect(validateValue(F.quantity, '0', 'en-US')).toEqual({ code: 0, normalized: '1', clamped: true });
    expect(validateValue(F.quantity, '500', 'en-US')).toEqual({ code: 0, normalized: '500' });
    expect(validateValue(F.amount, '100,5', 'de-DE')).toMatchObject({ code: 0, normalized: '99.75', clamped: true });
    expect(validateValue(F.amount, '-11', 'en-US')).toMatchObject({ normalized: '-10.5' });
    // Not a number at all: still -1, not clamped.
    expect(validateValue(F.quantity, '12-3', 'en-US').code).toBe(-1);
    expect(validateWireValue(F.quantity, '1001')).toEqual({ code: -1, key: 'FIELD_OUT_OF_RANGE' });
    expect(validateWireValue(F.quantity, '1000')).toEqual({ code: 0, normalized: '1000' });
    expect(validateFieldValue(F.quantity, { MVAL: ['3', '0'] }, null)).toMatchObject({ code: -1, key: 'FIELD_OUT_OF_RANGE', index: 1 });
  });

  it('the editor commits the bound and says so', () => {
    const c = evaluateInput({ ...F.quantity, Parent: undefined, MultiValue: false }, '5000', 'en-US');
    expect(c).toEqual({ text: '1000', display: '1000', wire: { VAL: '1000' }, clamped: true });
    const t = evaluateInput(F.quantity, ['5000', '2'], 'en-US');
    expect(t.wire).toEqual({ VAL: '1000', MVAL: ['1000', '2'] });
    expect(t.clamped).toBe(true);
  });
});

describe('table fields as aligned rows (the archive-ops spec §5)', () => {
  it('columns padded to the same rows, at least one; trailing empty rows dropped, one kept', () => {
    expect(alignTable({ 20: ['Paper', 'Toner'], 21: ['2'] }, [20, 21, 22])).toEqual({ 20: ['Paper', 'Toner'], 21: ['2', ''], 22: ['', ''] });
    expect(alignTable({}, [20, 21])).toEqual({ 20: [''], 21: [''] });
    expect(trimTableRows({ 20: ['Paper', '', ''], 21: ['2', '', ' '] })).toEqual({ 20: ['Paper'], 21: ['2'] });
    expect(trimTableRows({ 20: ['', ''], 21: ['', ''] })).toEqual({ 20: [''], 21: [''] });
    expect(trimTableRows({ 20: ['Paper', ''], 21: ['', '4'] })).toEqual({ 20: ['Paper', ''], 21: ['', '4'] });
  });

  it('the last row cannot be removed', () => {
    expect(removeTableRow({ 20: ['Paper'], 21: ['2'] }, 0)).toEqual({ ok: false, message: 'Can not have less than 1 Row.' });
    expect(removeTableRow({ 20: ['Paper', 'Toner'], 21: ['2', '3'] }, 0)).toEqual({ ok: true, columns: { 20: ['Toner'], 21: ['3'] } });
  });

  it('a table column keeps its empty entries (rows), shows none at the end, and they count as a change', () => {
    const c = evaluateInput(F.item, ['Paper', ''], 'en-US');
    expect(c.wire).toEqual({ VAL: 'Paper', MVAL: ['Paper', ''] });
    expect(c.display).toBe('Paper');
    expect(c.entries).toEqual(['Paper', '']);
    expect(sameValue(F.item, { VAL: 'Paper', MVAL: ['Paper', ''] }, { VAL: 'Paper', MVAL: ['Paper'] })).toBe(false);
    // A multi-value field (not a table column) drops them.
    const tags = { ID: 10, Name: 'Tags', Type: 1, Prop: 32, MultiValue: true };
    expect(evaluateInput(tags, ['a', ''], 'en-US').wire).toEqual({ VAL: 'a', MVAL: ['a'] });
    expect(sameValue(tags, { VAL: 'a', MVAL: ['a', ''] }, { VAL: 'a', MVAL: ['a'] })).toBe(true);
  });
});

describe('the server check of a value (validation worker, POST api/indexes)', () => {
  const typed = evaluateInput(F.customer, 'globex', 'en-US');

  it('a cell being checked is not invalid (Save waits for it) and is marked', () => {
    const rows = putDirtyCell(NO_DIRTY, { doc, field: F.customer, archiveId: 5, title: 't' }, { ...typed, checking: true });
    expect(invalidEntries(rows)).toEqual([]);
    expect(markOf(rows.get(7)!.cells.get(6), undefined)).toBe('checking');
    // Even a value equal to the document's is kept while it is checked.
    const same = evaluateInput(F.country, 'USA', 'en-US');
    expect(putDirtyCell(NO_DIRTY, { doc, field: F.country, archiveId: 5, title: 't' }, { ...same, checking: true }).size).toBe(1);
    expect(putDirtyCell(NO_DIRTY, { doc, field: F.country, archiveId: 5, title: 't' }, same).size).toBe(0);
  });

  it('valid: the server\'s normalised value (the list spelling)', () => {
    const c = applyCheck(F.customer, { ...typed, checking: true }, { code: 0, normalized: 'Globex', serverChecked: true }, 'en-US');
    expect(c).toEqual({ text: 'Globex', display: 'Globex', wire: { VAL: 'Globex' } });
  });

  it('refused: the translated key of the server\'s code (not its English text), the typed text kept', () => {
    const c = applyCheck(F.customer, { ...typed, checking: true }, { code: -1, key: 'FIELD_NOT_IN_LIST', message: "'globex' is not an item of the list", serverChecked: true }, 'en-US');
    expect(c).toEqual({ text: 'globex', display: 'globex', wire: null, error: { key: 'FIELD_NOT_IN_LIST' } });
    expect(applyCheck(F.customer, typed, { code: -4, serverChecked: true }, 'en-US').error).toEqual({ key: 'FIELD_NOT_FOUND' });
    // A RegEx's own message is shown as given.
    expect(applyCheck(F.customer, typed, { code: -1, key: 'FIELD_REGEX_MISMATCH', message: 'Account code must look like AB-1234', serverChecked: true }, 'en-US').error).toEqual({
      key: 'FIELD_REGEX_MISMATCH',
      message: 'Account code must look like AB-1234',
    });
  });

  it('offline or a server error: the local value stays', () => {
    expect(applyCheck(F.customer, { ...typed, checking: true }, { code: 0, serverChecked: false }, 'en-US')).toEqual(typed);
    expect(applyCheck(F.customer, { ...typed, checking: true }, undefined, 'en-US')).toEqual(typed);
  });

  it('table columns: the server\'s MVAL, shown without trailing empty rows', () => {
    const cell = evaluateInput(F.unitPrice, ['1.5', ''], 'en-US');
    const c = applyCheck(F.unitPrice, { ...cell, checking: true }, { code: 0, normalized: '1.5', normalizedMVAL: ['1.5', ''], serverChecked: true }, 'en-US');
    expect(c.wire).toEqual({ VAL: '1.5', MVAL: ['1.5', ''] });
    expect(c.display).toBe('$1.50');
    expect(c.checking).toBeUndefined();
  });
});
