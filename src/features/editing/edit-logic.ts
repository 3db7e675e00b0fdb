/**
 * Pure rules of index editing in the results grid (user-app.md §4 "Grid", §5 "Cell editing", §6;
 * archive-inbox-ops.md §4 "Editing mode", "Multi-value fields"). No React, no Dexie: unit-tested in
 * tests/editing/edit-logic.test.ts.
 *
 * What is kept: the dirty rows, in memory (use-grid-editing.ts holds them in React state): per
 * document a snapshot of what a save needs (Hash, archive, Rev, a label) and per edited field the
 * text as typed, how the cell shows it, the wire value when it is valid, or the error when it is not.
 * Nothing is written anywhere until Save: then one outbox entry per dirty document (enqueueFieldEdit).
 */
import type { Field } from '../../api/archives';
import { FieldDataResult } from '../../api/documents';
import type { OutboxEntry, OutboxState } from '../../db/db';
import { FIELD_NOT_IN_LIST_KEY } from '../../fields/codes';
import { canEditRow, gridFields, isCellEditable, READ_ONLY_LICENCE_TYPE } from '../../fields/editability';
import { formatWireValue } from '../../fields/masks';
import { compactMultiValue } from '../../fields/multi-value';
import { FIELD_TYPE, isMultiField, validateFieldValue, validateValue } from '../../fields/rules';
import { FIELD_DATA_KIND, outboxTarget, type FieldEdit } from '../outbox/outbox';

/** What editing reads of a field (the result set's FieldList entries fit). */
export type EditField = Pick<Field, 'ID' | 'Name' | 'Type'> &
  Partial<Pick<Field, 'Size' | 'Mask' | 'RegEx' | 'Prop' | 'MultiValue' | 'Parent' | 'List' | 'ExtendedConfig'>>;

/** What editing reads of a document of the page. */
export interface EditDoc {
  Id: number;
  Hash: string;
  ArchiveId?: number;
  Archive?: number;
  FileName?: string | null;
  Permissions?: number;
  Rev?: number;
  Fields: readonly { ID: number; VAL?: string | null; MVAL?: readonly string[] | null }[];
}

export interface WireValue {
  VAL: string;
  MVAL?: string[];
}

export interface CellError {
  /** i18n key (FIELD_*). */
  key: string;
  /** A literal message that wins over the key (a RegEx's own text). */
  message?: string;
}

export interface DirtyCell {
  /** As typed (the editor reopens with it). */
  text: string;
  /** How the cell shows it: masked when valid (masks apply on blur), as typed when not. */
  display: string;
  /** The value for the wire; null when invalid. */
  wire: WireValue | null;
  error?: CellError;
}

export interface DirtyRow {
  docId: number;
  archiveId: number;
  hash: string;
  /** The document's Rev as the page showed it when the row was first edited. */
  rev: number | null;
  title: string;
  cells: ReadonlyMap<number, DirtyCell>;
}

/** Dirty rows by document id. */
export type DirtyRows = ReadonlyMap<number, DirtyRow>;
export const NO_DIRTY: DirtyRows = new Map();

// --- locale ----------------------------------------------------------------------------------


// --- who may edit ----------------------------------------------------------------------------

export interface EditScope {
  licenceType: number | null | undefined;
  /** False when the result set has live fields (user-app.md §5). */
  editAllowed: boolean;
  isInbox?: boolean;
}

export const editAllowedFor = (fields: readonly Pick<Field, 'ExtendedConfig'>[]): boolean => gridFields(fields).editAllowed;

/** May this row be edited at all (licence, the row's edit bit, live fields)? */
export function rowEditable(doc: Pick<EditDoc, 'Permissions'>, scope: EditScope): boolean {
  return scope.editAllowed && canEditRow({ licenceType: scope.licenceType, rowPermissions: doc.Permissions, isInbox: !!scope.isInbox });
}

/** The Edit toggle is shown when the licence is not read-only and at least one row of the page can be edited. */
export function showEditToggle(docs: readonly Pick<EditDoc, 'Permissions'>[], scope: EditScope): boolean {
  if (scope.licenceType === READ_ONLY_LICENCE_TYPE || !scope.editAllowed) return false;
  return docs.some((d) => rowEditable(d, scope));
}

/** One cell: edit mode on, the row editable, the field without read-only bits. */
export function cellEditable(editMode: boolean, doc: Pick<EditDoc, 'Permissions'>, field: Pick<EditField, 'Prop'>, scope: EditScope): boolean {
  return (
    scope.editAllowed &&
    isCellEditable({ editMode, rowPermissions: doc.Permissions, isInbox: !!scope.isInbox, licenceType: scope.licenceType, fieldProp: field.Prop })
  );
}

// --- values ----------------------------------------------------------------------------------

export const isDropdownField = (f: Pick<EditField, 'Prop' | 'List'>): boolean => ((f.Prop ?? 0) & 64) !== 0 && !!f.List;

/** A document's current value of a field (VAL, MVAL for multi-value fields). */
export function originalValue(doc: EditDoc, fieldId: number): WireValue {
  const f = doc.Fields.find((x) => x.ID === fieldId);
  return { VAL: f?.VAL ?? '', ...(f?.MVAL ? { MVAL: [...f.MVAL] } : {}) };
}

/** The grid's cell text of a value (multi-values joined, as grid-logic.ts fieldValue). */
export const cellText = (v: { VAL?: string | null; MVAL?: readonly string[] | null }): string => (v.MVAL && v.MVAL.length ? v.MVAL.join('; ') : (v.VAL ?? ''));

/** Multi-value text as typed in a cell: entries separated by ';'. */
export const splitEntries = (text: string): string[] => text.split(';').map((s) => s.trim());

function sameValue(field: EditField, a: WireValue, b: WireValue): boolean {
  if (isMultiField(field)) return JSON.stringify(compactMultiValue(a.MVAL ?? (a.VAL ? [a.VAL] : []))) === JSON.stringify(compactMultiValue(b.MVAL ?? (b.VAL ? [b.VAL] : [])));
  return a.VAL === b.VAL;
}

/**
 * Judges what the user typed (a text, or a multi-value field's entries) with the field rules in the
 * app's locale. `listItems`: a fixed list's items when known (a value outside them is refused).
 */
export function evaluateInput(field: EditField, input: string | readonly string[], locale: string, listItems?: readonly string[] | null): DirtyCell {
  if (isMultiField(field)) {
    const entries = compactMultiValue(typeof input === 'string' ? splitEntries(input) : input);
    const text = entries.join('; ');
    const r = validateFieldValue(field, { MVAL: entries }, locale);
    if (r.code !== 0) return { text, display: text, wire: null, error: { key: r.key ?? 'FIELD_INVALID_NUMBER', ...(r.message ? { message: r.message } : {}) } };
    const mval = r.normalizedMVAL ?? [];
    return { text, display: mval.map((v) => formatWireValue(field, v, locale)).join('; '), wire: { VAL: mval[0] ?? '', MVAL: mval } };
  }
  const text = typeof input === 'string' ? input : (input[0] ?? '');
  const r = validateValue(field, text, locale);
  if (r.code !== 0) return { text, display: text, wire: null, error: { key: r.key ?? 'FIELD_INVALID_NUMBER', ...(r.message ? { message: r.message } : {}) } };
  const wire = r.normalized ?? '';
  if (listItems && isDropdownField(field) && wire !== '' && !listItems.includes(wire)) return { text, display: text, wire: null, error: { key: FIELD_NOT_IN_LIST_KEY } };
  const display = field.Type === FIELD_TYPE.character ? wire : formatWireValue(field, wire, locale);
  return { text, display, wire: { VAL: wire } };
}

/** A document label for the tray: its first non-empty character field, else the file name, else #id. */
export function documentLabel(doc: EditDoc, fields: readonly EditField[]): string {
  for (const f of fields) {
    if (f.Type !== FIELD_TYPE.character) continue;
    const v = cellText(originalValue(doc, f.ID)).trim();
    if (v) return v;
  }
  return doc.FileName?.trim() || `#${doc.Id}`;
}

export const docArchiveId = (doc: Pick<EditDoc, 'ArchiveId' | 'Archive'>, fallback: number): number => doc.ArchiveId ?? doc.Archive ?? fallback;

// --- the dirty-row store ---------------------------------------------------------------------

export interface SetCellInput {
  doc: EditDoc;
  field: EditField;
  input: string | readonly string[];
  locale: string;
  /** The searched archive: used when the document does not name its own. */
  archiveId: number;
  title: string;
  listItems?: readonly string[] | null;
}

/**
 * The store with one cell edited. A valid value equal to the document's own value is not dirty (the
 * cell is dropped, and the row when it has no cell left); an invalid one always is.
 */
export function setDirtyCell(rows: DirtyRows, c: SetCellInput): DirtyRows {
  const cell = evaluateInput(c.field, c.input, c.locale, c.listItems);
  const prev = rows.get(c.doc.Id);
  const cells = new Map(prev?.cells ?? []);
  if (cell.wire && sameValue(c.field, cell.wire, originalValue(c.doc, c.field.ID))) cells.delete(c.field.ID);
  else cells.set(c.field.ID, cell);
  const out = new Map(rows);
  if (cells.size === 0) out.delete(c.doc.Id);
  else
    out.set(c.doc.Id, {
      docId: c.doc.Id,
      archiveId: prev?.archiveId ?? docArchiveId(c.doc, c.archiveId),
      hash: prev?.hash ?? c.doc.Hash,
      rev: prev?.rev ?? c.doc.Rev ?? null,
      title: prev?.title ?? c.title,
      cells,
    });
  return out;
}

export interface InvalidEntry {
  docId: number;
  fieldId: number;
  cell: DirtyCell;
}

export function invalidEntries(rows: DirtyRows): InvalidEntry[] {
  const out: InvalidEntry[] = [];
  for (const r of rows.values()) for (const [fieldId, cell] of r.cells) if (!cell.wire) out.push({ docId: r.docId, fieldId, cell });
  return out;
}

/** The store without its invalid cells (after the user was warned that they are discarded). */
export function dropInvalid(rows: DirtyRows): DirtyRows {
  const out = new Map<number, DirtyRow>();
  for (const r of rows.values()) {
    const cells = new Map([...r.cells].filter(([, c]) => c.wire !== null));
    if (cells.size) out.set(r.docId, { ...r, cells });
  }
  return out;
}

// --- saving ----------------------------------------------------------------------------------

/**
 * The Rev an edit is based on: the newest the page knows — the document's Rev as shown, or the Rev
 * the server answered for this document's latest done edit when that is newer (the page may not
 * have been reloaded yet; basing a second edit of a field on the old Rev would conflict with itself).
 */
export function baseStampFor(rev: number | null | undefined, entries: readonly OutboxEntry[], target: string): number | null {
  let best = rev ?? null;
  for (const e of entries) {
    if (e.target !== target || e.kind !== FIELD_DATA_KIND || e.state !== 'done') continue;
    const rev = FieldDataResult.shape.Rev.safeParse((e.result as { Rev?: unknown } | null | undefined)?.Rev);
    if (rev.success && (best === null || rev.data > best)) best = rev.data;
  }
  return best;
}

export type BuildResult = { ok: true; edits: FieldEdit[] } | { ok: false; invalid: InvalidEntry[] };

/** One FieldEdit per dirty document with only its changed fields; refused when any entry is invalid. */
export function buildFieldEdits(rows: DirtyRows, dbId: number, fieldsById: ReadonlyMap<number, EditField>, entries: readonly OutboxEntry[]): BuildResult {
  const invalid = invalidEntries(rows);
  if (invalid.length) return { ok: false, invalid };
  const edits: FieldEdit[] = [];
  for (const r of rows.values()) {
    const fields = [...r.cells].map(([ID, c]) => ({ ID, VAL: c.wire!.VAL, ...(c.wire!.MVAL ? { MVAL: [...c.wire!.MVAL] } : {}) }));
    if (!fields.length) continue;
    const labels: Record<number, string> = {};
    for (const f of fields) labels[f.ID] = fieldsById.get(f.ID)?.Name ?? String(f.ID);
    edits.push({
      dbId,
      archiveId: r.archiveId,
      docId: r.docId,
      hash: r.hash,
      fields,
      baseStamp: baseStampFor(r.rev, entries, outboxTarget(dbId, r.archiveId, r.docId)),
      labels,
      title: r.title,
    });
  }
  return { ok: true, edits };
}

// --- what the grid shows ---------------------------------------------------------------------

export interface OverlayValue extends WireValue {
  state: OutboxState;
  error?: string;
}
export type Overlay = Map<number, OverlayValue>;

/**
 * The saved-but-unconfirmed values of one document, newest last wins: entries not done yet, and done
 * entries the shown page predates (so the grid does not flash the old value until it reloads).
 */
export function overlayFor(entries: readonly OutboxEntry[], target: string, pageFetchedAt: number): Overlay {
  const out: Overlay = new Map();
  const mine = entries
    .filter((e) => e.target === target && e.kind === FIELD_DATA_KIND && (e.state !== 'done' || e.updatedAt > pageFetchedAt))
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  for (const e of mine) {
    const body = (e.body as { ID: number; VAL?: string | null; MVAL?: string[] | null }[] | undefined) ?? [];
    for (const f of body) out.set(f.ID, { VAL: f.VAL ?? '', ...(f.MVAL ? { MVAL: f.MVAL } : {}), state: e.state, ...(e.error ? { error: e.error } : {}) });
  }
  return out;
}

/** Documents of the page with an edit that reached 'done' and is not in `seen` yet (then the page is reloaded). */
export function newlyDone(entries: readonly OutboxEntry[], targets: ReadonlySet<string>, seen: ReadonlySet<string>): string[] {
  return entries.filter((e) => e.kind === FIELD_DATA_KIND && e.state === 'done' && targets.has(e.target) && !seen.has(e.id)).map((e) => e.id);
}

export type CellMark = 'dirty' | 'invalid' | 'pending' | 'failed' | 'conflict' | null;

export function markOf(dirty: DirtyCell | undefined, overlay: OverlayValue | undefined): CellMark {
  if (dirty) return dirty.wire ? 'dirty' : 'invalid';
  if (!overlay) return null;
  if (overlay.state === 'failed') return 'failed';
  if (overlay.state === 'conflict') return 'conflict';
  return overlay.state === 'done' ? null : 'pending';
}

/**
 * The grid's rows with dirty and pending values laid over the page's values. `fieldIds[c]`: the
 * field of column c (undefined for other columns). Unchanged rows keep their identity; with nothing
 * to lay over, the same array comes back.
 */
export function overlayRows(
  rows: unknown[][],
  docs: readonly Pick<EditDoc, 'Id'>[],
  fieldIds: readonly (number | undefined)[],
  dirty: DirtyRows,
  overlays: ReadonlyMap<number, Overlay>,
): unknown[][] {
  if (dirty.size === 0 && overlays.size === 0) return rows;
  let out: unknown[][] | null = null;
  for (let r = 0; r < docs.length; r++) {
    const id = docs[r]!.Id;
    const d = dirty.get(id);
    const o = overlays.get(id);
    if (!d && !o) continue;
    const row = [...(rows[r] ?? [])];
    for (let c = 0; c < fieldIds.length; c++) {
      const f = fieldIds[c];
      if (f === undefined) continue;
      const cell = d?.cells.get(f);
      const pend = o?.get(f);
      if (cell) row[c] = cell.display;
      else if (pend) row[c] = cellText(pend);
    }
    out ??= [...rows];
    out[r] = row;
  }
  return out ?? rows;
}
