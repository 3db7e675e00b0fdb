/**
 * Rules of the history panels (user-app.md §3 History, archive-inbox-ops.md §3-§4): the category
 * filter, locale-formatted times, and the archive history's paging (25 a page).
 */
import { ARCHIVE_PERMISSIONS } from '../../api/archives';
import { HISTORY_CATEGORIES, type HistoryCategory } from '../../api/audit';
import { HISTORY_PAGE_SIZE } from '../../api/constants';

export { HISTORY_CATEGORIES };
export type CategoryFilter = HistoryCategory | 'all';

export function filterByCategory<T extends { Category?: string | null }>(items: readonly T[], filter: CategoryFilter): T[] {
  if (filter === 'all') return [...items];
  return items.filter((i) => i.Category === filter);
}

/** The categories present in a list, in the spec's order (the filter offers these). */
export function presentCategories(items: readonly { Category?: string | null }[]): HistoryCategory[] {
  const seen = new Set(items.map((i) => i.Category));
  return HISTORY_CATEGORIES.filter((c) => seen.has(c));
}

/** A wire time (ISO 8601) in the user's locale; the raw text when it does not parse. */
export function formatHistoryTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(d);
  } catch {
    return d.toISOString();
  }
}

export function historyPages(total: number, pageSize: number = HISTORY_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

/** History needs permission bit 512 (document rights, or the archive's for the archive panel). */
export function canSeeHistory(permissions: number | null | undefined): boolean {
  return ((permissions ?? 0) & ARCHIVE_PERMISSIONS.history) !== 0;
}
