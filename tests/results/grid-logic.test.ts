import { describe, expect, it } from 'vitest';
import {
  applyColumnState, buildColumns, buildRows, buildSortParam, lazyArray, checkPageSize, columnsToState, contentPromptIds, effectiveSort,
  fallbackPage, hasHitsMarker, isInvalidSortMessage, moveColumn, pagerWindow, parseSortParam, sortDocsLocally, totalPages,
} from '../../src/features/results/grid-logic';
import { archiveChoices, mergeArchiveCounts } from '../../src/features/results/archive-choices';

const titles = { hits: 'Hits', version: 'Version', thumb: 'Preview', check: '✓' };
const fields = [
  { ID: 1, Name: 'Title', Type: 1 },
  { ID: 2, Name: 'Amount', Type: 4 },
  { ID: 3, Name: 'Live', Type: 1, ExtendedConfig: { LiveField: true } },
  { ID: 4, Name: 'Date', Type: 3 },
];

describe('pager window', () => {
  it('shows the current page ± 2 inside 1..total, at most 5', () => {
    expect(pagerWindow(1, 10)).toEqual([1, 2, 3]);
    expect(pagerWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pagerWindow(10, 10)).toEqual([8, 9, 10]);
    expect(pagerWindow(1, 1)).toEqual([1]);
    expect(pagerWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pagerWindow(99, 4)).toEqual([2, 3, 4]);
    for (let p = 1; p <= 20; p++) expect(pagerWindow(p, 20).length).toBeLessThanOrEqual(5);
  });
  it('counts pages', () => {
    expect(totalPages(0, 25)).toBe(1);
    expect(totalPages(25, 25)).toBe(1);
    expect(totalPages(26, 25)).toBe(2);
    expect(totalPages(10_001, 10_000)).toBe(2);
  });
  it('falls back from an empty page while the search has results', () => {
    expect(fallbackPage(5, 0, 60, 25)).toBe(3);
    expect(fallbackPage(3, 0, 60, 25)).toBe(2);
    expect(fallbackPage(2, 0, 10, 25)).toBe(1);
    expect(fallbackPage(1, 0, 10, 25)).toBeNull();
    expect(fallbackPage(4, 25, 100, 25)).toBeNull();
    expect(fallbackPage(4, 0, 0, 25)).toBeNull();
  });
});

describe('page size', () => {
  it('accepts whole numbers from 1; above 10000 is a large page; others fall back', () => {
    expect(checkPageSize(25, 25)).toEqual({ ok: true, size: 25, large: false });
    expect(checkPageSize('10000', 25)).toEqual({ ok: true, size: 10000, large: false });
    expect(checkPageSize('10001', 25)).toEqual({ ok: true, size: 10001, large: true });
    expect(checkPageSize(0, 25)).toEqual({ ok: false, size: 25 });
    expect(checkPageSize(-5, 25)).toEqual({ ok: false, size: 25 });
    expect(checkPageSize('2.5', 25)).toEqual({ ok: false, size: 25 });
    expect(checkPageSize('abc', 25)).toEqual({ ok: false, size: 25 });
    expect(checkPageSize('', 25)).toEqual({ ok: false, size: 25 });
    expect(checkPageSize(null, 10)).toEqual({ ok: false, size: 10 });
  });
});

describe('sort parameter', () => {
  it('builds {fieldId}:asc|desc in priority order, HITS always desc', () => {
    expect(buildSortParam([])).toBe('');
    expect(buildSortParam([{ column: '3', direction: 'asc' }])).toBe('3:asc');
    expect(buildSortParam([{ column: 'HITS', direction: 'asc' }, { column: '2', direction: 'desc' }])).toBe('HITS:desc,2:desc');
  });
  it('parses what it builds and drops what the server would refuse', () => {
    expect(parseSortParam('HITS:desc,2:desc,7:asc')).toEqual([
      { column: 'HITS', direction: 'desc' },
      { column: '2', direction: 'desc' },
      { column: '7', direction: 'asc' },
    ]);
    expect(parseSortParam(' 4 : DESC , x:asc, 5:sideways, 4:asc, hits:asc, 6')).toEqual([
      { column: '4', direction: 'desc' },
      { column: 'HITS', direction: 'desc' },
      { column: '6', direction: 'asc' },
    ]);
    expect(parseSortParam(null)).toEqual([]);
  });
  it('adds a descending HITS sort with a hits marker, and only then', () => {
    expect(effectiveSort([{ column: '2', direction: 'asc' }], true)).toEqual([{ column: 'HITS', direction: 'desc' }, { column: '2', direction: 'asc' }]);
    expect(effectiveSort([], true)).toEqual([{ column: 'HITS', direction: 'desc' }]);
    expect(effectiveSort([{ column: 'HITS', direction: 'desc' }, { column: '2', direction: 'asc' }], false)).toEqual([{ column: '2', direction: 'asc' }]);
    expect(effectiveSort([{ column: '2', direction: 'asc' }, { column: 'HITS', direction: 'asc' }], true)).toEqual([{ column: '2', direction: 'asc' }, { column: 'HITS', direction: 'desc' }]);
  });
  it('recognises the invalid-sort answer', () => {
    expect(isInvalidSortMessage('Invalid search string, Sort field 99 does not exist')).toBe(true);
    expect(isInvalidSortMessage('Something else')).toBe(false);
    expect(isInvalidSortMessage(undefined)).toBe(false);
  });
});

describe('hits marker', () => {
  const detail = [{ ID: 11, FID: 0, Type: 0 }, { ID: 12, FID: 5, Type: 1 }];
  const ids = contentPromptIds(detail);
  it('is there when the content-search prompt has a non-empty VAL', () => {
    expect(ids).toEqual(new Set([11]));
    expect(hasHitsMarker(JSON.stringify([{ ID: 11, VAL: 'invoice' }, { ID: 12, VAL: 'x' }]), ids)).toBe(true);
    expect(hasHitsMarker(JSON.stringify([{ ID: 11, VAL: '  ' }]), ids)).toBe(false);
    expect(hasHitsMarker(JSON.stringify([{ ID: 12, VAL: 'x' }]), ids)).toBe(false);
    expect(hasHitsMarker(JSON.stringify([{ ID: 3, FID: 0, Type: 0, VAL: 'tax' }]))).toBe(true);
    expect(hasHitsMarker(JSON.stringify({ Detail: [{ ID: 3, Type: 0, VAL: 'tax' }] }))).toBe(true);
    expect(hasHitsMarker('not json', ids)).toBe(false);
    expect(hasHitsMarker('', ids)).toBe(false);
  });
});

describe('columns', () => {
  it('one column per field (not live fields), Hits and Version where they apply, default width 100', () => {
    const defs = buildColumns(fields, { hits: true, version: true, titles });
    expect(defs.map((d) => d.id)).toEqual(['check', 'THUMB', 'HITS', '1', '2', '4', 'VERSION']);
    const views = applyColumnState(defs, undefined);
    expect(views.every((v) => v.width === 100)).toBe(true);
    expect(buildColumns(fields, { hits: false, version: false, titles }).map((d) => d.id)).toEqual(['check', 'THUMB', '1', '2', '4']);
  });
  it('applies stored order, width (min 100), hidden and pinned; pinned go first after check/thumbnail', () => {
    const defs = buildColumns(fields, { hits: false, version: false, titles });
    const views = applyColumnState(defs, [
      { id: '4', order: 0, width: 60 },
      { id: '1', order: 1, hidden: true },
      { id: '2', order: 2, pinned: true, width: 180 },
    ]);
    expect(views.map((v) => v.id)).toEqual(['check', 'THUMB', '2', '4', '1']);
    expect(views.find((v) => v.id === '4')!.width).toBe(100);
    expect(views.find((v) => v.id === '2')!.width).toBe(180);
    expect(views.find((v) => v.id === '1')!.hidden).toBe(true);
    const state = columnsToState(views);
    expect(state).toEqual([
      { id: '2', width: 180, hidden: undefined, pinned: true, order: 0 },
      { id: '4', width: 100, hidden: undefined, pinned: undefined, order: 1 },
      { id: '1', width: 100, hidden: true, pinned: undefined, order: 2 },
    ]);
    expect(applyColumnState(defs, state).map((v) => v.id)).toEqual(views.map((v) => v.id));
    expect(moveColumn(views, '4', -1).map((v) => v.id)).toEqual(['check', 'THUMB', '4', '2', '1']);
    expect(moveColumn(views, '2', -1).map((v) => v.id)).toEqual(views.map((v) => v.id));
  });
  it('builds rows in visible column order', () => {
    const defs = buildColumns(fields, { hits: true, version: true, titles });
    const views = applyColumnState(defs, [{ id: '2', hidden: true }]);
    const docs = [{ Id: 7, Hash: 'h', Hits: 3, Version: '1.2', Fields: [{ ID: 1, VAL: 'A' }, { ID: 2, VAL: '9.5' }, { ID: 4, MVAL: ['x', 'y'] }] }];
    expect(buildRows(docs, views, new Set([7]))).toEqual([[true, 0, 3, 'A', 'x; y', '1.2']]);
  });
  it('sorts a whole result set locally like the server', () => {
    const docs = [
      { Id: 1, Hash: 'a', Fields: [{ ID: 2, VAL: '10' }, { ID: 1, VAL: 'b' }] },
      { Id: 2, Hash: 'b', Fields: [{ ID: 2, VAL: '9' }, { ID: 1, VAL: 'a' }] },
      { Id: 3, Hash: 'c', Fields: [{ ID: 2, VAL: '10' }, { ID: 1, VAL: 'a' }] },
    ];
    const types = new Map([[1, 1], [2, 2]]);
    expect(sortDocsLocally(docs, [{ column: '2', direction: 'desc' }, { column: '1', direction: 'asc' }], types).map((d) => d.Id)).toEqual([3, 1, 2]);
    expect(sortDocsLocally(docs, [{ column: '2', direction: 'asc' }], types).map((d) => d.Id)).toEqual([2, 1, 3]);
  });
});

describe('multi-archive list', () => {
  const list = mergeArchiveCounts([{ Id: 1, Name: 'A' }, { ID: 2, Name: 'B' }, { Id: 3, Name: 'C' }], [{ Id: 1, Count: 0 }, { Id: 2, Count: 5 }, { Id: 3, Count: 9 }]);
  it('sorts by count and hides empty ones when the settings say so', () => {
    expect(archiveChoices(list, { sortByCount: false, hideEmpty: false }).map((a) => a.id)).toEqual([1, 2, 3]);
    expect(archiveChoices(list, { sortByCount: true, hideEmpty: false }).map((a) => a.id)).toEqual([3, 2, 1]);
    expect(archiveChoices(list, { sortByCount: false, hideEmpty: true }).map((a) => a.id)).toEqual([2, 3]);
    expect(archiveChoices(list, { sortByCount: false, hideEmpty: true, keep: 1 }).map((a) => a.id)).toEqual([1, 2, 3]);
    expect(mergeArchiveCounts([{ Id: 1, Name: 'A' }], undefined)).toEqual([{ id: 1, name: 'A', count: null }]);
  });
});

describe('rows of a packed page', () => {
  it('gives the same rows and local sort as the documents themselves', async () => {
    const { packDocs, unpackDocs } = await import('../../src/features/results/packed-page');
    const docs = [
      { Id: 1, Hash: 'a', Hits: 2, Version: null, Fields: [{ ID: 5, VAL: '10' }, { ID: 6, VAL: 'b', MVAL: ['b', 'c'] }] },
      { Id: 2, Hash: 'b', Hits: 1, Version: '3', Fields: [{ ID: 5, VAL: '9' }, { ID: 6, VAL: null }] },
    ];
    const packed = unpackDocs(packDocs(docs)!);
    const cols = applyColumnState(buildColumns([{ ID: 5, Name: 'A', Type: 2 }, { ID: 6, Name: 'B', Type: 1 }, { ID: 7, Name: 'C', Type: 1 }], { hits: true, version: true, titles: { hits: 'H', version: 'V', thumb: 'T', check: 'C' } }), undefined);
    expect(buildRows(packed, cols, new Set([2]))).toEqual(buildRows(docs, cols, new Set([2])));
    const types = new Map([[5, 2], [6, 1]]);
    const sorts = [{ column: '5', direction: 'asc' as const }];
    expect(sortDocsLocally(packed, sorts, types).map((d) => d.Id)).toEqual(sortDocsLocally(docs, sorts, types).map((d) => d.Id));
  });
});

describe('rows made when read', () => {
  it('makes an item only when it is read, once, and reads like a plain array', () => {
    const made: number[] = [];
    const rows = lazyArray(4, (i) => {
      made.push(i);
      return [i, `r${i}`];
    });
    expect(rows.length).toBe(4);
    expect(Array.isArray(rows)).toBe(true);
    expect(made).toEqual([]);
    expect(rows[2]).toEqual([2, 'r2']);
    expect(rows[2]).toBe(rows[2]);
    expect(made).toEqual([2]);
    expect(rows[4]).toBeUndefined();
    expect(3 in rows && !(4 in rows)).toBe(true);
    expect(Object.keys(rows)).toEqual(['0', '1', '2', '3']);
    expect([...rows].map((r) => r[0])).toEqual([0, 1, 2, 3]);
    expect(rows.map((r) => r[1])).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(JSON.parse(JSON.stringify(rows))).toEqual([[0, 'r0'], [1, 'r1'], [2, 'r2'], [3, 'r3']]);
    expect(rows).toEqual([[0, 'r0'], [1, 'r1'], [2, 'r2'], [3, 'r3']]);
    expect(made.sort()).toEqual([0, 1, 2, 3]);
  });

  it('builds a 10,000-row page without making its rows', () => {
    const read = new Set<number>();
    const docs = Array.from({ length: 10_000 }, (_, i) => ({ Id: i, Hash: `h${i}`, get Fields() { read.add(i); return [{ ID: 5, VAL: `v${i}` }]; } }));
    const cols = applyColumnState(buildColumns([{ ID: 5, Name: 'A', Type: 1 }], { hits: false, version: false, titles: { hits: 'H', version: 'V', thumb: 'T', check: 'C' } }), undefined);
    const rows = buildRows(docs, cols, new Set([3]));
    expect(rows.length).toBe(10_000);
    expect(read.size).toBe(0);
    expect(rows[3]).toEqual([true, 3, 'v3']);
    expect(rows[9_999]).toEqual([false, 9_999, 'v9999']);
    expect([...read]).toEqual([3, 9_999]);
  });
});
