/**
 * Index editing of one results page with the grid's seam (use-grid-seam.ts: cell meta, marks, values
 * committed in a cell editor) and the grid's cell editors registered: use-index-editing.ts plus what
 * only Handsontable needs.
 *
 * The editors are Handsontable code, so they load with the grid (beside it, as their own import),
 * not with the results screen's first chunk; editing in the grid is offered once they are
 * registered, which is before the grid itself has loaded in practice (both share the chunk).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGridSeam } from './use-grid-seam';
import { useIndexEditing, type GridEditingInput } from './use-index-editing';

export type { EditInput, GridEditingInput } from './use-index-editing';

let editorsRegistered = false;
const editorsLoaded: Promise<boolean> = import('./grid-editors').then(
  (m) => {
    m.registerFieldEditors();
    editorsRegistered = true;
    return true;
  },
  (err: unknown) => {
    console.warn('The grid editors did not load', err);
    return false;
  },
);

/** True once the grid's cell editors are registered. */
function useEditorsRegistered(): boolean {
  const [ready, setReady] = useState(editorsRegistered);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void editorsLoaded.then((ok) => live && setReady(ok));
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}

export function useGridEditing(p: GridEditingInput) {
  const { t } = useTranslation();
  const editors = useEditorsRegistered();
  const e = useIndexEditing(p);
  // Built from the current values (not a ref updated in an effect): the grid's own effects run
  // before this component's, and must already see the new edit mode and marks.
  const grid = useGridSeam({
    docs: p.docs, columns: p.columns, fieldsById: e.fieldsById, editing: e.editMode, coarse: e.coarse, dirty: e.dirty, overlays: e.overlays,
    mayEdit: e.mayEdit, editText: e.editText, listOf: e.listOf, extrasFor: e.extrasFor, edit: e.edit, t,
  });
  return { ...e, grid: e.canToggle && editors ? grid : undefined };
}

export type GridEditingState = ReturnType<typeof useGridEditing>;
