/**
 * Which saved searches the list shows and which one opens first (the user-app spec §3: Settings bit 4
 * shown in the list; the archive-ops spec §3: Settings bit 8 the default search).
 */
import type { Search, SearchDetail } from '../../api/search';

export const SEARCH_SETTING_BITS = { shownInList: 4, defaultSearch: 8 } as const;

export function shownSearches(all: readonly Search[]): Search[] {
  return all.filter((s) => ((s.Settings ?? 0) & SEARCH_SETTING_BITS.shownInList) !== 0);
}

export function isDefaultSearch(s: Pick<Search, 'Settings'>): boolean {
  return ((s.Settings ?? 0) & SEARCH_SETTING_BITS.defaultSearch) !== 0;
}

/** The default among the shown searches (the first, if several carry bit 8). */
export function defaultSearch(shown: readonly Search[]): Search | undefined {
  return shown.find(isDefaultSearch);
}

/**
 * Which search is selected: the one in the address (refine search; it may be one the list does not
 * show) if the database has it, else the default.
 */
export function selectedSearchId(all: readonly Search[], fromAddress: number | null): number | null {
  if (fromAddress !== null && all.some((s) => s.Id === fromAddress)) return fromAddress;
  const shown = shownSearches(all);
  return defaultSearch(shown)?.Id ?? null;
}

/** The archives a search runs over that the user may open (ArchiveList), in search order. */
export function searchArchiveIds(s: Pick<SearchDetail, 'ArchiveList'>): number[] {
  return s.ArchiveList.map((a) => a.Id);
}
