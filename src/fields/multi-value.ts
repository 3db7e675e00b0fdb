/**
 * Editing helpers for multi-value cells and table fields (the archive-ops spec §4 "Multi-value
 * fields", §5). Values are plain arrays (the MVAL of FieldData); a table field is its columns'
 * MVAL arrays keyed by column field ID, one entry per row. Every helper returns new arrays.
 */

/** the archive-ops spec §8: the plain text shown when the last row of a table field would be removed. */
export const TABLE_MIN_ROWS_MESSAGE = 'Can not have less than 1 Row.';

/** Entries as an editor shows them: always one empty entry at the end to type into. */
export function withTrailingEntry(entries: readonly string[]): string[] {
  const out = [...entries];
  if (out.length === 0 || out[out.length - 1] !== '') out.push('');
  return out;
}

/** Sets entry `index`; typing into the last entry adds a new empty entry after it. */
export function editMultiValue(entries: readonly string[], index: number, value: string): string[] {
  if (index < 0 || index > entries.length) throw new RangeError(`entry ${index} of ${entries.length}`);
  const out = [...entries];
  out[index] = value;
  if (index === out.length - 1 && value !== '') out.push('');
  return out;
}

/** Removes entry `index` (the last empty entry stays). */
export function removeMultiValue(entries: readonly string[], index: number): string[] {
  return withTrailingEntry(entries.filter((_, i) => i !== index));
}

/** What is saved: trailing empty entries dropped. */
export function compactMultiValue(entries: readonly string[]): string[] {
  const out = [...entries];
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  return out;
}

export type TableColumns = Readonly<Record<number, readonly string[]>>;

export const tableRowCount = (t: TableColumns): number => Math.max(0, ...Object.values(t).map((c) => c.length));

/** Adds an empty row at the end (or at `at`), padding every column to the same number of rows. */
export function addTableRow(t: TableColumns, at?: number): Record<number, string[]> {
  const rows = tableRowCount(t);
  const where = at === undefined ? rows : Math.max(0, Math.min(at, rows));
  const out: Record<number, string[]> = {};
  for (const [id, col] of Object.entries(t)) {
    const c = [...col];
    while (c.length < rows) c.push('');
    c.splice(where, 0, '');
    out[Number(id)] = c;
  }
  return out;
}

export type TableRemoveResult = { ok: true; columns: Record<number, string[]> } | { ok: false; message: typeof TABLE_MIN_ROWS_MESSAGE };

/** Removes row `row`; refused when it would leave no row. */
export function removeTableRow(t: TableColumns, row: number): TableRemoveResult {
  const rows = tableRowCount(t);
  if (rows <= 1) return { ok: false, message: TABLE_MIN_ROWS_MESSAGE };
  if (row < 0 || row >= rows) throw new RangeError(`row ${row} of ${rows}`);
  const out: Record<number, string[]> = {};
  for (const [id, col] of Object.entries(t)) out[Number(id)] = col.filter((_, i) => i !== row);
  return { ok: true, columns: out };
}

/** The columns `ids` of a table (missing ones empty), padded to the same number of rows, at least one. */
export function alignTable(t: TableColumns, ids: readonly number[]): Record<number, string[]> {
  const rows = Math.max(1, ...ids.map((id) => t[id]?.length ?? 0));
  const out: Record<number, string[]> = {};
  for (const id of ids) {
    const c = [...(t[id] ?? [])];
    while (c.length < rows) c.push('');
    out[id] = c;
  }
  return out;
}

/** What is saved of a table: trailing rows that are empty in every column dropped, one row kept. */
export function trimTableRows(t: TableColumns): Record<number, string[]> {
  const ids = Object.keys(t).map(Number);
  const aligned = alignTable(t, ids);
  let rows = tableRowCount(aligned);
  while (rows > 1 && ids.every((id) => (aligned[id]![rows - 1] ?? '').trim() === '')) rows--;
  const out: Record<number, string[]> = {};
  for (const id of ids) out[id] = aligned[id]!.slice(0, rows);
  return out;
}
