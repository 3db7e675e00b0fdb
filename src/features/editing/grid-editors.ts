/**
 * Handsontable pieces of in-cell editing: a text editor that opens with the field's edit text (locale
 * dates and decimals, not the wire form) and filters keystrokes of number and decimal cells, and the
 * cell meta of an editable field cell. The value typed is never written into Handsontable's data:
 * results-grid.tsx hands it to the editing hook, which validates it and lays it over the rows.
 */
import type Handsontable from 'handsontable/base';
import { registerEditor, SelectEditor, TextEditor } from 'handsontable/editors';
import { filterDecimalInput, filterNumericInput, isTextArea } from '../../fields/masks';
import { FIELD_TYPE } from '../../fields/rules';
import { isDropdownField, type EditField } from './edit-logic';

export const FIELD_EDITOR = 'archive-field';

export type InputFilter = 'number' | 'decimal' | null;

/** Extra cell meta read by FieldEditor. */
export interface FieldCellMeta {
  /** The text the editor opens with. */
  editText?: () => string;
  inputFilter?: InputFilter;
}

export class FieldEditor extends TextEditor {
  // The text area exists only after the constructor's createElements (init runs before it).
  bindEvents(): void {
    super.bindEvents();
    this.TEXTAREA.addEventListener('input', () => {
      const filter = (this.cellProperties as unknown as FieldCellMeta | undefined)?.inputFilter;
      if (!filter) return;
      const el = this.TEXTAREA;
      const next = filter === 'number' ? filterNumericInput(el.value) : filterDecimalInput(el.value);
      if (next !== el.value) {
        const at = Math.max(0, (el.selectionStart ?? next.length) - (el.value.length - next.length));
        el.value = next;
        el.setSelectionRange(at, at);
      }
    });
  }

  beginEditing(newInitialValue?: unknown, event?: Event): void {
    const meta = this.cellProperties as unknown as FieldCellMeta | undefined;
    const initial = typeof newInitialValue === 'string' ? newInitialValue : (meta?.editText?.() ?? undefined);
    super.beginEditing(initial, event);
  }
}

let registered = false;
export function registerFieldEditors(): void {
  if (registered) return;
  registered = true;
  registerEditor(FIELD_EDITOR, FieldEditor);
  registerEditor(SelectEditor);
}

export const inputFilterOf = (field: Pick<EditField, 'Type'>): InputFilter =>
  field.Type === FIELD_TYPE.number ? 'number' : field.Type === FIELD_TYPE.decimal ? 'decimal' : null;

/**
 * Cell meta of an editable field cell. Fixed lists with known items edit in a select; everything
 * else in the field editor (a multi-value cell takes its entries separated by ';'). Size >= 150
 * fields edit in the side panel's text area; in the cell the editor grows with the text.
 */
export function editableCellMeta(field: EditField, editText: () => string, listItems: readonly string[] | null | undefined): Partial<Handsontable.CellProperties> {
  if (isDropdownField(field) && listItems) {
    const current = editText();
    const options = ['', ...listItems];
    if (current && !options.includes(current)) options.push(current);
    return { ...READ_ONLY_CELL_META, readOnly: false, editor: 'select', selectOptions: options } as Partial<Handsontable.CellProperties>;
  }
  const meta: FieldCellMeta = { editText, inputFilter: inputFilterOf(field) };
  return { ...READ_ONLY_CELL_META, readOnly: false, editor: FIELD_EDITOR, ...(isTextArea(field) ? { className: 'edit-text-area' } : {}), ...meta } as Partial<Handsontable.CellProperties>;
}

/**
 * What results-grid.tsx asks of the editing hook (absent: the grid is read-only). A new object
 * whenever what cellMeta or decorate answer changes; the grid re-renders then.
 */
export interface GridEditing {
  /** Full cell meta of a field cell (editable or not). */
  cellMeta(row: number, col: number): Partial<Handsontable.CellProperties>;
  /** After the text renderer: dirty/invalid/pending marks, messages, read-only look. */
  decorate(td: HTMLTableCellElement, row: number, col: number): void;
  /** A value the user committed in a cell editor (never written into the grid's data directly). */
  onEdit(row: number, col: number, value: string): void;
}

/** Cell meta of a cell that cannot be edited now (every key editableCellMeta may set, reset). */
export const READ_ONLY_CELL_META = { readOnly: true, editor: false, selectOptions: undefined, className: undefined, editText: undefined, inputFilter: null } as unknown as Partial<Handsontable.CellProperties>;
