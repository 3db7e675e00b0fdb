/**
 * Index editing of one results page (user-app.md §4 "Grid": dirty, edit enabled, cancel, disabling
 * edit with dirty rows). State, in memory only: edit mode, the dirty rows (edit-logic.ts), the open
 * side panel, the alert/confirm shown, the table editor open, and the server checks running (with a
 * ref of the dirty rows for these asynchronous steps). What is saved goes into the outbox (Dexie),
 * which also feeds the overlay of pending values, so they survive a reload and show offline. When an
 * edit of a document on this page is done, the page is revalidated so the grid shows the server's values.
 *
 * An edit: the local rules at once (a fixed or dynamic list's known items included, numbers clamped
 * to Min/Max), then the server check in the validation worker (POST api/indexes; the cell is marked
 * "checking" and Save waits for it); offline the local result stands. A changed parent of a dynamic
 * list refreshes the list (GET api/indexes with Filter1/Filter2) and clears a dependent value it no
 * longer holds. Dynamic and type-ahead lists edit in the field editor's listbox (lists cached with
 * TanStack Query, persisted); table fields as aligned rows (typing in a cell pads the other columns;
 * rows are added and removed in the table editor).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type Handsontable from 'handsontable/base';
import { DYNAMIC_LIST_MAX, type Field } from '../../api/archives';
import { httpContext } from '../../api/http';
import { dynamicDependents, dynamicFilters, filterItems, keepInRefreshedList, listKindOf } from '../../fields/lists';
import { toEditText } from '../../fields/masks';
import { alignTable, compactMultiValue, trimTableRows } from '../../fields/multi-value';
import { isMultiField } from '../../fields/rules';
import { validateFields, type ServerCheckContext } from './validation-bridge';
import { notify } from '../../ui/notifications';
import { enqueueFieldEdit, isFieldEditMeta } from '../../sync/kinds/field-data';
import { outboxTarget } from '../../sync/outbox';
import { useOutbox } from '../../sync/react/outbox-view';
import { cachedDynamicList, refreshDynamicList, type DynamicListKey } from './api/get-dynamic-list';
import { fetchSuggestions, useFixedLists } from './api/get-list-items';
import {
  NO_DIRTY, applyCheck, buildFieldEdits, cellEditable, docArchiveId, documentLabel, dropInvalid, editAllowedFor, entriesOf, evaluateInput,
  invalidEntries, isDropdownField, isTableColumn, markNote, markOf, splitEntries, newlyDone, originalValue, overlayFor, overlayRows, putDirtyCell, rowEditable,
  sameValue, showEditToggle, type DirtyCell, type DirtyRows, type EditDoc, type EditField, type Overlay, type WireValue,
} from './edit-logic';
import { READ_ONLY_CELL_META, editableCellMeta, registerFieldEditors, type EditorExtras } from './grid-editors';
import type { GridEditing } from '../../ui/grid-editing';
import { browserAppLocale } from '../../i18n/locale';
import type { OutboxEntry } from '../../db/db';

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

/** One input of an edit: what the user typed (a text, or the entries of a multi-value field or table column). */
export interface EditInput {
  field: EditField;
  input: string | readonly string[];
}

interface RunningCheck {
  seq: number;
  abort: AbortController;
  done: Promise<void>;
}

// One MediaQueryList, made on first use: every render of the results screen reads it.
let coarseList: MediaQueryList | null | undefined;
const coarseQuery = () => {
  if (coarseList === undefined) coarseList = typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : null;
  return coarseList;
};
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
  const canToggle = useMemo(() => showEditToggle(p.docs, scope), [p.docs, scope]);

  const qc = useQueryClient();
  const [editMode, setEditMode] = useState(false);
  const [dirty, setDirty] = useState<DirtyRows>(NO_DIRTY);
  // The store as of now, for the asynchronous steps (server checks, list refreshes, Save after them).
  const dirtyRef = useRef<DirtyRows>(NO_DIRTY);
  const update = useCallback((fn: (d: DirtyRows) => DirtyRows) => {
    dirtyRef.current = fn(dirtyRef.current);
    setDirty(dirtyRef.current);
  }, []);
  const checks = useRef(new Map<string, RunningCheck>());
  const seq = useRef(0);
  const [table, setTable] = useState<{ docId: number; parent: number } | null>(null);
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
  // A page holds up to 10,000 documents and the outbox a few: only documents whose id some entry
  // names get their target built and compared (a page change costs no 10,000 strings).
  const docsNamedBy = useCallback(
    (list: readonly OutboxEntry[]) => {
      const ids = new Set(list.flatMap((e) => (isFieldEditMeta(e.meta) ? [e.meta.docId] : [])));
      return ids.size ? p.docs.filter((d) => ids.has(d.Id)) : [];
    },
    [p.docs],
  );
  const overlays = useMemo(() => {
    const out = new Map<number, Overlay>();
    for (const d of docsNamedBy(entries)) {
      const o = overlayFor(entries, targetOf(d), p.fetchedAt);
      if (o.size) out.set(d.Id, o);
    }
    return out;
  }, [entries, docsNamedBy, targetOf, p.fetchedAt]);

  const seen = useRef<Set<string> | null>(null);
  const { reload } = p;
  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(entries.filter((e) => e.state === 'done').map((e) => e.id));
      return;
    }
    const seenIds = seen.current;
    const unseen = entries.filter((e) => e.state === 'done' && !seenIds.has(e.id));
    if (!unseen.length) return;
    const targets = new Set(docsNamedBy(unseen).map(targetOf));
    const fresh = newlyDone(unseen, targets, seenIds);
    for (const id of fresh) seen.current.add(id);
    if (fresh.length) reload();
  }, [entries, docsNamedBy, targetOf, reload]);

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
    [fieldsById, currentValue],
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

  const serverContext = useCallback(
    (doc: EditDoc): ServerCheckContext | undefined => {
      const { baseUrl, token } = httpContext();
      return token && p.dbId > 0 ? { dbId: p.dbId, archiveId: docArchiveId(doc, p.archiveId), token, apiBase: baseUrl } : undefined;
    },
    [p.dbId, p.archiveId],
  );

  /**
   * The server check (POST api/indexes through the validation worker) of locally valid values: until
   * it answers the cells are marked "checking" and Save waits. Refused: the cell shows the server's
   * reason. Offline or a server error: the local result stands (the server re-validates on save).
   */
  const serverCheck = useCallback(
    (doc: EditDoc, items: readonly { field: EditField; cell: DirtyCell }[]) => {
      const mine = ++seq.current;
      const ac = new AbortController();
      const keys = items.map((i) => `${doc.Id}:${i.field.ID}`);
      const current = (k: string) => checks.current.get(k)?.seq === mine;
      const settle = (answers: ReadonlyMap<number, Parameters<typeof applyCheck>[2]>) => {
        items.forEach((i, n) => {
          if (current(keys[n]!)) put(doc, i.field, applyCheck(i.field, i.cell, answers.get(i.field.ID), locale));
        });
      };
      // The worker applies the local rules again to what it is given: the values in the locale's edit form.
      const values = items.map(({ field, cell }) => ({
        ID: field.ID,
        VAL: toEditText(field, cell.wire?.VAL ?? '', locale),
        ...(cell.wire?.MVAL ? { MVAL: cell.wire.MVAL.map((v) => toEditText(field, v, locale)) } : {}),
      }));
      const done = validateFields(items.map((i) => i.field as Field), values, locale, { ctx: serverContext(doc), signal: ac.signal })
        .then(
          (outcome) => settle(new Map(outcome.results.map((r) => [r.ID, r]))),
          () => settle(new Map()),
        )
        .finally(() => keys.forEach((k) => current(k) && checks.current.delete(k)));
      keys.forEach((k) => {
        checks.current.get(k)?.abort.abort();
        checks.current.set(k, { seq: mine, abort: ac, done });
      });
    },
    [put, locale, serverContext],
  );

  /**
   * A parent of dynamic lists changed: each dependent list is refreshed with the row's new values,
   * and a dependent value the refreshed list does not hold is cleared (archive-inbox-ops.md §4).
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
          checks.current.get(`${doc.Id}:${dep.ID}`)?.abort.abort();
          checks.current.delete(`${doc.Id}:${dep.ID}`);
          put(doc, dep, { text: '', display: '', wire: { VAL: '' }, cleared: true });
        });
      }
    },
    [fields, mayEdit, dynamicKey, qc, p.scope, valueNow, put],
  );

  /** Several fields of one document at once (a table's columns): local rules, then one server check. */
  const editMany = useCallback(
    (doc: EditDoc, inputs: readonly EditInput[]) => {
      const toCheck: { field: EditField; cell: DirtyCell }[] = [];
      const parents: EditField[] = [];
      for (const { field, input } of inputs) {
        if (!mayEdit(doc, field)) continue;
        const cell = evaluateInput(field, input, locale, knownItems(doc, field));
        const key = `${doc.Id}:${field.ID}`;
        checks.current.get(key)?.abort.abort();
        checks.current.delete(key);
        const unchanged = cell.wire !== null && sameValue(field, cell.wire, currentValue(doc, field));
        if (cell.wire && !unchanged) toCheck.push({ field, cell });
        put(doc, field, cell.wire && !unchanged ? { ...cell, checking: true } : cell);
        if (cell.wire) parents.push(field);
      }
      if (toCheck.length) serverCheck(doc, toCheck);
      for (const f of parents) refreshDependents(doc, f);
    },
    [mayEdit, locale, knownItems, currentValue, put, serverCheck, refreshDependents],
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
  const save = useCallback(async (): Promise<boolean> => {
    // Values still being checked by the server are saved as the check leaves them.
    while (checks.current.size) await Promise.allSettled([...checks.current.values()].map((c) => c.done));
    const built = buildFieldEdits(dirtyRef.current, p.dbId, fieldsById, entries);
    if (!built.ok) {
      setAlert({ kind: 'unsaved', invalid: built.invalid.length });
      return false;
    }
    setSaving(true);
    try {
      for (const e of built.edits) {
        await enqueueFieldEdit(e);
        update((d) => {
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
  }, [p.dbId, fieldsById, entries, update]);

  const abortChecks = useCallback(() => {
    for (const c of checks.current.values()) c.abort.abort();
    checks.current.clear();
  }, []);

  const discardAll = useCallback(() => {
    abortChecks();
    update(() => NO_DIRTY);
    setAlert(null);
    notify('info', t('EDIT_SAVE_CANCELLED'));
  }, [t, abortChecks, update]);

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
    if ((dirtyRef.current.size || checks.current.size) && !(await save())) return;
    setEditMode(false);
    setPanelDocId(null);
    setTable(null);
  }, [editMode, save]);

  const discardInvalid = useCallback(() => {
    update((d) => dropInvalid(d));
    setAlert(null);
  }, [update]);

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
        return { ...editableCellMeta(field, () => editText(doc, field), listOf(field), extrasFor(doc, field)), valid };
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
        for (const m of ['dirty', 'checking', 'invalid', 'pending', 'failed', 'conflict']) td.classList.toggle(`edit-${m}`, mark === m);
        if (ro) td.setAttribute('aria-readonly', 'true');
        else td.removeAttribute('aria-readonly');
        if (mark) td.dataset.edit = mark;
        else delete td.dataset.edit;
        const note = markNote(mark, cell, pending, t);
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
  }, [docsNow, columnsNow, fieldsById, editing, coarse, mayEdit, editText, listOf, extrasFor, dirty, overlays, t, edit]);

  const invalidCount = useMemo(() => invalidEntries(dirty).length, [dirty]);
  const panelIndex = shownPanelId === null ? -1 : p.docs.findIndex((d) => d.Id === shownPanelId);
  const panelDoc = panelIndex < 0 ? null : p.docs[panelIndex]!;

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
    editMany,
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
    closePanel: () => {
      setPanelDocId(null);
      setClosedFor(p.activeDocId);
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

export type GridEditingState = ReturnType<typeof useGridEditing>;
