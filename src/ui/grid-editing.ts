/**
 * The seam between the results grid (features/results) and index editing (features/editing): what
 * the grid asks of the editing hook (absent: the grid is read-only). Shared here so neither feature
 * imports the other; the results route hands the one to the other.
 */
import type Handsontable from 'handsontable/base';

/** A new object whenever what cellMeta or decorate answer changes; the grid re-renders then. */
export interface GridEditing {
  /** Full cell meta of a field cell (editable or not). */
  cellMeta(row: number, col: number): Partial<Handsontable.CellProperties>;
  /** After the text renderer: dirty/invalid/pending marks, messages, read-only look. */
  decorate(td: HTMLTableCellElement, row: number, col: number): void;
  /** A value the user committed in a cell editor (never written into the grid's data directly). */
  onEdit(row: number, col: number, value: string): void;
}
