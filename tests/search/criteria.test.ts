import { describe, expect, it } from 'vitest';
import type { SearchDetailItem } from '../../src/api/search';
import {
  buildCriteria,
  clampRecordsPerPage,
  defaultValues,
  emptyValue,
  parseCriteria,
  refineUrl,
  resultsUrl,
  valuesFromCriteria,
  withTrailingEmpty,
  type FormValues,
  type LocaleFormat,
} from '../../src/features/search/criteria';
import { datePattern } from '../../src/features/search/locale-format';
import { collapsePrompts, promptForField, toPrompt } from '../../src/features/search/prompts';

const item = (o: Partial<SearchDetailItem> & Record<string, unknown>): SearchDetailItem => ({ ID: 1, Prompt: 'Title', Type: 1, Prop: 0, ...o }) as SearchDetailItem;
const us: LocaleFormat = { date: datePattern('en-US'), decimalSeparator: '.' };
const de: LocaleFormat = { date: datePattern('de-DE'), decimalSeparator: ',' };

const detail: SearchDetailItem[] = [
  item({ ID: 11, FID: 101, Prompt: 'Title', Type: 1, Condition: 'Contains' }),
  item({ ID: 12, FID: 102, Prompt: 'Invoice Number', Type: 2, Condition: 'Equals' }),
  item({ ID: 13, FID: 103, Prompt: 'Date', Type: 3, Condition: 'Range', MVAL: ['', ''] }),
  item({ ID: 14, FID: 104, Prompt: 'Amount', Type: 4, Condition: 'Equals' }),
  item({ ID: 15, FID: 105, Prompt: 'Department', Type: 1, Condition: 'Equals', ListID: 7, Prop: 64 }),
  item({ ID: 16, FID: 106, Prompt: 'Customer', Type: 1, Condition: 'Contains', ListID: 8 }),
  item({ ID: 17, FID: 107, Prompt: 'City', Type: 1, Condition: 'Equals', ListID: 9, Prop: 128 }),
  item({ ID: 18, FID: 108, Prompt: 'Tag', Type: 1, Condition: 'Equals', Prop: 32 }),
  item({ ID: 19, FID: 109, Prompt: 'Without notes', Type: 1, Condition: 'IsEmpty' }),
  item({ ID: 20, FID: 0, Prompt: '', Type: 0, Condition: 'Contains' }),
  item({ ID: 21, FID: 110, Prompt: 'Title', Type: 1, Condition: 'Contains' }),
];

describe('prompts', () => {
  it('classifies every prompt type', () => {
    const ps = collapsePrompts(detail);
    const by = Object.fromEntries(ps.map((p) => [p.label || 'content', p]));
    expect(by.Title).toMatchObject({ valueType: 'text', control: 'single', list: 'none', ids: [11, 21] });
    expect(by['Invoice Number']).toMatchObject({ valueType: 'number' });
    expect(by.Date).toMatchObject({ valueType: 'date', control: 'range' });
    expect(by.Amount).toMatchObject({ valueType: 'decimal' });
    expect(by.Department).toMatchObject({ list: 'fixed', listId: 7 });
    expect(by.Customer).toMatchObject({ list: 'typeahead', listId: 8 });
    expect(by.City).toMatchObject({ list: 'dynamic', fieldId: 107 });
    expect(by.Tag).toMatchObject({ control: 'multi' });
    expect(by['Without notes']).toMatchObject({ control: 'check', list: 'none' });
    expect(by.content).toMatchObject({ valueType: 'content', fieldId: 0 });
    expect(ps).toHaveLength(10);
    expect(promptForField(ps, 108)?.label).toBe('Tag');
    expect(promptForField(ps, null)).toBeUndefined();
  });

  it('collapses duplicate prompt text into one input feeding every ID, keeping unnamed prompts apart', () => {
    const ps = collapsePrompts([item({ ID: 1, Prompt: 'Name ' }), item({ ID: 2, Prompt: 'Other' }), item({ ID: 3, Prompt: 'Name' }), item({ ID: 4, Prompt: '' }), item({ ID: 5, Prompt: null })]);
    expect(ps.map((p) => p.ids)).toEqual([[1, 3], [2], [4], [5]]);
  });

  it('a prompt without a condition is Contains on one value', () => {
    expect(toPrompt(item({ Condition: undefined }))).toMatchObject({ condition: 'Contains', control: 'single' });
  });
});

describe('criteria', () => {
  const ps = collapsePrompts(detail);
  const key = (label: string) => ps.find((p) => p.label === label)!.key;
  const contentKey = ps.find((p) => p.valueType === 'content')!.key;

  it('builds SearchCriteria: empty inputs send nothing, duplicates feed all their IDs, wire formats', () => {
    const values: FormValues = {
      ...Object.fromEntries(ps.map((p) => [p.key, emptyValue()])),
      [key('Title')]: { ...emptyValue(), value: ' invoice ' },
      [key('Invoice Number')]: { ...emptyValue(), value: '-42' },
      [key('Date')]: { ...emptyValue(), value: '31.12.24', to: '' },
      [key('Amount')]: { ...emptyValue(), value: '12,5' },
      [key('Tag')]: { ...emptyValue(), values: ['a', '', 'b', ''] },
      [key('Without notes')]: { ...emptyValue(), checked: true },
      [contentKey]: { ...emptyValue(), value: 'budget' },
    };
    const built = buildCriteria(ps, values, de);
    expect(built.errors).toEqual({});
    expect(built.items).toEqual([
      { ID: 11, VAL: 'invoice' },
      { ID: 21, VAL: 'invoice' },
      { ID: 12, VAL: '-42' },
      { ID: 13, MVAL: ['2024-12-31', ''] },
      { ID: 14, VAL: '12.5' },
      { ID: 18, MVAL: ['a', 'b'] },
      { ID: 19 },
      { ID: 20, VAL: 'budget' },
    ]);
  });

  it('reports invalid dates, numbers and decimals per input', () => {
    const values: FormValues = {
      [key('Date')]: { ...emptyValue(), value: '02/30/2024' },
      [key('Invoice Number')]: { ...emptyValue(), value: '-' },
      [key('Amount')]: { ...emptyValue(), value: '.' },
    };
    expect(buildCriteria(ps, values, us).errors).toEqual({ [key('Date')]: 'date', [key('Invoice Number')]: 'number', [key('Amount')]: 'decimal' });
  });

  it('parses criteria back into the form (refine search), in the locale format', () => {
    const json = JSON.stringify([
      { ID: 21, VAL: 'x' },
      { ID: 13, MVAL: ['2024-01-02', '2024-02-03'] },
      { ID: 14, VAL: '3.25' },
      { ID: 18, MVAL: ['a', 'b'] },
      { ID: 19 },
    ]);
    const v = valuesFromCriteria(ps, parseCriteria(json), de);
    expect(v[key('Title')]!.value).toBe('x');
    expect(v[key('Date')]).toMatchObject({ value: '02.01.2024', to: '03.02.2024' });
    expect(v[key('Amount')]!.value).toBe('3,25');
    expect(v[key('Tag')]!.values).toEqual(['a', 'b', '']);
    expect(v[key('Without notes')]!.checked).toBe(true);
    expect(v[key('Department')]).toEqual(emptyValue());
    // And round-trips.
    expect(buildCriteria(ps, v, de).items).toEqual([
      { ID: 11, VAL: 'x' },
      { ID: 21, VAL: 'x' },
      { ID: 13, MVAL: ['2024-01-02', '2024-02-03'] },
      { ID: 14, VAL: '3.25' },
      { ID: 18, MVAL: ['a', 'b'] },
      { ID: 19 },
    ]);
  });

  it('reads numbers and nulls the contract allows in criteria', () => {
    expect(parseCriteria('[{"ID":1,"VAL":5},{"ID":2,"MVAL":["a",null]},{"ID":3,"VAL":null}]')).toEqual([{ ID: 1, VAL: '5' }, { ID: 2, MVAL: ['a', ''] }, { ID: 3 }]);
  });

  it('ignores criteria that are not valid JSON or not the contract', () => {
    expect(parseCriteria('not json')).toEqual([]);
    expect(parseCriteria('{"ID":1}')).toEqual([]);
    expect(parseCriteria(null)).toEqual([]);
  });

  it('opens with the saved defaults, IsEmpty / IsNotEmpty ticked as the server applies them', () => {
    const ps2 = collapsePrompts([
      item({ ID: 1, Prompt: 'When', Type: 3, VAL: '2024-05-06' }),
      item({ ID: 2, Prompt: 'Between', Type: 2, Condition: 'Range', MVAL: ['', ''] }),
      item({ ID: 3, Prompt: 'Has notes', Condition: 'IsNotEmpty' }),
    ]);
    const v = defaultValues(ps2, us);
    expect(v[ps2[0]!.key]!.value).toBe('05/06/2024');
    expect(v[ps2[1]!.key]).toEqual(emptyValue());
    expect(v[ps2[2]!.key]!.checked).toBe(true);
    expect(buildCriteria(ps2, v, us).items).toEqual([{ ID: 1, VAL: '2024-05-06' }, { ID: 3 }]);
  });

  it('multi-value rows always end with one empty entry', () => {
    expect(withTrailingEmpty([])).toEqual(['']);
    expect(withTrailingEmpty(['a'])).toEqual(['a', '']);
    expect(withTrailingEmpty(['a', ''])).toEqual(['a', '']);
  });
});

describe('records per page and addresses', () => {
  it('is 1 to 10000, else 10', () => {
    expect(clampRecordsPerPage('1')).toBe(1);
    expect(clampRecordsPerPage(' 10000 ')).toBe(10000);
    expect(clampRecordsPerPage('10001')).toBe(10);
    expect(clampRecordsPerPage('0')).toBe(10);
    expect(clampRecordsPerPage('-5')).toBe(10);
    expect(clampRecordsPerPage('2.5')).toBe(10);
    expect(clampRecordsPerPage('abc')).toBe(10);
    expect(clampRecordsPerPage('')).toBe(10);
    expect(clampRecordsPerPage(null)).toBe(10);
  });

  it('builds the results and refine addresses', () => {
    const criteria = [{ ID: 1, VAL: 'a b&c' }];
    const url = resultsUrl({ hash: 'h1', searchId: 3, db: 2, archive: 5, criteria, recordsPerPage: 25, time: 1700 });
    expect(url).toBe(`/results/h1?Id=3&db=2&archive=5&criteria=${encodeURIComponent(JSON.stringify(criteria))}&rpp=25&time=1700`);
    const u = new URL(url, 'http://x');
    expect(JSON.parse(u.searchParams.get('criteria')!)).toEqual(criteria);
    const r = new URL(refineUrl('view', 2, 3, criteria, 25), 'http://x');
    expect(r.pathname).toBe('/view');
    expect(Object.fromEntries(r.searchParams)).toEqual({ db: '2', search: '3', criteria: JSON.stringify(criteria), rpp: '25' });
  });
});
