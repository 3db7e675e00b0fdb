/**
 * The advanced tab's rules (the user-app spec §5 "CSV bulk update needs ... field and string delimiters
 * that differ, DocumentID and ArchiveID mapped, at least one mapping ... Search update also needs a
 * selected search, mapped search prompts (unless a prompt is empty) and mapped data") and the rows it
 * sends: each CSV row read from the worker's batches becomes one CsvRow of wire values, checked
 * again by the shared field rules (the worker already refused the bad rows for the error file).
 */
import type { Field } from '../../api/archives';
import type { CsvRow } from '../../api/bulk-update';
import type { SearchPrompt } from '../../api/search';
import { fieldWireValue } from '../../fields/wire-value';
import { dialectProblem } from '../../platform/csv-parse';

export type CsvMode = 'direct' | 'search';

export interface CsvForm {
  mode: CsvMode;
  fieldDelimiter: string;
  stringDelimiter: string;
  /** 0-based columns; -1: not mapped. */
  docColumn: number;
  archiveColumn: number;
  /** Field id -> column. */
  fields: Record<number, number>;
  /** Search update: prompt ID -> column. */
  prompts: Record<number, number>;
}

export const initialCsvForm = (): CsvForm => ({ mode: 'direct', fieldDelimiter: ',', stringDelimiter: '"', docColumn: -1, archiveColumn: -1, fields: {}, prompts: {} });

/** The spec's names of the two key columns: a header that says them is mapped at once. */
export function guessKeyColumns(columns: readonly string[]): Pick<CsvForm, 'docColumn' | 'archiveColumn'> {
  const find = (re: RegExp) => columns.findIndex((c) => re.test(c.replace(/[\s_-]/g, '')));
  return { docColumn: find(/^(documentid|docid)$/i), archiveColumn: find(/^archiveid$/i) };
}

/** What to fix before the file is read; keys of the message catalogue. */
export function csvProblems(f: CsvForm, ctx: { file: boolean; searchId: number }): string[] {
  const out: string[] = [];
  if (!ctx.file) out.push('BULK_UPDATE_CSV_NEED_FILE');
  const dialect = dialectProblem(f);
  if (dialect) out.push(dialect);
  if (f.mode === 'direct' && (f.docColumn < 0 || f.archiveColumn < 0)) out.push('BULK_UPDATE_CSV_NEED_KEYS');
  if (f.mode === 'search') {
    if (!ctx.searchId) out.push('ERROR_CSV_UPDATE_DIRECT_SEARCH_REQUIRED');
    if (!Object.keys(f.prompts).length) out.push('BULK_UPDATE_CSV_NEED_PROMPTS');
  }
  if (!Object.keys(f.fields).length) out.push('BULK_UPDATE_CSV_NEED_MAPPING');
  return out;
}

/** Reads one value of a row (CsvRows.value). */
export type RowReader = (column: number) => string;

const positiveInt = (v: string): number | null => (/^\s*\d{1,15}\s*$/.test(v) && Number(v) > 0 ? Number(v) : null);

/** One CSV row as the server takes it, or null when it cannot be sent (the worker reported it already). */
export function csvRowOf(f: CsvForm, fields: readonly Field[], prompts: readonly SearchPrompt[], read: RowReader, line: number, locale: string): CsvRow | null {
  const values: CsvRow['Values'] = [];
  for (const field of fields) {
    const col = f.fields[field.ID];
    if (col === undefined) continue;
    const r = fieldWireValue(field, read(col), locale);
    if ('problem' in r) return null;
    values.push(r.value);
  }
  if (f.mode === 'direct') {
    const docId = positiveInt(read(f.docColumn));
    const archiveId = positiveInt(read(f.archiveColumn));
    if (docId === null || archiveId === null) return null;
    return { DocID: docId, ArchiveID: archiveId, Values: values, Line: line };
  }
  // An empty prompt value sets no condition (§5 "unless a prompt is empty").
  const criteria = prompts.flatMap((p) => {
    const col = f.prompts[p.ID];
    if (col === undefined) return [];
    const v = read(col).trim();
    return v ? [{ ID: p.ID, VAL: v }] : [];
  });
  if (!criteria.length) return null;
  return { Criteria: JSON.stringify(criteria), Values: values, Line: line };
}

/** The search's prompts a CSV column may fill: one value each (not ranges, not the content search). */
export const mappablePrompts = (prompts: readonly SearchPrompt[]): SearchPrompt[] => prompts.filter((p) => p.Type !== 0 && (p.Condition === 'Contains' || p.Condition === 'Equals'));
