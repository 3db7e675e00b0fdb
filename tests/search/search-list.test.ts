import { describe, expect, it } from 'vitest';
import type { Search } from '../../src/api/search';
import { defaultSearch, searchArchiveIds, selectedSearchId, shownSearches } from '../../src/features/search/search-list';

const s = (Id: number, Settings: number, extra: Record<string, unknown> = {}): Search => ({ Id, Name: `S${Id}`, Settings, ...extra }) as Search;

describe('search list', () => {
  const all = [s(1, 4), s(2, 0), s(3, 4 | 8), s(4, 8), s(5, 4)];

  it('shows Settings bit 4 and picks the default (bit 8) among them', () => {
    expect(shownSearches(all).map((x) => x.Id)).toEqual([1, 3, 5]);
    expect(defaultSearch(shownSearches(all))?.Id).toBe(3);
    expect(defaultSearch(shownSearches([s(1, 4), s(4, 8)]))).toBeUndefined();
  });

  it('selects the search in the address when the database has it, else the default', () => {
    expect(selectedSearchId(all, 5)).toBe(5);
    expect(selectedSearchId(all, 2)).toBe(2);
    expect(selectedSearchId(all, 99)).toBe(3);
    expect(selectedSearchId(all, null)).toBe(3);
    expect(selectedSearchId([s(1, 4)], null)).toBeNull();
  });

  it('runs over the archives the user may open (ArchiveList)', () => {
    expect(searchArchiveIds({ ArchiveList: [{ Id: 8, Name: 'b', Parent: null, Props: 0, Permissions: 1 }, { Id: 7, Name: 'a', Parent: null, Props: 0, Permissions: 1 }] })).toEqual([8, 7]);
    expect(searchArchiveIds({ ArchiveList: [] })).toEqual([]);
  });
});
