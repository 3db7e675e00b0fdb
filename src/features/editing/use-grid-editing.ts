/**
 * Index editing of one results page with the grid's seam (use-grid-seam.ts: cell meta, marks, values
 * committed in a cell editor) and the grid's cell editors registered: use-index-editing.ts plus what
 * only Handsontable needs.
 */
import { useTranslation } from 'react-i18next';
import { registerFieldEditors } from './grid-editors';
import { useGridSeam } from './use-grid-seam';
import { useIndexEditing, type GridEditingInput } from './use-index-editing';

export type { EditInput, GridEditingInput } from './use-index-editing';

registerFieldEditors();

export function useGridEditing(p: GridEditingInput) {
  const { t } = useTranslation();
  const e = useIndexEditing(p);
  // Built from the current values (not a ref updated in an effect): the grid's own effects run
  // before this component's, and must already see the new edit mode and marks.
  const grid = useGridSeam({
    docs: p.docs, columns: p.columns, fieldsById: e.fieldsById, editing: e.editMode, coarse: e.coarse, dirty: e.dirty, overlays: e.overlays,
    mayEdit: e.mayEdit, editText: e.editText, listOf: e.listOf, extrasFor: e.extrasFor, edit: e.edit, t,
  });
  return { ...e, grid: e.canToggle ? grid : undefined };
}

export type GridEditingState = ReturnType<typeof useGridEditing>;
