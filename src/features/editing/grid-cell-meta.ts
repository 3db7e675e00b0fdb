/**
 * The cell meta of field cells in the grid, without Handsontable's code: an editable cell names the
 * field editor (grid-editors.ts, registered when the grid's chunk loads) and carries what it opens
 * with; a cell that cannot be edited now resets every key. Kept apart from the editors so that the
 * results screen's first chunk does not carry Handsontable.
 */
import type Handsontable from 'handsontable/base';
import { isTextArea } from '../../fields/masks';
import { FIELD_TYPE } from '../../fields/rules';
import { isDropdownField, type EditField } from './edit-logic';

export const FIELD_EDITOR = 'archive-field';

/** The on-screen keyboard a cell's text area asks for (number and decimal fields: digits). */
export type InputMode = 'numeric' | 'decimal' | null;

/** Extra cell meta read by FieldEditor. */
export interface FieldCellMeta {
  /** The text the editor opens with. */
  editText?: () => string;
  inputMode?: InputMode;
}

/** Extra cell meta read by ListEditor. */
export interface ListCellMeta extends FieldCellMeta {
  /** The items for the text typed so far ('' when opened without typing: all of a dynamic list, the first suggestions). */
  listSource?: (text: string, signal: AbortSignal) => Promise<string[]>;
  /** Accessible name of the combobox and its listbox, and the listbox's texts while loading and with no match. */
  listLabel?: string;
  listLoading?: string;
  listEmpty?: string;
}

export const inputModeOf = (field: Pick<EditField, 'Type'>): InputMode =>
  field.Type === FIELD_TYPE.number ? 'numeric' : field.Type === FIELD_TYPE.decimal ? 'decimal' : null;

/** The list editors of dynamic and type-ahead list fields (editableCellMeta's last argument). */
export interface EditorExtras {
  list?: Pick<ListCellMeta, 'listSource' | 'listLabel' | 'listLoading' | 'listEmpty'>;
}

/**
 * Cell meta of an editable field cell. Fixed lists with known items edit in a select; everything
 * else in the field editor (a multi-value cell takes its entries separated by ';'). Size >= 150
 * fields edit in the side panel's text area; in the cell the editor grows with the text.
 */

export function editableCellMeta(
  field: EditField,
  editText: () => string,
  listItems: readonly string[] | null | undefined,
  extras: EditorExtras = {},
): Partial<Handsontable.CellProperties> {
  if (extras.list) {
    const meta: ListCellMeta = { editText, inputMode: inputModeOf(field), ...extras.list };
    return { ...READ_ONLY_CELL_META, readOnly: false, editor: FIELD_EDITOR, ...meta } as Partial<Handsontable.CellProperties>;
  }
  if (isDropdownField(field) && listItems) {
    const current = editText();
    const options = ['', ...listItems];
    if (current && !options.includes(current)) options.push(current);
    return { ...READ_ONLY_CELL_META, readOnly: false, editor: 'select', selectOptions: options } as Partial<Handsontable.CellProperties>;
  }
  const meta: FieldCellMeta = { editText, inputMode: inputModeOf(field) };
  return { ...READ_ONLY_CELL_META, readOnly: false, editor: FIELD_EDITOR, ...(isTextArea(field) ? { className: 'edit-text-area' } : {}), ...meta } as Partial<Handsontable.CellProperties>;
}

/** Cell meta of a cell that cannot be edited now (every key editableCellMeta may set, reset). */
export const READ_ONLY_CELL_META = { readOnly: true, editor: false, selectOptions: undefined, className: undefined, editText: undefined, inputMode: null, listSource: undefined, listLabel: undefined, listLoading: undefined, listEmpty: undefined } as unknown as Partial<Handsontable.CellProperties>;
