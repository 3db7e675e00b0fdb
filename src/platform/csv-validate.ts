/**
 * Checking a CSV's mapped columns against the field rules (src/fields/rules.ts, the rules the
 * server applies), batch by batch in the CSV worker: only the refused rows come back, packed like
 * any batch, each with its problems (row, column, reason key), for the error file the user can
 * download (src/platform/csv.ts writes it). A multi-value or table column holds its values joined
 * by ';' (the export writes '; '), so each is checked alone. Asked for, the good rows come back too,
 * as the server takes them (each field's wire value from the same check, and the raw cells named),
 * so an import reads the file once and the page never gets its text.
 */
import type { BulkValue } from '../api/bulk-update';
import { isMultiField, validateFieldValue, type FieldRule } from '../fields/rules';
import type { CsvBatchData } from './csv-parse';

export interface CsvColumnRule {
  /** 0-based column of the CSV. */
  column: number;
  field: FieldRule;
}

export interface CsvProblem {
  /** The file's row number (the header is row 1). */
  row: number;
  /** 1-based column. */
  column: number;
  /** A field code (-1 .. -5) or 0 for a problem of the CSV itself. */
  code: number;
  /** i18n key: FIELD_* of the rules, CSV_TOO_MANY_FIELDS or CSV_TOO_FEW_FIELDS. */
  key: string;
  /** A literal message that wins over the key (a RegEx's own comment). */
  message?: string;
}

/** A row that passed: its file row number, each rule's wire value (rule order), the cells asked for. */
export interface CsvGoodRow {
  line: number;
  values: BulkValue[];
  cells: string[];
}

/** Which raw cells each good row brings back (0-based columns; '' where a row is short). */
export interface CsvGoodRowsWanted {
  cells: readonly number[];
}

export interface CsvRefused {
  /** The refused rows only. */
  rows: CsvBatchData;
  /** Their problems, in row order; every refused row has at least one. */
  problems: CsvProblem[];
}

/** Splits a multi-value cell as the export joins it. */
export const splitMultiValue = (v: string): string[] => (v.trim() === '' ? [] : v.split(';').map((x) => x.trim()));

/**
 * The refused rows of a batch, or null when every row passes. `width` is the header's number of
 * columns: a row of another width is refused whole (its values may have shifted). `locale` null:
 * values in wire form (ISO dates, '.' decimals), else as typed in that locale.
 */
export function validateBatch(
  batch: CsvBatchData,
  rules: readonly CsvColumnRule[],
  locale: string | null,
  width: number | null,
  good?: { wanted: CsvGoodRowsWanted; rows: CsvGoodRow[] },
): CsvRefused | null {
  const { text, bounds, rowStarts, rowNumbers } = batch;
  const problems: CsvProblem[] = [];
  const refusedRows: number[] = [];
  const multi = rules.map((r) => isMultiField(r.field));
  const cell = (first: number, w: number, column: number) => (column < w ? text.slice(bounds[2 * (first + column)], bounds[2 * (first + column) + 1]) : '');
  for (let r = 0; r < rowNumbers.length; r++) {
    const first = rowStarts[r]!;
    const w = rowStarts[r + 1]! - first;
    const row = rowNumbers[r]!;
    const before = problems.length;
    const values: BulkValue[] | null = good ? [] : null;
    if (width !== null && w !== width) {
      problems.push({ row, column: Math.min(w, width) + 1, code: 0, key: w > width ? 'CSV_TOO_MANY_FIELDS' : 'CSV_TOO_FEW_FIELDS' });
    } else {
      for (let k = 0; k < rules.length; k++) {
        const { column, field } = rules[k]!;
        const res = validateFieldValue(field, multi[k] ? { MVAL: splitMultiValue(cell(first, w, column)) } : { VAL: cell(first, w, column) }, locale);
        if (res.code !== 0) problems.push({ row, column: column + 1, code: res.code, key: res.key ?? 'FIELD_INVALID_NUMBER', ...(res.message ? { message: res.message } : {}) });
        else values?.push(multi[k] ? { ID: field.ID ?? 0, MVAL: res.normalizedMVAL ?? [] } : { ID: field.ID ?? 0, VAL: res.normalized ?? '' });
      }
    }
    if (problems.length > before) refusedRows.push(r);
    else if (good) good.rows.push({ line: row, values: values!, cells: good.wanted.cells.map((c) => cell(first, w, c)) });
  }
  if (!refusedRows.length) return null;
  return { rows: pickRows(batch, refusedRows), problems };
}

/** A batch of only the rows at `indexes`, its text rebuilt from their values. */
export function pickRows(batch: CsvBatchData, indexes: readonly number[]): CsvBatchData {
  const parts: string[] = [];
  let len = 0;
  let fields = 0;
  for (const r of indexes) fields += batch.rowStarts[r + 1]! - batch.rowStarts[r]!;
  const bounds = new Int32Array(fields * 2);
  const rowStarts = new Int32Array(indexes.length + 1);
  const rowNumbers = new Int32Array(indexes.length);
  let f = 0;
  indexes.forEach((r, i) => {
    rowStarts[i] = f;
    rowNumbers[i] = batch.rowNumbers[r]!;
    for (let g = batch.rowStarts[r]!; g < batch.rowStarts[r + 1]!; g++) {
      const v = batch.text.slice(batch.bounds[2 * g], batch.bounds[2 * g + 1]);
      parts.push(v);
      bounds[2 * f] = len;
      len += v.length;
      bounds[2 * f + 1] = len;
      f++;
    }
  });
  rowStarts[indexes.length] = f;
  return { text: parts.join(''), bounds, rowStarts, rowNumbers };
}
