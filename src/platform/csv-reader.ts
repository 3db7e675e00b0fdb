/**
 * Reading a CSV File/Blob slice by slice through the scanner (csv-parse.ts): what
 * workers/csv.worker.ts runs, kept free of Comlink so Vitest runs it on Node's Blob. Memory stays
 * at about two chunks (the one scanned and the next being read, which overlaps the scan) plus the
 * batch the caller holds: the file is never read whole.
 */
import { CsvScanner, DEFAULT_DIALECT, type CsvBatchData, type CsvDialect } from './csv-parse';

export interface CsvReadOptions extends Partial<CsvDialect> {
  /** The first row names the columns (default true). */
  header?: boolean;
  /** Every row must have the header's width, else the scan stops with CSV_TOO_MANY/FEW_FIELDS. */
  strictWidth?: boolean;
  /** A TextDecoder label; default from the byte-order mark, else UTF-8. */
  encoding?: string;
  /** Bytes read at a time (default 4 MiB; tests use tiny ones to cross every boundary). */
  chunkSize?: number;
}

export interface CsvOpened {
  /** The header's values ([] without a header). */
  columns: string[];
  /** Rows after the header: exact when the file fit in the first chunk, else extrapolated from it. */
  estimatedRows: number;
  exact: boolean;
  size: number;
  encoding: string;
}

export interface CsvProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
}

export const DEFAULT_CHUNK_SIZE = 4 << 20;

function bomEncoding(head: Uint8Array): string {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

const dialectOf = (o: CsvReadOptions): CsvDialect => ({
  fieldDelimiter: o.fieldDelimiter ?? DEFAULT_DIALECT.fieldDelimiter,
  stringDelimiter: o.stringDelimiter ?? DEFAULT_DIALECT.stringDelimiter,
});

/**
 * Runs the scanner over `blob`, chunk by chunk, handing each batch to `onBatch` (awaited: a slow
 * consumer holds the reading back). `stop` ends early after a chunk (open() reads only the start).
 */
export async function readCsv(
  blob: Blob,
  opts: CsvReadOptions,
  onBatch: (batch: CsvBatchData, progress: CsvProgress, scanner: CsvScanner) => void | Promise<void>,
  hooks: { cancelled?: () => boolean; stop?: (scanner: CsvScanner) => boolean; onChunk?: (progress: CsvProgress) => void | Promise<void> } = {},
): Promise<{ scanner: CsvScanner; bytesRead: number; encoding: string; done: boolean }> {
  const chunkSize = Math.max(16, opts.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const size = blob.size;
  const read = (at: number) => (at < size ? blob.slice(at, Math.min(size, at + chunkSize)).arrayBuffer() : Promise.resolve(new ArrayBuffer(0)));
  const scanner = new CsvScanner({ ...dialectOf(opts), header: opts.header ?? true, strictWidth: opts.strictWidth });
  let at = 0;
  let next = read(0);
  let decoder: TextDecoder | null = null;
  let encoding = opts.encoding ?? 'utf-8';
  for (;;) {
    if (hooks.cancelled?.()) throw new DOMException('The CSV scan was cancelled.', 'AbortError');
    const bytes = new Uint8Array(await next);
    if (!decoder) {
      encoding = opts.encoding ?? bomEncoding(bytes);
      decoder = new TextDecoder(encoding);
    }
    at += bytes.length;
    const last = at >= size;
    // The next slice is read while this one is scanned.
    if (!last) next = read(at);
    const batch = scanner.push(decoder.decode(bytes, { stream: !last }), last);
    const progress = { bytesRead: at, totalBytes: size, rows: scanner.rows };
    if (batch) await onBatch(batch, progress, scanner);
    // Awaited, so the last progress reaches the page before the scan's answer does.
    await hooks.onChunk?.(progress);
    if (last || hooks.stop?.(scanner)) return { scanner, bytesRead: at, encoding, done: last };
  }
}

/**
 * The header and a row estimate, from the first MiB (read on only while the header row is
 * incomplete). A problem after the header is left for the scan to report where it is.
 */
export async function openCsv(blob: Blob, opts: CsvReadOptions): Promise<CsvOpened> {
  const header = opts.header ?? true;
  const chunk = Math.min(opts.chunkSize ?? DEFAULT_CHUNK_SIZE, 1 << 20);
  const scanner = new CsvScanner({ ...dialectOf(opts), header });
  let rows = 0;
  let at = 0;
  let decoder: TextDecoder | null = null;
  let encoding = opts.encoding ?? 'utf-8';
  for (;;) {
    const bytes = new Uint8Array(await blob.slice(at, at + chunk).arrayBuffer());
    if (!decoder) {
      encoding = opts.encoding ?? bomEncoding(bytes);
      decoder = new TextDecoder(encoding);
    }
    at += bytes.length;
    const last = at >= blob.size;
    try {
      rows += scanner.push(decoder.decode(bytes, { stream: !last }), last)?.rowNumbers.length ?? 0;
    } catch (e) {
      if (header && !scanner.columns) throw e;
      return { columns: scanner.columns ?? [], estimatedRows: rows, exact: false, size: blob.size, encoding };
    }
    if (last || !header || scanner.columns) {
      const estimatedRows = last ? rows : Math.round((rows / at) * blob.size);
      return { columns: scanner.columns ?? [], estimatedRows, exact: last, size: blob.size, encoding };
    }
  }
}
