/**
 * The page's one way into the CSV worker (workers/csv.worker.ts; STYLE.md: one Comlink bridge per
 * worker, an AbortSignal per call, the worker ended when done). Import and bulk update use it:
 *
 *   const csv = await CsvFile.open(file, { fieldDelimiter: ';' });   // csv.columns, csv.estimatedRows
 *   await csv.scan((rows, progress) => send(rows));                   // batches, awaited in turn
 *   const checked = await csv.validate(rules, { locale });            // refused rows only
 *   await csv.validate(rules, { locale, rows: { cells: [3], max, onRows } }); // and the good rows, wire values
 *   checked.errorFile((p) => t(p.key, p))                             // a CSV of them + a reason
 *   csv.close();
 *
 * Batches cross as one packed string and Int32Array offsets (transferred), read with CsvRows. A
 * broken CSV rejects with CsvParseError (code, row, column: translate with t(code, { row, column }));
 * an aborted call rejects with an AbortError.
 */
import { proxy, releaseProxy, transfer, wrap, type Endpoint, type Remote } from 'comlink';
import { CsvParseError, CsvRows, DEFAULT_DIALECT, type CsvBatchData, type CsvDialect, type CsvErrorCode } from './csv-parse';
import type { CsvOpened, CsvProgress, CsvReadOptions } from './csv-reader';
import type { CsvColumnRule, CsvGoodRow, CsvGoodRowsWanted, CsvProblem, CsvRefused } from './csv-validate';

export type { CsvOpened, CsvProgress, CsvReadOptions } from './csv-reader';
export type { CsvColumnRule, CsvGoodRow, CsvProblem } from './csv-validate';

/** A failure as plain data (a CsvParseError does not survive structured cloning). */
export type CsvFailure = { ok: false; code: CsvErrorCode; row: number; column: number } | { ok: false; code: 'ABORTED' };

export interface CsvScanDone {
  ok: true;
  rows: number;
  bytes: number;
}

/** What workers/csv.worker.ts exposes. `run` names a call so cancel(run) can stop it. */
export interface CsvWorkerApi {
  open(file: Blob, options: CsvReadOptions): Promise<({ ok: true } & CsvOpened) | CsvFailure>;
  scan(
    run: number,
    file: Blob,
    options: CsvReadOptions,
    onBatch: (batch: CsvBatchData, progress: CsvProgress) => void | Promise<void>,
    onProgress: (progress: CsvProgress) => void | Promise<void>,
  ): Promise<CsvScanDone | CsvFailure>;
  validate(
    run: number,
    file: Blob,
    options: CsvReadOptions,
    rules: CsvColumnRule[],
    locale: string | null,
    onRefused: (refused: CsvRefused) => void | Promise<void>,
    onProgress: (progress: CsvProgress) => void | Promise<void>,
    /** The good rows too (each batch's, until `max` have been sent), through onRows. */
    wanted?: CsvGoodRowsWanted & { max: number },
    onRows?: (rows: CsvGoodRow[]) => void | Promise<void>,
  ): Promise<CsvScanDone | CsvFailure>;
  cancel(run: number): void;
}

/** Transfers a batch's buffers instead of copying them. */
export const transferBatch = <T>(value: T, batch: CsvBatchData): T => transfer(value, [batch.bounds.buffer, batch.rowStarts.buffer, batch.rowNumbers.buffer] as ArrayBuffer[]);

export interface CsvValidation {
  /** Data rows checked. */
  rows: number;
  refusedRows: number;
  /** The first problems (at most `keepProblems`), for the screen. */
  problems: CsvProblem[];
  /**
   * The refused rows as a CSV with the file's columns and delimiters plus a reason column (its
   * header `reasonHeader`; each problem as `describe` words it, joined by '; '); null when none.
   */
  errorFile(describe: (problem: CsvProblem) => string, reasonHeader: string): Blob | null;
}

function startWorker(): { endpoint: Endpoint; terminate(): void } {
  const worker = new Worker(new URL('../../workers/csv.worker.ts', import.meta.url), { type: 'module', name: 'csv' });
  return { endpoint: worker, terminate: () => worker.terminate() };
}

const abortError = () => new DOMException('The CSV reading was cancelled.', 'AbortError');

function unwrap<T extends { ok: true }>(r: T | CsvFailure, signal?: AbortSignal): T {
  if (r.ok) return r;
  if (r.code === 'ABORTED') throw signal?.reason instanceof Error ? signal.reason : abortError();
  throw new CsvParseError(r.code, r.row, r.column);
}

/** One value for a CSV line: between string delimiters (doubled inside) when it must be. */
export function csvValue(v: string, d: CsvDialect): string {
  if (v.includes(d.fieldDelimiter) || v.includes(d.stringDelimiter) || v.includes('\n') || v.includes('\r')) {
    return d.stringDelimiter + v.replaceAll(d.stringDelimiter, d.stringDelimiter + d.stringDelimiter) + d.stringDelimiter;
  }
  return v;
}

export const csvLine = (values: readonly string[], d: CsvDialect): string => values.map((v) => csvValue(v, d)).join(d.fieldDelimiter) + '\r\n';

let runs = 0;

export class CsvFile {
  private constructor(
    private readonly file: Blob,
    private readonly options: CsvReadOptions,
    private readonly api: Remote<CsvWorkerApi>,
    private readonly handle: { terminate(): void },
    readonly opened: CsvOpened,
  ) {}

  /** Reads the header and estimates the rows; the worker lives until close(). */
  static async open(
    file: Blob,
    options: CsvReadOptions = {},
    { signal, worker = startWorker }: { signal?: AbortSignal; worker?: () => { endpoint: Endpoint; terminate(): void } } = {},
  ): Promise<CsvFile> {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : abortError();
    const handle = worker();
    const api = wrap<CsvWorkerApi>(handle.endpoint);
    const end = () => {
      api[releaseProxy]();
      handle.terminate();
    };
    // An ended worker never answers: the abort itself settles the call.
    let onAbort = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : abortError());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const opened = await Promise.race([api.open(file, options), aborted]);
      const r = unwrap(opened, signal);
      return new CsvFile(file, options, api, handle, { columns: r.columns, estimatedRows: r.estimatedRows, exact: r.exact, size: r.size, encoding: r.encoding });
    } catch (e) {
      end();
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  get columns(): string[] {
    return this.opened.columns;
  }
  get estimatedRows(): number {
    return this.opened.estimatedRows;
  }
  get dialect(): CsvDialect {
    return { fieldDelimiter: this.options.fieldDelimiter ?? DEFAULT_DIALECT.fieldDelimiter, stringDelimiter: this.options.stringDelimiter ?? DEFAULT_DIALECT.stringDelimiter };
  }

  private async run<T extends { ok: true }>(signal: AbortSignal | undefined, call: (run: number) => Promise<T | CsvFailure>): Promise<T> {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : abortError();
    const run = ++runs;
    const cancel = () => void this.api.cancel(run);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return unwrap(await call(run), signal);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Every data row, batch by batch; the next batch is read once `onBatch` has settled. */
  scan(
    onBatch: (rows: CsvRows, progress: CsvProgress) => void | Promise<void>,
    { signal, onProgress }: { signal?: AbortSignal; onProgress?: (p: CsvProgress) => void } = {},
  ): Promise<CsvScanDone> {
    return this.run(signal, (run) =>
      this.api.scan(
        run,
        this.file,
        this.options,
        proxy((batch: CsvBatchData, progress: CsvProgress) => onBatch(new CsvRows(batch), progress)),
        proxy((p: CsvProgress) => onProgress?.(p)),
      ),
    );
  }

  /**
   * Checks the mapped columns of every row with the field rules; keeps the refused rows. With
   * `rows`, the good rows also come, batch by batch, as the server takes them (wire values of the
   * rules' fields, in rule order, and the raw `cells`), the first `max` of them: one read of the
   * file, and none of its text crosses to the page.
   */
  async validate(
    rules: CsvColumnRule[],
    {
      locale,
      signal,
      onProgress,
      keepProblems = 1000,
      rows,
    }: { locale: string | null; signal?: AbortSignal; onProgress?: (p: CsvProgress) => void; keepProblems?: number; rows?: { cells: number[]; max: number; onRows: (rows: CsvGoodRow[]) => void } },
  ): Promise<CsvValidation> {
    const refused: CsvRefused[] = [];
    const problems: CsvProblem[] = [];
    let refusedRows = 0;
    const done = await this.run(signal, (run) =>
      this.api.validate(
        run,
        this.file,
        this.options,
        rules,
        locale,
        proxy((r: CsvRefused) => {
          refused.push(r);
          refusedRows += r.rows.rowNumbers.length;
          for (const p of r.problems) if (problems.length < keepProblems) problems.push(p);
        }),
        proxy((p: CsvProgress) => onProgress?.(p)),
        rows ? { cells: rows.cells, max: rows.max } : undefined,
        rows ? proxy((good: CsvGoodRow[]) => rows.onRows(good)) : undefined,
      ),
    );
    const dialect = this.dialect;
    const columns = this.columns;
    return {
      rows: done.rows,
      refusedRows,
      problems,
      errorFile(describe, reasonHeader) {
        if (!refusedRows) return null;
        const parts: string[] = [csvLine([...columns, reasonHeader], dialect)];
        for (const batch of refused) {
          const rows = new CsvRows(batch.rows);
          const lines: string[] = [];
          let p = 0;
          for (let r = 0; r < rows.length; r++) {
            const number = rows.rowNumber(r);
            const reasons: string[] = [];
            while (p < batch.problems.length && batch.problems[p]!.row === number) reasons.push(describe(batch.problems[p++]!));
            lines.push(csvLine([...rows.row(r), reasons.join('; ')], dialect));
          }
          parts.push(lines.join(''));
        }
        return new Blob(parts, { type: 'text/csv;charset=utf-8' });
      },
    };
  }

  /** Ends the worker. */
  close(): void {
    this.api[releaseProxy]();
    this.handle.terminate();
  }
}
