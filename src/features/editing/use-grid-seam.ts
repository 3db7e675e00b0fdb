/**
 * What the results grid asks of index editing (src/ui/grid-editing.ts): each field cell's meta
 * (editable or not, which editor, its list), the marks drawn on a cell after the text renderer
 * (dirty, checking, invalid, pending, failed, conflict, with the message as the cell's description),
 * and a value committed in a cell editor, handed to the editing hook.
 */
import { useMemo } from 'react';
import type Handsontable from 'handsontable/base';
import type { GridEditing } from '../../ui/grid-editing';
import { markNote, markOf, type DirtyRows, type EditDoc, type EditField, type Overlay } from './edit-logic';
import { READ_ONLY_CELL_META, editableCellMeta, type EditorExtras } from './grid-cell-meta';

export interface GridSeamInput {
  docs: readonly EditDoc[];
  /** The grid's visible columns, in order (fieldId for field columns). */
  columns: readonly { fieldId?: number }[];
  fieldsById: ReadonlyMap<number, EditField>;
  /** Edit mode is on (and allowed). */
  editing: boolean;
  /** Touch: cells are edited in the side panel, never in the cell. */
  coarse: boolean;
  dirty: DirtyRows;
  overlays: ReadonlyMap<number, Overlay>;
  mayEdit: (doc: EditDoc, field: EditField) => boolean;
  editText: (doc: EditDoc, field: EditField) => string;
  listOf: (field: EditField) => readonly string[] | null;
  extrasFor: (doc: EditDoc, field: EditField) => EditorExtras;
  edit: (doc: EditDoc, field: EditField, input: string) => void;
  t: Parameters<typeof markNote>[3];
}

export function useGridSeam(p: GridSeamInput): GridEditing {
  // Built from the current values (not a ref updated in an effect): the grid's own effects run
  // before this component's, and must already see the new edit mode and marks.
  const docsNow = p.docs;
  const columnsNow = p.columns;
  const { fieldsById, editing, coarse, mayEdit, editText, listOf, extrasFor, dirty, overlays, t, edit } = p;
  return useMemo((): GridEditing => {
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
}
