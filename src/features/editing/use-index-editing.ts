/**
 * Index editing of a set of documents: one results page (the user-app spec §4 "Grid": dirty, edit enabled,
 * cancel, disabling edit with dirty rows), or the one document of the viewer's indexer panel. This
 * hook holds the edit mode, the open side panel and table editor, and what an edit does to a value;
 * it imports nothing of the grid (use-grid-editing.ts adds the grid's seam, so the viewer does not
 * load Handsontable). Its other seams are hooks of their own:
 * - use-edit-save.ts: the dirty rows (in memory, with a ref for the asynchronous steps) and Save /
 *   Cancel (Save puts one outbox entry per dirty document);
 * - use-server-check.ts: the server check of values in the validation worker (the cell is marked
 *   "checking" and Save waits for it; offline the local result stands);
 * - use-outbox-overlay.ts: the pending values from the outbox laid over the rows (they survive a
 *   reload and show offline), and a reload of the page when an edit of one of its documents is done;
 * - use-grid-seam.ts (through use-grid-editing.ts): what the grid asks of editing (cell meta, marks,
 *   committed values).
 *
 * An edit: the local rules at once (a fixed or dynamic list's known items included, numbers clamped
 * to Min/Max), then the server check. A changed parent of a dynamic list refreshes the list (GET
 * api/indexes with Filter1/Filter2) and clears a dependent value it no longer holds. Dynamic and
 * type-ahead lists edit in the field editor's listbox (lists cached with TanStack Query, persisted);
 * table fields as aligned rows (typing in a cell pads the other columns; rows are added and removed
 * in the table editor).
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { DYNAMIC_LIST_MAX } from '../../api/archives';
import { FIELD_CODES, FIELD_MESSAGE_KEYS } from '../../fields/codes';
import { dynamicDependents, dynamicFilters, filterItems, keepInRefreshedList, listKindOf } from '../../fields/lists';
import { toEditText } from '../../fields/masks';
import { alignTable, compactMultiValue, trimTableRows } from '../../fields/multi-value';
import { isMultiField } from '../../fields/rules';
import { cachedDynamicList, refreshDynamicList, type DynamicListKey } from './api/get-dynamic-list';
import { fetchSuggestions, useFixedLists } from './api/get-list-items';
import {
  cellEditable, docArchiveId, documentLabel, editAllowedFor, entriesOf, evaluateInput, invalidEntries, isDropdownField, isTableColumn, splitEntries,
  originalValue, overlayRows, putDirtyCell, rowEditable, sameValue, showEditToggle, type DirtyCell, type EditDoc, type EditField, type WireValue,
} from './edit-logic';
import type { EditorExtras } from './grid-cell-meta';
import { browserAppLocale } from '../../i18n/locale';
import { useCoarsePointer } from './use-coarse-pointer';
import { draftKey, useDirtyRows, useEditSave } from './use-edit-save';
import { useOutboxOverlay } from './use-outbox-overlay';
import { useServerChecks } from './use-server-check';

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

/** One input of an edit: what the user typed (a text, or the entries of a multi-value field or table column). */
export interface EditInput {
  field: EditField;
  input: string | readonly string[];
}

function isEditField(f: unknown): f is EditField {
  const o = f as Partial<EditField> | null;
  return typeof o === 'object' && o !== null && typeof o.ID === 'number' && typeof o.Name === 'string' && typeof o.Type === 'number';
}

export function useIndexEditing(p: GridEditingInput) {
  const { t, i18n } = useTranslation();
  const locale = useMemo(() => browserAppLocale(i18n.language), [i18n.language]);
  const coarse = useCoarsePointer();
  const fields = useMemo(() => p.fields.filter(isEditField), [p.fields]);
  const fieldsById = useMemo(() => new Map(fields.map((f) => [f.ID, f])), [fields]);
  const scope = useMemo(() => ({ licenceType: p.licenceType, editAllowed: editAllowedFor(fields) }), [p.licenceType, fields]);
  const canToggle = useMemo(() => showEditToggle(p.docs, scope), [p.docs, scope]);

  const qc = useQueryClient();
  const [editMode, setEditMode] = useState(false);
  const dirtyRows = useDirtyRows();
  const { dirty, dirtyRef, update, drafts, putDraft, dropDraft, hasUnsaved } = dirtyRows;
  const [table, setTable] = useState<{ docId: number; parent: number } | null>(null);
  const [panelDocId, setPanelDocId] = useState<number | null>(null);
  const editing = editMode && canToggle;

  const listIds = useMemo(() => [...new Set(fields.filter(isDropdownField).map((f) => f.List!))], [fields]);
  const lists = useFixedLists(p.scope, p.dbId, listIds, editing);
  const listOf = useCallback((f: EditField) => (isDropdownField(f) ? (lists.get(f.List!) ?? null) : null), [lists]);

  const { entries, overlays } = useOutboxOverlay(p);

  // --- values --------------------------------------------------------------------------------
  const currentValue = useCallback(
    (doc: EditDoc, field: EditField): WireValue => {
      const o = overlays.get(doc.Id)?.get(field.ID);
      return o ? { VAL: o.VAL, ...(o.MVAL ? { MVAL: o.MVAL } : {}) } : originalValue(doc, field.ID);
    },
    [overlays],
  );
  /** A field's value in the row now (a dirty value, even an invalid one, wins), for list filters. */
  const valueNow = useCallback(
    (doc: EditDoc, fieldId: number): string => {
      const c = dirtyRef.current.get(doc.Id)?.cells.get(fieldId);
      if (c) return c.wire ? c.wire.VAL : c.text;
      const f = fieldsById.get(fieldId);
      return (f ? currentValue(doc, f) : originalValue(doc, fieldId)).VAL;
    },
    [dirtyRef, fieldsById, currentValue],
  );
  const dynamicKey = useCallback(
    (doc: EditDoc, field: EditField): DynamicListKey => ({ dbId: p.dbId, fieldId: field.ID, ...dynamicFilters(field, (id) => valueNow(doc, id)) }),
    [p.dbId, valueNow],
  );
  /** The items a value is judged against at once: a fixed list's, a dynamic list's as last fetched for the row's parents. */
  const knownItems = useCallback(
    (doc: EditDoc, field: EditField): readonly string[] | null => {
      const kind = listKindOf(field);
      if (kind === 'fixed') return listOf(field);
      if (kind === 'dynamic') return cachedDynamicList(qc, p.scope, dynamicKey(doc, field));
      return null;
    },
    [listOf, qc, p.scope, dynamicKey],
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

  // Comparing with the pending value (not the page's) would make re-typing the page's value "clean" while an edit waits.
  const baseOf = useCallback(
    (doc: EditDoc, field: EditField): EditDoc => ({ ...doc, Fields: [...doc.Fields.filter((f) => f.ID !== field.ID), { ID: field.ID, ...currentValue(doc, field) }] }),
    [currentValue],
  );
  const put = useCallback(
    (doc: EditDoc, field: EditField, cell: DirtyCell) =>
      update((d) => putDirtyCell(d, { doc: baseOf(doc, field), field, archiveId: docArchiveId(doc, p.archiveId), title: documentLabel(doc, fields) }, cell)),
    [update, baseOf, p.archiveId, fields],
  );

  const checks = useServerChecks({ dbId: p.dbId, archiveId: p.archiveId, locale, put });
  const { check: serverCheck, forget: forgetCheck, running: checksRunning } = checks;

  /**
   * A parent of dynamic lists changed: each dependent list is refreshed with the row's new values,
   * and a dependent value the refreshed list does not hold is cleared (the archive-ops spec §4).
   * Offline with no copy of the list, nothing is cleared (the server checks the value on save).
   */
  const refreshDependents = useCallback(
    (doc: EditDoc, parent: EditField) => {
      for (const dep of dynamicDependents(fields, parent.ID)) {
        if (!mayEdit(doc, dep)) continue;
        const key = dynamicKey(doc, dep);
        void refreshDynamicList(qc, p.scope, key).then((items) => {
          if (items === null) return;
          // Another parent edit since: its own refresh decides.
          const now = dynamicKey(doc, dep);
          if (now.filter1 !== key.filter1 || now.filter2 !== key.filter2) return;
          const value = valueNow(doc, dep.ID);
          if (value.trim() === '' || !keepInRefreshedList(value, items).cleared) return;
          forgetCheck(doc.Id, dep.ID);
          put(doc, dep, { text: '', display: '', wire: { VAL: '' }, cleared: true });
        });
      }
    },
    [fields, mayEdit, dynamicKey, qc, p.scope, valueNow, put, forgetCheck],
  );

  /** Several fields of one document at once (a table's columns): local rules, then one server check. */
  const editMany = useCallback(
    (doc: EditDoc, inputs: readonly EditInput[]) => {
      const toCheck: { field: EditField; cell: DirtyCell }[] = [];
      const parents: EditField[] = [];
      for (const { field, input } of inputs) {
        if (!mayEdit(doc, field)) continue;
        const cell = evaluateInput(field, input, locale, knownItems(doc, field));
        dropDraft(doc.Id, field.ID);
        forgetCheck(doc.Id, field.ID);
        const unchanged = cell.wire !== null && sameValue(field, cell.wire, currentValue(doc, field));
        if (cell.wire && !unchanged) toCheck.push({ field, cell });
        put(doc, field, cell.wire && !unchanged ? { ...cell, checking: true } : cell);
        if (cell.wire) parents.push(field);
      }
      if (toCheck.length) serverCheck(doc, toCheck);
      for (const f of parents) refreshDependents(doc, f);
    },
    [mayEdit, locale, knownItems, currentValue, put, serverCheck, refreshDependents, forgetCheck, dropDraft],
  );


  /**
   * A value kept as given but marked uncertain (code -6: key-free extraction read it with a low
   * confidence): invalid, so it is not saved until the user confirms it (leaving the input judges it
   * again) or changes it. Not sent for the server check.
   */
  const markUncertain = useCallback(
    (doc: EditDoc, field: EditField, input: string | readonly string[]) => {
      if (!mayEdit(doc, field)) return;
      const entries = typeof input === 'string' ? undefined : [...input];
      const text = entries ? entries.join('; ') : (input as string);
      dropDraft(doc.Id, field.ID);
      forgetCheck(doc.Id, field.ID);
      put(doc, field, { text, display: text, wire: null, ...(entries ? { entries } : {}), error: { key: FIELD_MESSAGE_KEYS[FIELD_CODES.confidenceError] } });
    },
    [mayEdit, forgetCheck, put, dropDraft],
  );

  // --- table fields --------------------------------------------------------------------------
  /** The columns of table `parent` (fields with that Parent), in the result set's order. */
  const tableColumns = useCallback((parent: number) => fields.filter((f) => (f.Parent ?? 0) === parent), [fields]);
  /** A table's rows as the editor opens them: each column's entries in the edit form, aligned, at least one row. */
  const tableValues = useCallback(
    (doc: EditDoc, parent: number): Record<number, string[]> => {
      const cols = tableColumns(parent);
      const t: Record<number, string[]> = {};
      for (const f of cols) {
        const cell = dirtyRef.current.get(doc.Id)?.cells.get(f.ID);
        t[f.ID] = cell?.entries ?? entriesOf(currentValue(doc, f)).map((v) => toEditText(f, v, locale));
      }
      return alignTable(t, cols.map((f) => f.ID));
    },
    // dirty: the store is read through its ref; what the editors open with changes with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tableColumns, dirty, currentValue, locale],
  );
  const applyTable = useCallback(
    (doc: EditDoc, parent: number, values: Record<number, readonly string[]>) => {
      const trimmed = trimTableRows(values);
      editMany(doc, tableColumns(parent).map((field) => ({ field, input: trimmed[field.ID] ?? [''] })));
    },
    [editMany, tableColumns],
  );

  /**
   * One field. A table column typed in its cell (entries separated by ';') keeps the table aligned:
   * fewer entries than rows leave the rest empty, more add rows to every column (rows are removed in
   * the table editor, never by typing).
   */
  const edit = useCallback(
    (doc: EditDoc, field: EditField, input: string | readonly string[]) => {
      if (!isTableColumn(field) || typeof input !== 'string') return editMany(doc, [{ field, input }]);
      const cols = fields.filter((f) => (f.Parent ?? 0) === field.Parent);
      const before = tableValues(doc, field.Parent!);
      const typed = compactMultiValue(splitEntries(input));
      const after = alignTable({ ...before, [field.ID]: typed }, cols.map((f) => f.ID));
      const grown = cols.filter((f) => f.ID !== field.ID && after[f.ID]!.length !== before[f.ID]!.length);
      editMany(doc, [{ field, input: after[field.ID]! }, ...grown.map((f) => ({ field: f, input: after[f.ID]! }))]);
    },
    [editMany, fields, tableValues],
  );

  /** The editors of list and table cells in the grid. */
  const extrasFor = useCallback(
    (doc: EditDoc, field: EditField): EditorExtras => {
      if (isMultiField(field)) return {};
      const kind = listKindOf(field);
      const texts = { listLabel: field.Name, listLoading: t('EDIT_LIST_LOADING'), listEmpty: t('EDIT_LIST_EMPTY') };
      if (kind === 'dynamic')
        return {
          list: {
            ...texts,
            listSource: (text, signal) => refreshDynamicList(qc, p.scope, dynamicKey(doc, field), signal).then((items) => filterItems(items ?? [], text, DYNAMIC_LIST_MAX)),
          },
        };
      if (kind === 'typeahead') return { list: { ...texts, listSource: (text) => fetchSuggestions(qc, p.scope, p.dbId, field.List!, text) } };
      return {};
    },
    [t, qc, p.scope, p.dbId, dynamicKey],
  );

  // --- save / cancel / toggle ----------------------------------------------------------------
  const cancelledText = useCallback(() => t('EDIT_SAVE_CANCELLED'), [t]);
  const { save, saving, alert, setAlert, discardAll, cancel, discardInvalid } = useEditSave({ dbId: p.dbId, fieldsById, entries, rows: dirtyRows, checks, cancelledText });

  const toggle = useCallback(async () => {
    if (!editMode) {
      setEditMode(true);
      return;
    }
    if ((hasUnsaved() || checksRunning()) && !(await save())) return;
    setEditMode(false);
    setPanelDocId(null);
    setTable(null);
  }, [editMode, save, hasUnsaved, checksRunning]);

  // Touch: tapping an editable row in edit mode opens its panel (until it is closed for that row).
  const [closedFor, setClosedFor] = useState<number | null>(null);
  const activeDoc = p.activeDocId === null ? null : (p.docs.find((d) => d.Id === p.activeDocId) ?? null);
  const activeRowEditable = !!activeDoc && editing && rowEditable(activeDoc, scope);
  const shownPanelId = panelDocId ?? (coarse && activeRowEditable && p.activeDocId !== closedFor ? p.activeDocId : null);

  // --- the grid ------------------------------------------------------------------------------
  const rows = useMemo(() => overlayRows(p.rows, p.docs, p.columns.map((c) => c.fieldId), dirty, overlays), [p.rows, p.docs, p.columns, dirty, overlays]);

  const invalidCount = useMemo(() => invalidEntries(dirty).length, [dirty]);
  const panelIndex = shownPanelId === null ? -1 : p.docs.findIndex((d) => d.Id === shownPanelId);
  const panelDoc = panelIndex < 0 ? null : p.docs[panelIndex]!;
  const closePanelNow = () => {
    setPanelDocId(null);
    setClosedFor(p.activeDocId);
    setAlert(null);
  };

  return {
    canToggle,
    editMode: editing,
    saving,
    toggle,
    save,
    cancel,
    discardAll,
    discardInvalid,
    /** Rows with unsaved changes: judged values, and text typed into the panel that is not judged yet. */
    dirtyCount: dirtyRows.unsavedCount,
    invalidCount,
    dirty,
    alert,
    dismissAlert: () => setAlert(null),
    rows,
    coarse,
    extrasFor,
    knownItems,
    locale,
    fields,
    fieldsById,
    columns: p.columns,
    mayEdit,
    editText,
    edit,
    /** An input of the panel holds text not judged yet; `judge` does what leaving it does (Save does it first). */
    draft: (doc: EditDoc, field: EditField, judge: () => void) => putDraft(doc.Id, field.ID, judge),
    hasDraft: (doc: EditDoc, field: EditField) => drafts.has(draftKey(doc.Id, field.ID)),
    editMany,
    markUncertain,
    listOf,
    scope: p.scope,
    dbId: p.dbId,
    dynamicKey,
    tableColumns,
    tableValues,
    applyTable,
    table: editing && table ? { doc: p.docs.find((d) => d.Id === table.docId) ?? null, parent: table.parent } : null,
    openTable: (docId: number, parent: number) => setTable({ docId, parent }),
    closeTable: () => setTable(null),
    overlays,
    activeRowEditable,
    activeDocId: p.activeDocId,
    openPanel: () => setPanelDocId(p.activeDocId),
    /** Close editing: with unsaved changes it asks first (save, discard, or keep editing). */
    closePanel: () => {
      if (hasUnsaved() || checksRunning()) setAlert({ kind: 'confirm-close' });
      else closePanelNow();
    },
    /** The answers of that question. */
    saveAndClosePanel: async () => {
      if (await save()) closePanelNow();
    },
    discardAndClosePanel: () => {
      discardAll();
      closePanelNow();
    },
    panelDoc: editing ? panelDoc : null,
    /** The panel's row on the page (0-based) and how many rows the page has: previous / next row. */
    panelIndex,
    pageRows: p.docs.length,
    showPanelAt: (index: number) => {
      const d = p.docs[index];
      if (d) setPanelDocId(d.Id);
    },
    /** The row menu's "Edit row": edit mode on and this row in the panel. */
    canEditRow: (d: Pick<EditDoc, 'Permissions'>) => canToggle && rowEditable(d, scope),
    editRow: (d: Pick<EditDoc, 'Id'>) => {
      setEditMode(true);
      setPanelDocId(d.Id);
    },
  };
}

export type IndexEditingState = ReturnType<typeof useIndexEditing>;
