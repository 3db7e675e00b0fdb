import { describe, expect, it } from 'vitest';
import { documentLabelOf } from '../../src/fields/document-label';
import { canSeeHistory, filterByCategory, formatHistoryTime, historyMessage, historyMessageParts, historyPages, presentCategories } from '../../src/features/history/history-logic';
import { HISTORY_EVENT_KINDS } from '../../src/api/audit';
import { gridErrorText } from '../../src/features/results/use-grid-error';
import { ApiError } from '../../src/api/api-error';
import { documentThumbUrl as thumbUrl } from '../../src/api/documents';

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

describe('history sentences in the user language', () => {
  const en = (key: string, vars: Record<string, string | number>) => `${key}(${Object.entries(vars).map(([k, v]) => `${k}=${v}`).join(',')})`;
  it('builds the sentence from the entry parts, one per changed field, with its own wording for empty values', () => {
    const item = {
      Message: 'Field Status changed from New to Paid; Field Notes changed from (empty) to x; Field Title changed from a to (empty)',
      Event: { Kind: 'fields-changed', Changes: [{ Field: 'Status', Old: 'New', New: 'Paid' }, { Field: 'Notes', Old: '', New: 'x' }, { Field: 'Title', Old: 'a', New: '' }] },
    };
    expect(historyMessage(item, en)).toBe(
      'HISTORY_EVENT_FIELD_CHANGED(field=Status,old=New,new=Paid); HISTORY_EVENT_FIELD_SET(field=Notes,old=,new=x); HISTORY_EVENT_FIELD_CLEARED(field=Title,old=a,new=)',
    );
    expect(historyMessage({ Message: 'Stamp APPROVED applied on page 2', Event: { Kind: 'stamp-applied', Stamp: 'APPROVED', Page: 2 } }, en)).toBe('HISTORY_EVENT_STAMP_APPLIED(page=2,stamp=APPROVED)');
  });
  it("falls back to the server's sentence without parts or for a kind it does not know", () => {
    expect(historyMessage({ Message: 'Document viewed' }, en)).toBe('Document viewed');
    expect(historyMessage({ Message: 'Something new', Event: { Kind: 'teleported' } }, en)).toBe('Something new');
    expect(historyMessage({ Message: 'Index fields updated', Event: { Kind: 'fields-changed', Changes: [] } }, en)).toBe('Index fields updated');
  });
  it('every kind the server sends has a sentence', () => {
    for (const kind of HISTORY_EVENT_KINDS) expect(historyMessageParts({ Event: { Kind: kind, Changes: [{ Field: 'F', Old: 'a', New: 'b' }] } }), kind).not.toBeNull();
  });
  it('names a document by its first character field with a value, else its file name', () => {
    const fields = [{ ID: 2, Type: 2 }, { ID: 1, Type: 1 }, { ID: 5, Type: 1 }];
    expect(documentLabelOf({ Fields: [{ ID: 2, VAL: '42' }, { ID: 1, VAL: ' ' }, { ID: 5, VAL: 'Acme' }] }, fields)).toBe('Acme');
    expect(documentLabelOf({ FileName: 'scan.pdf', Fields: [] }, fields)).toBe('scan.pdf');
    expect(documentLabelOf({ Fields: [] }, [null, 'x'])).toBe('');
  });
});
