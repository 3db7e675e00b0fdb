/** Pure rules of the inbox screen (src/features/inbox/inbox-logic.ts). */
import { describe, expect, it } from 'vitest';
import { canChangeInbox, inboxHref, inboxPageSize, inboxRows, parseInboxSort, readCollapsed, sortParam, splitZeroByte, writeCollapsed, SIDEBAR_KEY } from '../../src/features/inbox/inbox-logic';

describe('inbox logic', () => {
  it('reads the sort from the address, keeping known columns once, and writes it back', () => {
    expect(parseInboxSort('filename:DESC,DateModified,FileName:asc,Size:asc,FileType:up')).toEqual([
      { column: 'FileName', direction: 'desc' },
      { column: 'DateModified', direction: 'asc' },
    ]);
    expect(sortParam(parseInboxSort('DateCreated:desc,FileName:asc'))).toBe('DateCreated:desc,FileName:asc');
    expect(parseInboxSort(null)).toEqual([]);
  });

  it('takes a page size of 1..10000 from the address, else the default 25', () => {
    expect(inboxPageSize('50')).toBe(50);
    expect(inboxPageSize('5')).toBe(5);
    for (const bad of [null, '', '0', '-3', '10001', '2.5', 'x']) expect(inboxPageSize(bad)).toBe(25);
  });

  it('makes grid rows with the four fixed columns in order and the dates formatted', () => {
    const rows = inboxRows([{ FileName: 'a.pdf', FileType: 'PDF', DateCreated: '2026-01-02T03:04:05.000Z', DateModified: null, Permissions: 5 }], (iso) => (iso ? iso.slice(0, 10) : ''));
    expect(rows[0]).toMatchObject({ Id: 1, FileName: 'a.pdf', Permissions: 5, Fields: [{ ID: 1, VAL: 'a.pdf' }, { ID: 2, VAL: 'PDF' }, { ID: 3, VAL: '2026-01-02' }, { ID: 4, VAL: '' }] });
    expect(inboxHref(1, 2)).toBe('/results/Inbox?db=1&inboxId=2');
  });

  it('changes need edit (4) and a licence other than the read-only one', () => {
    expect(canChangeInbox(5, 1)).toBe(true);
    expect(canChangeInbox(1, 1)).toBe(false);
    expect(canChangeInbox(5, 4)).toBe(false);
    expect(canChangeInbox(undefined, 1)).toBe(false);
  });

  it('refuses empty files by name and keeps the rest', () => {
    expect(splitZeroByte([{ name: 'a.pdf', size: 10 }, { name: 'empty.tif', size: 0 }])).toEqual({ send: [{ name: 'a.pdf', size: 10 }], empty: ['empty.tif'] });
  });

  it('remembers the sidebar collapsed in storage, and survives a storage that throws', () => {
    const store = new Map<string, string>();
    const s = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(readCollapsed(s)).toBe(false);
    expect(readCollapsed(s, true)).toBe(true);
    writeCollapsed(s, false);
    expect(readCollapsed(s, true)).toBe(false);
    writeCollapsed(s, true);
    expect(store.get(SIDEBAR_KEY)).toBe('1');
    expect(readCollapsed(s)).toBe(true);
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readCollapsed(broken)).toBe(false);
    expect(() => writeCollapsed(broken, true)).not.toThrow();
  });
});
