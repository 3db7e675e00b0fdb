/**
 * Rules of the history panels (the user-app spec §3 History, the archive-ops spec §3-§4): the category
 * filter, locale-formatted times, the archive history's paging (25 a page), the entries' sentences
 * in the user's language (the name of the document a history belongs to: src/fields/document-label.ts).
 */
import { ARCHIVE_PERMISSIONS } from '../../api/archives';
import { HISTORY_CATEGORIES, type HistoryCategory, type HistoryEvent, type HistoryEventKind } from '../../api/audit';
import { HISTORY_PAGE_SIZE } from '../../api/constants';
import type { TranslationKey } from '../../i18n/resources';

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

/** One sentence to translate: its key and the values of its {{placeholders}}. */
export interface MessagePart {
  key: TranslationKey;
  vars: Record<string, string | number>;
}

const EVENT_KEYS: Record<Exclude<HistoryEventKind, 'fields-changed'>, TranslationKey> = {
  indexed: 'HISTORY_EVENT_INDEXED',
  'moved-from-parent': 'HISTORY_EVENT_MOVED_FROM_PARENT',
  'version-checked-in': 'HISTORY_EVENT_VERSION_CHECKED_IN',
  viewed: 'HISTORY_EVENT_VIEWED',
  'index-updated': 'HISTORY_EVENT_INDEX_UPDATED',
  'annotation-added': 'HISTORY_EVENT_ANNOTATION_ADDED',
  'stamp-applied': 'HISTORY_EVENT_STAMP_APPLIED',
  exported: 'HISTORY_EVENT_EXPORTED',
  'exported-pdf': 'HISTORY_EVENT_EXPORTED_PDF',
  'exported-csv': 'HISTORY_EVENT_EXPORTED_CSV',
  printed: 'HISTORY_EVENT_PRINTED',
  emailed: 'HISTORY_EVENT_EMAILED',
  'attached-to-email': 'HISTORY_EVENT_ATTACHED_TO_EMAIL',
  'notification-sent': 'HISTORY_EVENT_NOTIFICATION_SENT',
  'checked-out': 'HISTORY_EVENT_CHECKED_OUT',
  'checked-in': 'HISTORY_EVENT_CHECKED_IN',
  'converted-pdf': 'HISTORY_EVENT_CONVERTED_PDF',
  published: 'HISTORY_EVENT_PUBLISHED',
  unpublished: 'HISTORY_EVENT_UNPUBLISHED',
  'page-appended': 'HISTORY_EVENT_PAGE_APPENDED',
  'page-deleted': 'HISTORY_EVENT_PAGE_DELETED',
  'copied-to': 'HISTORY_EVENT_COPIED_TO',
  'page-replaced': 'HISTORY_EVENT_PAGE_REPLACED',
  'copied-from': 'HISTORY_EVENT_COPIED_FROM',
  'moved-from': 'HISTORY_EVENT_MOVED_FROM',
  'document-deleted': 'HISTORY_EVENT_DOCUMENT_DELETED',
  'document-appended': 'HISTORY_EVENT_DOCUMENT_APPENDED',
  'page-rotated': 'HISTORY_EVENT_PAGE_ROTATED',
  'annotation-changed': 'HISTORY_EVENT_ANNOTATION_CHANGED',
  'annotation-deleted': 'HISTORY_EVENT_ANNOTATION_DELETED',
};

/**
 * The sentences of a history entry, built from its parts (Event) so that they read in the user's
 * language; null when the entry has no parts this client knows (then the server's Message is shown).
 * A field change from or to an empty value has its own sentence rather than an English "(empty)".
 */
export function historyMessageParts(item: { Event?: HistoryEvent | null }): MessagePart[] | null {
  const e = item.Event;
  if (!e) return null;
  if (e.Kind === 'fields-changed') {
    if (!e.Changes?.length) return null;
    return e.Changes.map((c) => ({
      key: c.Old === '' ? 'HISTORY_EVENT_FIELD_SET' : c.New === '' ? 'HISTORY_EVENT_FIELD_CLEARED' : 'HISTORY_EVENT_FIELD_CHANGED',
      vars: { field: c.Field, old: c.Old, new: c.New },
    }));
  }
  const key = (EVENT_KEYS as Record<string, TranslationKey | undefined>)[e.Kind];
  if (!key) return null;
  const vars: Record<string, string | number> = {};
  if (e.Page !== undefined) vars.page = e.Page;
  if (e.Count !== undefined) vars.count = e.Count;
  if (e.Angle !== undefined) vars.angle = e.Angle;
  for (const [k, v] of [['version', e.Version], ['stamp', e.Stamp], ['address', e.Address], ['inbox', e.Inbox], ['archive', e.Archive]] as const) {
    if (v !== undefined) vars[k] = v;
  }
  return [{ key, vars }];
}

/** An entry's text in the user's language: its parts through `t`, else the server's sentence. */
export function historyMessage(item: { Message: string; Event?: HistoryEvent | null }, t: (key: TranslationKey, vars: Record<string, string | number>) => string): string {
  const parts = historyMessageParts(item);
  return parts ? parts.map((p) => t(p.key, p.vars)).join('; ') : item.Message;
}
