/**
 * The CSV worker: streams a picked File through the scanner (src/platform/csv-reader.ts) off the
 * main thread, exposed over Comlink and driven by src/platform/csv.ts. validate() checks and counts
 * here and sends the page only refused rows (Int32Arrays transferred), the good rows' wire values
 * when asked for, and progress; scan() hands over every batch. Nothing of the file is kept between
 * calls.
 * A call's failure comes back as plain data (code, row, column), since errors lose their fields
 * on the way through Comlink.
 */
import '../src/fields/regex-engine';
import { expose } from 'comlink';
import { CsvParseError } from '../src/platform/csv-parse';
import { openCsv, readCsv } from '../src/platform/csv-reader';
import { transferBatch, type CsvFailure, type CsvWorkerApi } from '../src/platform/csv';
import { validateBatch, type CsvGoodRow } from '../src/platform/csv-validate';

const cancelled = new Set<number>();

function failure(e: unknown): CsvFailure {
  if (e instanceof CsvParseError) return { ok: false, code: e.code, row: e.row, column: e.column };
  if (e instanceof DOMException && e.name === 'AbortError') return { ok: false, code: 'ABORTED' };
  throw e;
}

/** Exported for the unit tests, which run it over a MessageChannel in Node. */
export const csvWorkerApi: CsvWorkerApi = {
  async open(file, options) {
    try {
      return { ok: true, ...(await openCsv(file, options)) };
    } catch (e) {
      return failure(e);
    }
  },
  async scan(run, file, options, onBatch, onProgress) {
    try {
      const r = await readCsv(file, options, (batch, progress) => onBatch(transferBatch(batch, batch), progress), {
        cancelled: () => cancelled.has(run),
        onChunk: (p) => onProgress(p),
      });
      return { ok: true, rows: r.scanner.rows, bytes: r.bytesRead };
    } catch (e) {
      return failure(e);
    } finally {
      cancelled.delete(run);
    }
  },
  async validate(run, file, options, rules, locale, onRefused, onProgress, wanted, onRows) {
    let sent = 0;
    try {
      const r = await readCsv(
        file,
        options,
        async (batch, _progress, scanner) => {
          const good = wanted && onRows && sent < wanted.max ? { wanted, rows: [] as CsvGoodRow[] } : undefined;
          const refused = validateBatch(batch, rules, locale, scanner.columns ? scanner.columns.length : null, good);
          if (good?.rows.length) {
            const rows = good.rows.slice(0, wanted!.max - sent);
            sent += rows.length;
            // Not awaited: the port keeps the order, so every batch of rows is in before the answer.
            void Promise.resolve(onRows!(rows)).catch(() => undefined);
          }
          if (refused) await onRefused(transferBatch(refused, refused.rows));
        },
        { cancelled: () => cancelled.has(run), onChunk: (p) => onProgress(p) },
      );
      return { ok: true, rows: r.scanner.rows, bytes: r.bytesRead };
    } catch (e) {
      return failure(e);
    } finally {
      cancelled.delete(run);
    }
  },
  cancel(run) {
    cancelled.add(run);
  },
};

if ('WorkerGlobalScope' in globalThis) expose(csvWorkerApi);
