/**
 * Pure rules of index editing in the results grid (the user-app spec §4 "Grid", §5 "Cell editing", §6;
 * the archive-ops spec §4 "Editing mode", "Multi-value fields"). No React, no Dexie: unit-tested in
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
import { documentLabelOf } from '../../fields/document-label';
import { FIELD_MESSAGE_KEYS, FIELD_NOT_IN_LIST_KEY, FIELD_REGEX_MISMATCH_KEY, type FieldCode } from '../../fields/codes';
import { canEditRow, gridFields, isCellEditable, READ_ONLY_LICENCE_TYPE } from '../../fields/editability';
import { formatWireValue } from '../../fields/masks';
import { listKindOf, matchListItem } from '../../fields/lists';
import { compactMultiValue } from '../../fields/multi-value';
import { FIELD_TYPE, isMultiField, validateFieldValue, validateValue } from '../../fields/rules';
import { toEditText } from '../../fields/masks';
import { FIELD_DATA_KIND, type FieldEdit, type FieldFormat } from '../../sync/kinds/field-data';
import { outboxTarget } from '../../sync/outbox';

/** What editing reads of a field (the result set's FieldList entries fit). */
export type EditField = Pick<Field, 'ID' | 'Name' | 'Type'> &
  Partial<Pick<Field, 'Size' | 'Mask' | 'RegEx' | 'Prop' | 'MultiValue' | 'Parent' | 'List' | 'ListF1' | 'ListF2' | 'ExtendedConfig' | 'Currency'>>;

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
  /** The value for the wire; null when invalid (or while the server check runs). */
  wire: WireValue | null;
  error?: CellError;
  /** Multi-value fields and table columns: the entries as typed (table columns keep empty rows). */
  entries?: string[];
  /** Locally valid, waiting for the server check (POST api/indexes): not saved until it answers. */
  checking?: boolean;
  /** A dynamic-list value cleared because its refreshed list does not hold it. */
  cleared?: boolean;
  /** A number clamped to the field's Min/Max. */
  clamped?: boolean;
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
  /** False when the result set has live fields (the user-app spec §5). */
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

/** A fixed drop-down (Prop 64 without 128; src/fields/lists.ts). */
export const isDropdownField = (f: Pick<EditField, 'Prop' | 'List'>): boolean => listKindOf(f) === 'fixed';
/** A column of a table field (Parent > 0): edited as aligned rows with the other columns of its table. */
export const isTableColumn = (f: Pick<EditField, 'Parent'>): boolean => (f.Parent ?? 0) > 0;

/** A document's current value of a field (VAL, MVAL for multi-value fields). */
export function originalValue(doc: EditDoc, fieldId: number): WireValue {
  const f = doc.Fields.find((x) => x.ID === fieldId);
  return { VAL: f?.VAL ?? '', ...(f?.MVAL ? { MVAL: [...f.MVAL] } : {}) };
}

/** The grid's cell text of a value (multi-values joined, as grid-logic.ts fieldValue). */
export const cellText = (v: { VAL?: string | null; MVAL?: readonly string[] | null }): string => (v.MVAL && v.MVAL.length ? v.MVAL.join('; ') : (v.VAL ?? ''));

/** Multi-value text as typed in a cell: entries separated by ';'. */
export const splitEntries = (text: string): string[] => text.split(';').map((s) => s.trim());

/** A value's entries (MVAL, else VAL as one entry). */
export const entriesOf = (v: { VAL?: string | null; MVAL?: readonly string[] | null }): string[] => (v.MVAL ? [...v.MVAL] : v.VAL ? [v.VAL] : []);

export function sameValue(field: EditField, a: WireValue, b: WireValue): boolean {
  // A table column's empty entries are rows of its table: they count.
  if (isTableColumn(field)) return JSON.stringify(a.MVAL ?? (a.VAL ? [a.VAL] : [])) === JSON.stringify(b.MVAL ?? (b.VAL ? [b.VAL] : []));
  if (isMultiField(field)) return JSON.stringify(compactMultiValue(a.MVAL ?? (a.VAL ? [a.VAL] : []))) === JSON.stringify(compactMultiValue(b.MVAL ?? (b.VAL ? [b.VAL] : [])));
  return a.VAL === b.VAL;
}

/**
 * Judges what the user typed (a text, or a multi-value field's entries) with the field rules in the
 * app's locale. `listItems`: the items of a fixed or dynamic list when known (a value outside them
 * is refused; a value matching an item case-insensitively takes the item's spelling). Numbers are
 * clamped to the field's Min/Max. Table columns keep their empty entries (rows stay aligned).
 */
export function evaluateInput(field: EditField, input: string | readonly string[], locale: string, listItems?: readonly string[] | null): DirtyCell {
  if (isMultiField(field)) {
    const raw = typeof input === 'string' ? splitEntries(input) : [...input];
    const entries = isTableColumn(field) ? raw : compactMultiValue(raw);
    const text = entries.join('; ');
    const r = validateFieldValue(field, { MVAL: entries }, locale);
    if (r.code !== 0) return { text, display: text, wire: null, entries, error: { key: r.key ?? 'FIELD_INVALID_NUMBER', ...(r.message ? { message: r.message } : {}) } };
    const mval = r.normalizedMVAL ?? [];
    const clamped = entries.some((e) => e.trim() !== '' && !!validateValue(field, e, locale).clamped);
    return {
      text: compactMultiValue(entries).join('; '),
      // Trailing empty rows of a table column are not shown (the cell would end in '; ').
      display: compactMultiValue(mval).map((v) => formatWireValue(field, v, locale)).join('; '),
      wire: { VAL: mval[0] ?? '', MVAL: mval },
      entries: mval.map((v) => toEditText(field, v, locale)),
      ...(clamped ? { clamped } : {}),
    };
  }
  const text = typeof input === 'string' ? input : (input[0] ?? '');
  const r = validateValue(field, text, locale);
  if (r.code !== 0) return { text, display: text, wire: null, error: { key: r.key ?? 'FIELD_INVALID_NUMBER', ...(r.message ? { message: r.message } : {}) } };
  let wire = r.normalized ?? '';
  const kind = listKindOf(field);
  if (listItems && (kind === 'fixed' || kind === 'dynamic') && wire !== '') {
    const hit = matchListItem(wire, listItems);
    if (hit === null) return { text, display: text, wire: null, error: { key: FIELD_NOT_IN_LIST_KEY } };
    wire = hit;
  }
  const display = field.Type === FIELD_TYPE.character ? wire : formatWireValue(field, wire, locale);
  // A clamped number reopens with the bound, not with what was typed.
  return { text: r.clamped ? toEditText(field, wire, locale) : text, display, wire: { VAL: wire }, ...(r.clamped ? { clamped: true } : {}) };
}

/** What the validation worker answered for one field (src/fields/validation.ts FieldCheck). */
export interface CheckAnswer {
  code: FieldCode;
  key?: string;
  message?: string;
  normalized?: string;
  normalizedMVAL?: string[];
  serverChecked: boolean;
}

/**
 * A locally valid cell after the server check: refused with the server's code (its key translated;
 * only a RegEx's own text is shown as given), or valid with the server's normalised value (a list
 * item's spelling). Not checked by the server (offline, server error): the local value stays.
 */
export function applyCheck(field: EditField, cell: DirtyCell, answer: CheckAnswer | undefined, locale: string): DirtyCell {
  const { checking: _, ...base } = cell;
  if (!answer || !answer.serverChecked || !base.wire) return base;
  if (answer.code !== 0) {
    const code = answer.code as Exclude<FieldCode, 0>;
    const key = answer.key ?? FIELD_MESSAGE_KEYS[code] ?? FIELD_MESSAGE_KEYS[-1];
    const message = key === FIELD_REGEX_MISMATCH_KEY && answer.message ? { message: answer.message } : {};
    const { clamped: _c, ...rest } = base;
    return { ...rest, display: base.text, wire: null, error: { key, ...message } };
  }
  if (isMultiField(field)) {
    const mval = answer.normalizedMVAL ?? base.wire.MVAL ?? [];
    return { ...base, wire: { VAL: mval[0] ?? '', MVAL: mval }, display: compactMultiValue(mval).map((v) => formatWireValue(field, v, locale)).join('; ') };
  }
  const v = answer.normalized ?? base.wire.VAL;
  const display = field.Type === FIELD_TYPE.character ? v : formatWireValue(field, v, locale);
  return { ...base, text: v !== base.wire.VAL && field.Type === FIELD_TYPE.character ? v : base.text, wire: { VAL: v }, display };
}

/** A document label for the tray: its first non-empty character field, else the file name, else #id. */
export function documentLabel(doc: EditDoc, fields: readonly EditField[]): string {
  const values = { FileName: doc.FileName, Fields: fields.map((f) => ({ ID: f.ID, VAL: cellText(originalValue(doc, f.ID)) })) };
  return documentLabelOf(values, fields) || `#${doc.Id}`;
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
  return putDirtyCell(rows, c, evaluateInput(c.field, c.input, c.locale, c.listItems));
}

/** The store with one cell set to an already judged value (same rules as setDirtyCell). */
export function putDirtyCell(rows: DirtyRows, c: Pick<SetCellInput, 'doc' | 'field' | 'archiveId' | 'title'>, cell: DirtyCell): DirtyRows {
  const prev = rows.get(c.doc.Id);
  const cells = new Map(prev?.cells ?? []);
  if (cell.wire && !cell.checking && sameValue(c.field, cell.wire, originalValue(c.doc, c.field.ID))) cells.delete(c.field.ID);
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

/** Cells that cannot be saved: invalid ones (a cell still being checked is not counted: Save waits for it). */
export function invalidEntries(rows: DirtyRows): InvalidEntry[] {
  const out: InvalidEntry[] = [];
  for (const r of rows.values()) for (const [fieldId, cell] of r.cells) if (!cell.wire && !cell.checking) out.push({ docId: r.docId, fieldId, cell });
  return out;
}

/** The store without its invalid cells (after the user was warned that they are discarded). */
export function dropInvalid(rows: DirtyRows): DirtyRows {
  const out = new Map<number, DirtyRow>();
  for (const r of rows.values()) {
    const cells = new Map([...r.cells].filter(([, c]) => c.wire !== null || c.checking));
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
    const formats: Record<number, FieldFormat> = {};
    for (const f of fields) {
      const def = fieldsById.get(f.ID);
      labels[f.ID] = def?.Name ?? String(f.ID);
      if (def) formats[f.ID] = { Type: def.Type, Mask: def.Mask ?? null, Currency: def.Currency ?? null };
    }
    edits.push({
      dbId,
      archiveId: r.archiveId,
      docId: r.docId,
      hash: r.hash,
      fields,
      baseStamp: baseStampFor(r.rev, entries, outboxTarget(dbId, r.archiveId, r.docId)),
      labels,
      formats,
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

export type CellMark = 'dirty' | 'checking' | 'invalid' | 'pending' | 'failed' | 'conflict' | null;

export function markOf(dirty: DirtyCell | undefined, overlay: OverlayValue | undefined): CellMark {
  if (dirty) return dirty.checking ? 'checking' : dirty.wire ? 'dirty' : 'invalid';
  if (!overlay) return null;
  if (overlay.state === 'failed') return 'failed';
  if (overlay.state === 'conflict') return 'conflict';
  return overlay.state === 'done' ? null : 'pending';
}

/** Translates the keys markNote uses (i18next's t, or a test's). */
export type NoteTranslator = (key: 'EDIT_PENDING' | 'EDIT_FAILED' | 'OUTBOX_STATE_CONFLICT' | 'EDIT_CHECKING' | 'EDIT_LIST_VALUE_CLEARED' | 'EDIT_VALUE_CLAMPED' | 'EDIT_UNSAVED' | 'FIELD_INVALID_NUMBER', options?: { reason: string }) => string;

/** What a cell's mark means, in words (the grid cell's and the edit panel's accessible description). */
export function markNote(mark: CellMark, dirty: DirtyCell | undefined, overlay: OverlayValue | undefined, t: NoteTranslator): string {
  switch (mark) {
    case 'invalid':
      return dirty?.error ? (dirty.error.message ?? t(dirty.error.key as 'FIELD_INVALID_NUMBER')) : '';
    case 'pending':
      return t('EDIT_PENDING');
    case 'failed':
      return t('EDIT_FAILED', { reason: overlay?.error ?? '' });
    case 'conflict':
      return t('OUTBOX_STATE_CONFLICT');
    case 'checking':
      return t('EDIT_CHECKING');
    case 'dirty':
      return dirty?.cleared ? t('EDIT_LIST_VALUE_CLEARED') : dirty?.clamped ? t('EDIT_VALUE_CLAMPED') : t('EDIT_UNSAVED');
    default:
      return '';
  }
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
