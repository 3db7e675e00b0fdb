/**
 * "Check" of the import dialog: reads the picked CSV once through the CSV worker (src/platform/csv.ts),
 * never whole into memory. Every ticked column of every row is checked with the shared field rules in
 * the user's locale in the worker, which sends back the refused rows (for the error file) and the
 * good rows as the server takes them (CsvRow: Line, wire Values; with a file column, the row's cells);
 * here each good row's file is looked up among the picked files: a file named but not picked, or of
 * zero bytes, refuses its rows too. The plan holds what the confirmation needs: the rows, the files each once (in the
 * order the rows first name them; CsvRow.File is the index), the counts and the error file (the
 * refused rows with the file's columns and delimiters and a reason column).
 */
import type { Field } from '../../api/archives';
import type { CsvRow } from '../../api/bulk-update';
import { IMPORT_MAX_FILES, IMPORT_MAX_ROWS } from '../../api/import';
import { CsvFile, csvLine, type CsvProblem } from '../../platform/csv';
import { fileNameOf, mappedFields, pickedByName, type ImportForm } from './import-rules';

/** Why a row of a valid CSV is refused by the file it names. */
export type FileRefusal = { key: 'IMPORT_FILE_NOT_PICKED' | 'ZERO_BYTE_FILE_REMOVED_MSG'; name: string };

export interface ImportPlan {
  /** Data rows of the CSV. */
  total: number;
  rows: CsvRow[];
  /** The picked files the rows name, each once; CsvRow.File indexes this. */
  files: File[];
  /** The names the CSV gives them (same index). */
  fileNames: string[];
  refused: number;
  errorFile: Blob | null;
}

/** Where the CSV worker comes from (tests run its API over a MessageChannel). */
export type CsvWorkerFactory = NonNullable<NonNullable<Parameters<typeof CsvFile.open>[2]>['worker']>;

export interface PlanWords {
  /** A problem the worker found (a value that does not fit its field, a row of another width). */
  problem: (p: CsvProblem) => string;
  file: (r: FileRefusal) => string;
  reasonHeader: string;
}

export class ImportPlanError extends Error {
  constructor(
    readonly key: 'IMPORT_NO_GOOD_ROWS' | 'IMPORT_TOO_MANY_ROWS' | 'IMPORT_TOO_MANY_FILES',
    readonly vars: Record<string, number> = {},
  ) {
    super(key);
    this.name = 'ImportPlanError';
  }
}

export async function planImport(
  csvFile: Blob,
  form: ImportForm,
  fields: readonly Field[],
  picked: readonly File[],
  opts: { locale: string; words: PlanWords; signal?: AbortSignal; onStatus?: (step: 'checking') => void; worker?: CsvWorkerFactory },
): Promise<ImportPlan> {
  const { signal, locale, words } = opts;
  const csv = await CsvFile.open(csvFile, { fieldDelimiter: form.fieldDelimiter, stringDelimiter: form.stringDelimiter }, { signal, ...(opts.worker ? { worker: opts.worker } : {}) });
  try {
    const mapped = mappedFields(form, fields);
    opts.onStatus?.('checking');
    const find = pickedByName(picked);
    const fileIndex = new Map<File, number>();
    const files: File[] = [];
    const fileNames: string[] = [];
    const rows: CsvRow[] = [];
    const extra: string[] = [];
    const dialect = csv.dialect;
    const fileColumn = form.fileColumn >= 0 ? form.fileColumn : null;
    // The good rows come with their wire values and, to write a refused one into the error file,
    // every cell (the file column among them): one read of the file in the worker.
    const cells = Array.from({ length: Math.max(csv.columns.length, (fileColumn ?? -1) + 1) }, (_, i) => i);
    const checked = await csv.validate(
      mapped.map((m) => ({ column: m.column, field: m.field })),
      {
        locale,
        signal,
        keepProblems: Number.MAX_SAFE_INTEGER,
        rows: {
          cells: fileColumn === null ? [] : cells,
          // One past the most, so a file over it is refused below without keeping all its rows.
          max: IMPORT_MAX_ROWS + 1,
          onRows: (good) => {
            for (const g of good) {
              let file: number | undefined;
              const name = fileColumn === null ? '' : fileNameOf(g.cells[fileColumn] ?? '');
              if (name) {
                const f = find(name);
                const refusal: FileRefusal | null = !f ? { key: 'IMPORT_FILE_NOT_PICKED', name } : f.size === 0 ? { key: 'ZERO_BYTE_FILE_REMOVED_MSG', name: f.name } : null;
                if (refusal) {
                  extra.push(csvLine([...g.cells.slice(0, csv.columns.length), words.file(refusal)], dialect));
                  continue;
                }
                file = fileIndex.get(f!);
                if (file === undefined) {
                  file = files.length;
                  fileIndex.set(f!, file);
                  files.push(f!);
                  fileNames.push(name);
                }
              }
              rows.push({ Line: g.line, Values: g.values, ...(file !== undefined ? { File: file } : {}) });
            }
          },
        },
      },
    );
    if (checked.rows > IMPORT_MAX_ROWS) throw new ImportPlanError('IMPORT_TOO_MANY_ROWS', { max: IMPORT_MAX_ROWS });
    if (files.length > IMPORT_MAX_FILES) throw new ImportPlanError('IMPORT_TOO_MANY_FILES', { max: IMPORT_MAX_FILES });
    const refused = checked.refusedRows + extra.length;
    const fromWorker = checked.errorFile(words.problem, words.reasonHeader);
    const errorFile = refused === 0 ? null : new Blob([fromWorker ?? csvLine([...csv.columns, words.reasonHeader], dialect), ...extra], { type: 'text/csv;charset=utf-8' });
    return { total: checked.rows, rows, files, fileNames, refused, errorFile };
  } finally {
    csv.close();
  }
}
