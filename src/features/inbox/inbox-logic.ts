/**
 * Pure rules of the inbox screen (the user-app spec §2-3, §9; the archive-ops spec §3-5): the fixed
 * columns and the sort they map to, inbox files as the rows the results grid takes, the page sizes,
 * the address of an inbox page, the sidebar's remembered state, and the files a drop may upload.
 * No React, no Dexie: unit-tested in tests/inbox/inbox-logic.test.ts.
 */
import { INBOX_PAGE_DEFAULTS, INBOX_PAGE_MAX, INBOX_RIGHTS, INBOX_SORT_COLUMNS, type InboxDocument, type InboxSortColumn } from '../../api/inboxes';

/** The grid's column ids for the fixed columns: the sort column names themselves. */
export const INBOX_COLUMNS: readonly { id: InboxSortColumn; titleKey: 'INBOX_FILE_NAME' | 'INBOX_FILE_FORMAT' | 'INBOX_DATE_CREATED' | 'INBOX_DATE_MODIFIED' }[] = [
  { id: 'FileName', titleKey: 'INBOX_FILE_NAME' },
  { id: 'FileType', titleKey: 'INBOX_FILE_FORMAT' },
  { id: 'DateCreated', titleKey: 'INBOX_DATE_CREATED' },
  { id: 'DateModified', titleKey: 'INBOX_DATE_MODIFIED' },
];
/** Inbox page sizes (the archive-ops spec §9): default 25. */
export const INBOX_PAGE_SIZES: readonly number[] = [25, 50, 100, 1000, 10000];

export interface InboxSort {
  column: InboxSortColumn;
  direction: 'asc' | 'desc';
}

/** The `sort` parameter of the page call. */
export const sortParam = (s: readonly InboxSort[]): string => s.map((x) => `${x.column}:${x.direction}`).join(',');

/** A sort from the address (`FileName:asc,...`); unknown columns and directions are dropped. */
export function parseInboxSort(raw: string | null | undefined): InboxSort[] {
  if (!raw) return [];
  const out: InboxSort[] = [];
  for (const part of raw.split(',')) {
    const [c = '', d = 'asc'] = part.split(':');
    const column = INBOX_SORT_COLUMNS.find((x) => x.toLowerCase() === c.trim().toLowerCase());
    const direction = d.trim().toLowerCase();
    if (column && (direction === 'asc' || direction === 'desc') && !out.some((x) => x.column === column)) out.push({ column, direction });
  }
  return out;
}

/** A page size from the address: a whole number 1..INBOX_PAGE_MAX (the server's bound), else the default 25. */
export function inboxPageSize(raw: string | null | undefined): number {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 && n <= INBOX_PAGE_MAX ? n : INBOX_PAGE_DEFAULTS.numberOfDocuments;
}

/** /results/Inbox?db=&inboxId= (the user-app spec §2). */
export const inboxHref = (db: number, inboxId: number) => `/results/Inbox?db=${db}&inboxId=${inboxId}`;

/** An inbox file as the results grid's row: Id is its place on the page, the fixed columns as fields 1-4. */
export interface InboxRow {
  Id: number;
  Hash: string;
  FileName: string;
  Permissions?: number;
  Fields: { ID: number; VAL: string }[];
  file: InboxDocument;
}
export function inboxRows(files: readonly InboxDocument[], formatDate: (iso: string | null | undefined) => string): InboxRow[] {
  return files.map((f, i) => ({
    Id: i + 1,
    Hash: f.Path ?? f.FileName,
    FileName: f.FileName,
    ...(f.Permissions !== undefined ? { Permissions: f.Permissions } : {}),
    Fields: [
      { ID: 1, VAL: f.FileName },
      { ID: 2, VAL: f.FileType ?? '' },
      { ID: 3, VAL: formatDate(f.DateCreated) },
      { ID: 4, VAL: formatDate(f.DateModified) },
    ],
    file: f,
  }));
}

/** Whether the user may change the inbox's files: edit (4), and not the read-only licence (type 4). */
export const canChangeInbox = (rights: number | undefined, licenceType: number | undefined) => ((rights ?? 0) & INBOX_RIGHTS.edit) !== 0 && licenceType !== 4;

/** Files dropped or picked: the empty ones are refused by name (ZERO_BYTE_FILE_REMOVED_MSG), the rest go. */
export function splitZeroByte<T extends { name: string; size: number }>(files: readonly T[]): { send: T[]; empty: string[] } {
  return { send: files.filter((f) => f.size > 0), empty: files.filter((f) => f.size === 0).map((f) => f.name) };
}

/** localStorage key of the sidebar's collapsed state (the user-app spec §2: remembered locally). */
export const SIDEBAR_KEY = 'inboxSidebarCollapsed';
/** The remembered state; `fallback` until the user has chosen one on this device. */
export function readCollapsed(storage: Pick<Storage, 'getItem'> | undefined, fallback = false): boolean {
  try {
    const v = storage?.getItem(SIDEBAR_KEY);
    return v === '1' ? true : v === '0' ? false : fallback;
  } catch {
    return fallback;
  }
}
export function writeCollapsed(storage: Pick<Storage, 'setItem'> | undefined, collapsed: boolean): void {
  try {
    storage?.setItem(SIDEBAR_KEY, collapsed ? '1' : '0');
  } catch {
    // Storage refused (private mode, quota): the state lasts for this page only.
  }
}
