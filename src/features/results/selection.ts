/**
 * The documents the user has checked in a results grid (the `check` column). Pure functions over an
 * immutable value, kept in the results screen's state (memory only: a selection is for the action at
 * hand, not for a later visit).
 *
 * The selection survives paging, page size and sort: it holds records (Id, Hash, archive, a title for
 * the tray), not this page's row numbers, so documents checked on pages 1, 2 and 3 are acted on
 * together. It belongs to one scope (database, search, archive, criteria and view tab): another scope
 * starts empty (the user-app spec §2: changing tab resets the selection). The header checkbox stands for
 * this page's rows only.
 */
export interface SelectedDoc {
  id: number;
  /** The document's Hash (SecureId of the operation calls). */
  hash: string;
  archiveId: number;
  /** How the user knows it (the tray names documents by it). */
  title?: string;
}

export interface Selection {
  scope: string;
  /** By `${archiveId}|${id}`, in the order they were checked. */
  docs: ReadonlyMap<string, SelectedDoc>;
}

export interface SelectionScope {
  db: number;
  searchId: number;
  archiveId: number;
  criteria: string;
  tab: number | null;
}

export const selectionScope = (s: SelectionScope): string => JSON.stringify([s.db, s.searchId, s.archiveId, s.criteria, s.tab]);

const EMPTY_DOCS: ReadonlyMap<string, SelectedDoc> = new Map();
export const emptySelection = (scope = ''): Selection => ({ scope, docs: EMPTY_DOCS });

const keyOf = (d: Pick<SelectedDoc, 'archiveId' | 'id'>): string => `${d.archiveId}|${d.id}`;

/** The selection as seen from `scope`: empty when it was made in another one. */
export const inScope = (sel: Selection, scope: string): Selection => (sel.scope === scope ? sel : emptySelection(scope));

export function isSelected(sel: Selection, doc: Pick<SelectedDoc, 'archiveId' | 'id'>): boolean {
  return sel.docs.has(keyOf(doc));
}

/** Checks or unchecks one document (in `scope`; a selection of another scope is dropped first). */
export function toggleDoc(sel: Selection, scope: string, doc: SelectedDoc): Selection {
  const docs = new Map(inScope(sel, scope).docs);
  const k = keyOf(doc);
  if (docs.has(k)) docs.delete(k);
  else docs.set(k, { ...doc });
  return { scope, docs };
}

/** The header checkbox: checks every row of this page, or unchecks them; other pages' stay. */
export function setPageChecked(sel: Selection, scope: string, page: readonly SelectedDoc[], checked: boolean): Selection {
  const docs = new Map(inScope(sel, scope).docs);
  for (const d of page) {
    if (checked) {
      if (!docs.has(keyOf(d))) docs.set(keyOf(d), { ...d });
    } else docs.delete(keyOf(d));
  }
  return { scope, docs };
}

/** Whether every row of this page is checked (the header checkbox's state); false for an empty page. */
export function pageAllChecked(sel: Selection, page: readonly Pick<SelectedDoc, 'archiveId' | 'id'>[]): boolean {
  return page.length > 0 && page.every((d) => sel.docs.has(keyOf(d)));
}

/** This page's checked document ids (the grid's check column). */
export function checkedOnPage(sel: Selection, page: readonly Pick<SelectedDoc, 'archiveId' | 'id'>[]): ReadonlySet<number> {
  return new Set(page.filter((d) => sel.docs.has(keyOf(d))).map((d) => d.id));
}

/** Drops documents that are gone (moved or deleted by a job that ended). Same object when none was selected. */
export function removeDocs(sel: Selection, gone: readonly Pick<SelectedDoc, 'archiveId' | 'id'>[]): Selection {
  if (!gone.some((d) => sel.docs.has(keyOf(d)))) return sel;
  const docs = new Map(sel.docs);
  for (const d of gone) docs.delete(keyOf(d));
  return { scope: sel.scope, docs };
}

/** The selected documents in the order they were checked. */
export const selectedDocs = (sel: Selection): SelectedDoc[] => [...sel.docs.values()];
