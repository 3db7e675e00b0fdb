import { describe, expect, it } from 'vitest';
import { canSeeHistory, filterByCategory, formatHistoryTime, historyPages, presentCategories } from '../../src/features/history/history-logic';
import { gridErrorText } from '../../src/features/results/use-grid-error';
import { ApiError } from '../../src/api/api-error';
import { thumbUrl } from '../../src/features/results/thumb-url';

describe('history', () => {
  const items = [
    { Time: '2026-01-05T09:00:00.000Z', Category: 'viewed' },
    { Time: '2026-01-04T09:00:00.000Z', Category: 'updated' },
    { Time: '2026-01-03T09:00:00.000Z', Category: 'viewed' },
  ];
  it('filters by category', () => {
    expect(filterByCategory(items, 'all')).toHaveLength(3);
    expect(filterByCategory(items, 'viewed')).toHaveLength(2);
    expect(filterByCategory(items, 'moved')).toHaveLength(0);
    expect(presentCategories(items)).toEqual(['updated', 'viewed']);
  });
  it('formats times by locale', () => {
    const en = formatHistoryTime('2026-01-05T09:00:00.000Z', 'en-GB');
    const de = formatHistoryTime('2026-01-05T09:00:00.000Z', 'de');
    expect(en).toMatch(/2026/);
    expect(de).toMatch(/2026/);
    expect(en).not.toBe(de);
    expect(formatHistoryTime('yesterday', 'en')).toBe('yesterday');
  });
  it('pages the archive history at 25 and needs bit 512', () => {
    expect(historyPages(0)).toBe(1);
    expect(historyPages(25)).toBe(1);
    expect(historyPages(26)).toBe(2);
    expect(canSeeHistory(512 | 1)).toBe(true);
    expect(canSeeHistory(1024)).toBe(false);
    expect(canSeeHistory(undefined)).toBe(false);
  });
});

describe('grid errors', () => {
  const t = (k: string) => k;
  it('maps the catalogue rows', () => {
    const http = (status: number, serverMessage?: string) => new ApiError({ kind: 'http', method: 'GET', url: '/x', status, statusText: 'x', serverMessage });
    expect(gridErrorText(http(400, 'Invalid search string, Sort field 9'), t)).toEqual({ kind: 'invalidSort' });
    expect(gridErrorText(http(404), t)).toEqual({ kind: 'show', text: 'ERROR_GRID_QUERY' });
    expect(gridErrorText(http(500), t)).toEqual({ kind: 'show', text: 'ERROR_GRID_UNKNOWN' });
    expect(gridErrorText(http(500, 'Disk full'), t)).toEqual({ kind: 'show', text: 'Disk full' });
    expect(gridErrorText(http(402), t)).toEqual({ kind: 'handler' });
    expect(gridErrorText(null, t)).toBeNull();
  });
});

describe('thumbnail address', () => {
  it('carries SecureId, size, page and the token as a query parameter', () => {
    const u = new URL(thumbUrl({ baseUrl: 'https://a.example/', token: 'T0K', db: 1, archiveId: 2, docId: 3, hash: 'abc', width: 150, height: 150 }));
    expect(u.pathname).toBe('/api/dbs/1/archives/2/documents/3/thumb');
    expect(Object.fromEntries(u.searchParams)).toEqual({ SecureId: 'abc', Height: '150', Width: '150', Page: '1', token: 'T0K' });
  });
});
