/**
 * Index editing of one results page (user-app.md §4 "Grid": dirty, edit enabled, cancel, disabling
 * edit with dirty rows). State, in memory only: edit mode, the dirty rows (edit-logic.ts), the open
 * side panel, the alert/confirm shown. What is saved goes into the outbox (Dexie), which also feeds
 * the overlay of pending values, so they survive a reload and show offline. When an edit of a
 * document on this page is done, the page is revalidated so the grid shows the server's values.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type Handsontable from 'handsontable/base';
import { toEditText } from '../../fields/masks';
import { isMultiField } from '../../fields/rules';
import { notify } from '../../ui/notifications';
import { enqueueFieldEdit, outboxTarget } from '../outbox/outbox';
import { useOutbox } from '../outbox/use-outbox';
import { useFixedLists } from './api/get-list-items';
import {
  NO_DIRTY, buildFieldEdits, cellEditable, docArchiveId, documentLabel, dropInvalid, editAllowedFor, invalidEntries,
  isDropdownField, markOf, newlyDone, originalValue, overlayFor, overlayRows, rowEditable, setDirtyCell, showEditToggle,
  type DirtyRows, type EditDoc, type EditField, type Overlay, type WireValue,
} from './edit-logic';
import { READ_ONLY_CELL_META, editableCellMeta, registerFieldEditors, type GridEditing } from './grid-editors';
import { browserAppLocale } from '../../i18n/locale';

registerFieldEditors();

export interface GridEditingInput {
  scope: string | null;
  dbId: number;
  archiveId: number;
  docs: readonly EditDoc[];
  /** The result set's FieldList (live fields included: they disable editing). */
  fields: readonly unknown[];
  /** The grid's visible columns, in order (fieldId for field columns). */
  columns: readonly { fieldId?: number }[];
  rows: unknown[][];
  licenceType: number | null | undefined;
  /** When the shown page was fetched (ms): done edits newer than it stay laid over. */
  fetchedAt: number;
  reload: () => void;
  activeDocId: number | null;
}

export type EditAlert = { kind: 'unsaved'; invalid: number } | { kind: 'confirm-cancel'; invalid: number } | null;

const coarseQuery = () => (typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : null);
function subscribeCoarse(l: () => void) {
  const q = coarseQuery();
  q?.addEventListener('change', l);
  return () => q?.removeEventListener('change', l);
}
/** Touch devices edit in the side panel: in-cell editing fights the on-screen keyboard. */
export const useCoarsePointer = (): boolean => useSyncExternalStore(subscribeCoarse, () => coarseQuery()?.matches ?? false, () => false);

function isEditField(f: unknown): f is EditField {
  const o = f as Partial<EditField> | null;
  return typeof o === 'object' && o !== null && typeof o.ID === 'number' && typeof o.Name === 'string' && typeof o.Type === 'number';
}

export function useGridEditing(p: GridEditingInput) {
  const { t, i18n } = useTranslation();
  const locale = useMemo(() => browserAppLocale(i18n.language), [i18n.language]);
  const coarse = useCoarsePointer();
  const fields = useMemo(() => p.fields.filter(isEditField), [p.fields]);
  const fieldsById = useMemo(() => new Map(fields.map((f) => [f.ID, f])), [fields]);
  const scope = useMemo(() => ({ licenceType: p.licenceType, editAllowed: editAllowedFor(fields) }), [p.licenceType, fields]);
  const canToggle = showEditToggle(p.docs, scope);

  const [editMode, setEditMode] = useState(false);
  const [dirty, setDirty] = useState<DirtyRows>(NO_DIRTY);
  const [alert, setAlert] = useState<EditAlert>(null);
  const [panelDocId, setPanelDocId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = editMode && canToggle;

  const listIds = useMemo(() => [...new Set(fields.filter(isDropdownField).map((f) => f.List!))], [fields]);
  const lists = useFixedLists(p.scope, p.dbId, listIds, editing);
  const listOf = useCallback((f: EditField) => (isDropdownField(f) ? (lists.get(f.List!) ?? null) : null), [lists]);

  // --- the outbox overlay and refresh on done ------------------------------------------------
  const entries = useOutbox();
  const targetOf = useCallback((d: EditDoc) => outboxTarget(p.dbId, docArchiveId(d, p.archiveId), d.Id), [p.dbId, p.archiveId]);
  const overlays = useMemo(() => {
    const out = new Map<number, Overlay>();
    if (!entries.length) return out;
    for (const d of p.docs) {
      const o = overlayFor(entries, targetOf(d), p.fetchedAt);
      if (o.size) out.set(d.Id, o);
    }
    return out;
  }, [entries, p.docs, targetOf, p.fetchedAt]);

  const seen = useRef<Set<string> | null>(null);
  const { reload } = p;
  useEffect(() => {
    const targets = new Set(p.docs.map(targetOf));
    if (seen.current === null) {
      seen.current = new Set(entries.filter((e) => e.state === 'done').map((e) => e.id));
      return;
    }
    const fresh = newlyDone(entries, targets, seen.current);
    for (const id of fresh) seen.current.add(id);
    if (fresh.length) reload();
  }, [entries, p.docs, targetOf, reload]);

  // --- values --------------------------------------------------------------------------------
  const currentValue = useCallback(
    (doc: EditDoc, field: EditField): WireValue => {
      const o = overlays.get(doc.Id)?.get(field.ID);
      return o ? { VAL: o.VAL, ...(o.MVAL ? { MVAL: o.MVAL } : {}) } : originalValue(doc, field.ID);
    },
    [overlays],
  );
  const editText = useCallback(
    (doc: EditDoc, field: EditField): string => {
      const cell = dirty.get(doc.Id)?.cells.get(field.ID);
      if (cell) return cell.text;
      const v = currentValue(doc, field);
      if (isMultiField(field)) return (v.MVAL ?? (v.VAL ? [v.VAL] : [])).map((x) => toEditText(field, x, locale)).join('; ');
      return toEditText(field, v.VAL, locale);
    },
    [dirty, currentValue, locale],
  );

  const mayEdit = useCallback((doc: EditDoc, field: EditField) => cellEditable(editing, doc, field, scope), [editing, scope]);

  const edit = useCallback(
    (doc: EditDoc, field: EditField, input: string | readonly string[]) => {
      if (!mayEdit(doc, field)) return;
      // Comparing with the pending value (not the page's) would make re-typing the page's value "clean" while an edit waits.
      const base: EditDoc = { ...doc, Fields: doc.Fields.map((f) => (f.ID === field.ID ? { ID: f.ID, ...currentValue(doc, field) } : f)) };
      setDirty((d) => setDirtyCell(d, { doc: base, field, input, locale, archiveId: docArchiveId(doc, p.archiveId), title: documentLabel(doc, fields), listItems: listOf(field) }));
    },
    [mayEdit, currentValue, locale, p.archiveId, fields, listOf],
  );

  // --- save / cancel / toggle ----------------------------------------------------------------
  const save = useCallback(async (): Promise<boolean> => {
    const built = buildFieldEdits(dirty, p.dbId, fieldsById, entries);
    if (!built.ok) {
      setAlert({ kind: 'unsaved', invalid: built.invalid.length });
      return false;
    }
    setSaving(true);
    try {
      for (const e of built.edits) {
        await enqueueFieldEdit(e);
        setDirty((d) => {
          const next = new Map(d);
          next.delete(e.docId);
          return next;
        });
      }
      setAlert(null);
      return true;
    } catch {
      setAlert({ kind: 'unsaved', invalid: 0 });
      return false;
    } finally {
      setSaving(false);
    }
  }, [dirty, p.dbId, fieldsById, entries]);

  const discardAll = useCallback(() => {
    setDirty(NO_DIRTY);
    setAlert(null);
    notify('info', t('EDIT_SAVE_CANCELLED'));
  }, [t]);

  const cancel = useCallback(() => {
    const invalid = invalidEntries(dirty).length;
    if (invalid) setAlert({ kind: 'confirm-cancel', invalid });
    else discardAll();
  }, [dirty, discardAll]);

  const toggle = useCallback(async () => {
    if (!editMode) {
      setEditMode(true);
      return;
    }
    if (dirty.size && !(await save())) return;
    setEditMode(false);
    setPanelDocId(null);
  }, [editMode, dirty, save]);

  const discardInvalid = useCallback(() => {
    setDirty((d) => dropInvalid(d));
    setAlert(null);
  }, []);

  // Touch: tapping an editable row in edit mode opens its panel (until it is closed for that row).
  const [closedFor, setClosedFor] = useState<number | null>(null);
  const activeDoc = p.activeDocId === null ? null : (p.docs.find((d) => d.Id === p.activeDocId) ?? null);
  const activeRowEditable = !!activeDoc && editing && rowEditable(activeDoc, scope);
  const shownPanelId = panelDocId ?? (coarse && activeRowEditable && p.activeDocId !== closedFor ? p.activeDocId : null);

  // --- the grid ------------------------------------------------------------------------------
  const rows = useMemo(() => overlayRows(p.rows, p.docs, p.columns.map((c) => c.fieldId), dirty, overlays), [p.rows, p.docs, p.columns, dirty, overlays]);

  // Built from the current values (not a ref updated in an effect): the grid's own effects run
  // before this component's, and must already see the new edit mode and marks.
  const docsNow = p.docs;
  const columnsNow = p.columns;
  const grid: GridEditing = useMemo(() => {
    const at = (row: number, col: number) => {
      const doc = docsNow[row];
      const id = columnsNow[col]?.fieldId;
      const field = id === undefined ? undefined : fieldsById.get(id);
      return { doc, field };
    };
    return {
      cellMeta(row, col): Partial<Handsontable.CellProperties> {
        const { doc, field } = at(row, col);
        if (!doc || !field) return READ_ONLY_CELL_META;
        // valid: false gives Handsontable's own invalid look and aria-invalid.
        const valid = dirty.get(doc.Id)?.cells.get(field.ID)?.wire !== null;
        if (coarse || !mayEdit(doc, field)) return { ...READ_ONLY_CELL_META, valid };
        return { ...editableCellMeta(field, () => editText(doc, field), listOf(field)), valid };
      },
      decorate(td, row, col) {
        const { doc, field } = at(row, col);
        if (!doc || !field) return;
        const dirtyRow = dirty.get(doc.Id);
        const cell = dirtyRow?.cells.get(field.ID);
        const pending = overlays.get(doc.Id)?.get(field.ID);
        const mark = markOf(cell, pending);
        const ro = editing && !mayEdit(doc, field);
        td.classList.toggle('edit-row-dirty', !!dirtyRow);
        td.classList.toggle('edit-readonly', ro);
        for (const m of ['dirty', 'invalid', 'pending', 'failed', 'conflict']) td.classList.toggle(`edit-${m}`, mark === m);
        if (ro) td.setAttribute('aria-readonly', 'true');
        else td.removeAttribute('aria-readonly');
        if (mark) td.dataset.edit = mark;
        else delete td.dataset.edit;
        let note = '';
        if (mark === 'invalid' && cell?.error) note = cell.error.message ?? t(cell.error.key as 'FIELD_INVALID_NUMBER');
        else if (mark === 'pending') note = t('EDIT_PENDING');
        else if (mark === 'failed') note = t('EDIT_FAILED', { reason: pending?.error ?? '' });
        else if (mark === 'conflict') note = t('OUTBOX_STATE_CONFLICT');
        else if (mark === 'dirty') note = t('EDIT_UNSAVED');
        if (mark === 'invalid') td.setAttribute('aria-invalid', 'true');
        else td.removeAttribute('aria-invalid');
        if (note) {
          td.title = note;
          td.setAttribute('aria-description', note);
          if (mark === 'invalid') {
            const span = document.createElement('span');
            span.className = 'edit-cell-note';
            span.textContent = note;
            span.setAttribute('aria-hidden', 'true');
            td.appendChild(span);
          }
        } else {
          td.removeAttribute('title');
          td.removeAttribute('aria-description');
        }
      },
      onEdit(row, col, value) {
        const { doc, field } = at(row, col);
        if (doc && field) edit(doc, field, value);
      },
    };
  }, [docsNow, columnsNow, fieldsById, editing, coarse, mayEdit, editText, listOf, dirty, overlays, t, edit]);

  const invalidCount = useMemo(() => invalidEntries(dirty).length, [dirty]);
  const panelDoc = shownPanelId === null ? null : (p.docs.find((d) => d.Id === shownPanelId) ?? null);

  return {
    canToggle,
    editMode: editing,
    saving,
    toggle,
    save,
    cancel,
    discardAll,
    discardInvalid,
    dirtyCount: dirty.size,
    invalidCount,
    dirty,
    alert,
    dismissAlert: () => setAlert(null),
    rows,
    grid: canToggle ? grid : undefined,
    locale,
    fields,
    fieldsById,
    columns: p.columns,
    mayEdit,
    editText,
    edit,
    listOf,
    overlays,
    activeRowEditable,
    openPanel: () => setPanelDocId(p.activeDocId),
    closePanel: () => {
      setPanelDocId(null);
      setClosedFor(p.activeDocId);
    },
    panelDoc: editing ? panelDoc : null,
  };
}

export type GridEditingState = ReturnType<typeof useGridEditing>;
