/**
 * The export job's work (src/api/export.ts; started by services/export-request.ts, run by
 * jobs/runner.ts) and its result file.
 *
 * What is stored where:
 * - jobs.payload: the job's ExportJobParams (written once by the POST). jobs.result, once done:
 *   ExportResult (the file's name in the exports folder, the user's file name, size, type, expiry).
 * - The exports folder (`${DATA_DIR}/exports`; a temporary folder for an in-memory store): while a
 *   job runs, `job-{id}-{attempt}.part` (the zip or xlsx being written) and `...csv.part` (the CSV
 *   rows, added to the zip as its last entry); when done, `job-{id}.{ext}`, kept EXPORT_KEEP_HOURS.
 *   Every process serving one database must see the same folder (one DATA_DIR).
 *
 * How it runs: documents in job_items order; each file is streamed from the file store into the zip
 * (one entry at a time: memory stays flat whatever the export's size), each CSV row is written to
 * the CSV file as it comes. Every FLUSH_DOCS documents (or FLUSH_MS) one transaction writes the
 * handled items' states and the job's counters, under the job's lock: the tray sees progress, and a
 * cancel or a lost lease is seen there (the temporary files are removed). A document that is gone
 * or no longer permitted is a failure ('DocID {id}: reason') and the export goes on. At the end the
 * file is renamed into place and ONE transaction writes the history entries (one statement for all
 * documents), the result, the note [1, ExportNote] and the final state.
 *
 * An export only reads documents, so a process that dies half-way loses nothing but time: the next
 * claim (jobs.ts claims an export job also when no item is pending) resets the items and starts the
 * file again from scratch.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type ReadStream, type WriteStream } from 'node:fs';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import {
  EXPORT_CSV_NAME,
  EXPORT_EXPIRED_KEY,
  EXPORT_KEEP_HOURS,
  EXPORT_NOT_READY_KEY,
  JOB_NOTE_KINDS,
  XLSX_MIME,
  type ExportFormat,
  type ExportNote,
  type ExportSettings,
} from '../../src/api/export.js';
import { FILE_REFUSED_STATUS } from '../../src/api/file-check.js';
import { EXPORT_JOB_KIND, type Job } from '../../src/api/jobs.js';
import { archivesWithRights, type ArchiveRow } from '../auth/permissions.js';
import { DbError, intArray, type Queryable, type Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError, Errors } from '../http/errors.js';
import { fieldById, isMulti, type FieldRow } from '../search/model.js';
import type { Actor } from './documents.js';
import { burnAnnotations } from './annotation-burn.js';
import { exportFilesOf, type ConvertOptions } from './export-convert.js';
import { exportBit } from './export-request.js';
import { createXlsxWriter, type XlsxWriter } from './export-xlsx.js';
import { StreamingZipWriter } from './zip-writer.js';
import { failJob, lockJob, toWire, type JobRow } from './jobs.js';

/** What the POST fixed for the job (jobs.payload). */
export interface ExportJobParams {
  /** The POST's settings without Docs (the job's items are the documents). */
  settings: Omit<ExportSettings, 'Docs'>;
  format: ExportFormat;
  /** Field whose value names each document's file; null: the file name. */
  field: number | null;
  auditEntry: boolean;
  alwaysExportZip: boolean;
}

/** A finished export's file (jobs.result). */
export interface ExportResult {
  /** Its name in the exports folder. */
  File: string;
  /** The name the user gets (Content-Disposition). */
  FileName: string;
  Size: number;
  Format: ExportFormat;
  Mime: string;
  /** ISO time after which it is gone (410). */
  Expires: string;
  /** Set by the purge once the file is removed. */
  Expired?: boolean;
}

export const EXPORT_KEEP_MS = EXPORT_KEEP_HOURS * 3_600_000;
/** Counters and item states are written every this many documents, or this often, whichever first. */
const FLUSH_DOCS = 20;
const FLUSH_MS = 500;
const BATCH = 100;
/** A file name (from a field's value) longer than this is cut. */
const NAME_MAX = 120;

// ---- The exports folder ----

export interface ExportFolder {
  readonly dir: string;
  close(): void;
}

/** `${dataDir}/exports`, or a temporary folder (removed at close) for an in-memory store. */
export function openExportFolder(dataDir: string | undefined): ExportFolder {
  if (!dataDir || dataDir.startsWith('memory://')) {
    const dir = mkdtempSync(join(tmpdir(), 'archive-exports-'));
    return { dir, close: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = join(dataDir, 'exports');
  mkdirSync(dir, { recursive: true });
  return { dir, close: () => undefined };
}

async function removeQuietly(path: string) {
  await unlink(path).catch(() => undefined);
}

/** Removes a job's temporary files (of any attempt). */
async function removeParts(dir: string, jobId: number) {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(`job-${jobId}-`) && n.endsWith('.part')).map((n) => removeQuietly(join(dir, n))));
}

// ---- Names and CSV ----

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A name that every file system takes: no \ / : * ? " < > | or control characters, no leading dots, no trailing dots or spaces. */
export function safeFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  let n = raw.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').replace(/\s+/g, ' ').trim();
  n = n.replace(/^\.+/, '').slice(0, NAME_MAX).replace(/[. ]+$/, '');
  if (WINDOWS_RESERVED.test(n)) n = `_${n}`;
  return n || 'document';
}

/** A 53-bit hash of a text (cyrb53, public domain): two 32-bit FNV-like lanes mixed. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Hands out names unique in the zip (case-insensitively, as Windows and macOS see them): 'a.pdf',
 * 'a (2).pdf', ... It keeps a hash of each name taken, not the name (the zip writer keeps the names
 * once already): a number is a fraction of a string's size, for 100,000 names. Two names of one hash
 * (about one chance in 10^6 at 100,000 names) only give the later one a ' (2)' it did not need: the
 * names stay unique.
 */
export class UniqueNames {
  private readonly used = new Set<number>();
  take(base: string, ext: string): string {
    const dot = ext ? `.${ext}` : '';
    let name = `${base}${dot}`;
    for (let k = 2; this.used.has(hash53(name.toLowerCase())); k++) name = `${base} (${k})${dot}`;
    this.used.add(hash53(name.toLowerCase()));
    return name;
  }
}

/** One CSV field: quoted with `quote` when it holds the delimiter, the quote or a line break (always with useString); quotes doubled. */
export function csvCell(value: string, delimiter: string, quote: string, useString: boolean): string {
  const needs = useString || value.includes(delimiter) || value.includes(quote) || /[\r\n]/.test(value) || /^\s|\s$/.test(value);
  return needs ? `${quote}${value.split(quote).join(quote + quote)}${quote}` : value;
}

export function csvLine(values: readonly string[], s: Pick<ExportSettings, 'FieldDelimiter' | 'StringDelimiter' | 'UseString'>): string {
  return `${values.map((v) => csvCell(v, s.FieldDelimiter, s.StringDelimiter, Boolean(s.UseString))).join(s.FieldDelimiter)}\r\n`;
}

/** A document's value of a field as one text: a multi-value or table field's values joined by '; '. */
function fieldText(f: FieldRow, doc: DocRow): string {
  if (isMulti(f)) {
    const raw = doc.mvals?.[String(f.id)];
    return Array.isArray(raw) ? raw.map((v) => (v === null || v === undefined ? '' : String(v))).join('; ') : '';
  }
  const v = doc.fields?.[String(f.id)];
  return v === null || v === undefined ? '' : String(v);
}

/** The same value for a spreadsheet cell: number and decimal fields as numbers. */
function fieldCell(f: FieldRow, doc: DocRow): string | number | null {
  const text = fieldText(f, doc);
  if (text === '') return null;
  if (!isMulti(f) && (f.type === 2 || f.type === 4) && /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

const MIME_BY_EXT: Record<string, string> = {
  zip: 'application/zip',
  xlsx: XLSX_MIME,
  pdf: 'application/pdf',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  csv: 'text/csv',
  txt: 'text/plain',
};
const mimeOf = (ext: string) => MIME_BY_EXT[ext.toLowerCase()] ?? 'application/octet-stream';

/** 'name.ext' -> ['name', 'ext']. */
function splitName(fileName: string, fallbackExt: string): { base: string; ext: string } {
  const m = /^(.*[^.])\.([^./\\]+)$/.exec(fileName);
  return m ? { base: m[1]!, ext: m[2]!.toLowerCase() } : { base: fileName, ext: fallbackExt.toLowerCase() };
}

/** The user's name for the result: Filename with the result's extension, or export-{id}.{ext}. */
export function resultFileName(jobId: number, filename: string | undefined, ext: string): string {
  if (!filename?.trim()) return `export-${jobId}.${ext}`;
  const name = safeFileName(filename);
  return name.toLowerCase().endsWith(`.${ext}`) ? name : `${name}.${ext}`;
}

// ---- The files of a document ----

interface DocRow {
  id: number;
  archive_id: number;
  deleted: boolean;
  fields: Record<string, unknown>;
  mvals: Record<string, unknown>;
}

interface FileRow {
  document_id: number;
  sha256: string;
  file_name: string;
  file_type: string;
}

/** One file as it goes into the export. */
interface OutFile {
  base: string;
  ext: string;
  open(): Promise<NodeJS.ReadableStream | Buffer>;
}

/** A file read from disk: opened first, so a missing file is this document's failure, not a broken zip. */
async function opened(src: NodeJS.ReadableStream | Buffer): Promise<NodeJS.ReadableStream | Buffer> {
  if (Buffer.isBuffer(src)) return src;
  const rs = src as ReadStream;
  if (typeof rs.pending === 'boolean' && rs.pending) {
    await new Promise<void>((resolve, reject) => {
      rs.once('ready', resolve);
      rs.once('error', reject);
    });
  }
  return src;
}

// ---- The work ----

export interface ExportWorkContext {
  store: Store;
  files: FileStore;
  dir: string;
  now: () => number;
  bootId: string;
  leaseMs: number;
  /** The runner is stopping: let go of the job (it starts again later, from scratch). */
  stopping: () => boolean;
  log: (msg: string, err?: unknown) => void;
}

interface Handled {
  p: number;
  s: 'done' | 'failed';
  r: string | null;
  k: string | null;
}

type Sink =
  | { kind: 'zip'; zip: ZipWriter; csv: WriteStream | null; csvPath: string | null; guard: StreamGuard }
  | { kind: 'xlsx'; writer: XlsxWriter }
  | { kind: 'single'; path: string; name: string | null; ext: string | null };

/**
 * Resolves on the emitter's `done` event, rejects on its error; either way both listeners go (a
 * listener left per call would pile up on a stream that lives as long as the export).
 */
function once(em: NodeJS.EventEmitter, done: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDone = () => {
      em.off('error', onError);
      resolve();
    };
    const onError = (e: Error) => {
      em.off(done, onDone);
      reject(e);
    };
    em.once(done, onDone);
    em.once('error', onError);
  });
}

/** Waits until the stream has taken the chunk (backpressure), so rows never pile up in memory. */
function write(ws: WriteStream, chunk: string): Promise<void> | undefined {
  return ws.write(chunk) ? undefined : once(ws, 'drain');
}

function closed(ws: WriteStream): Promise<void> {
  return ws.closed ? Promise.resolve() : once(ws, 'close');
}

/** Already-compressed formats are stored as they are: deflating them again costs time and gains nothing. */
const STORED_EXTS = new Set(['pdf', 'tif', 'tiff', 'png', 'jpg', 'jpeg', 'zip', 'xlsx', 'docx', 'gif']);

/** Why the export job could not be finished as a whole (not a document's fault): it fails. */
class ExportAborted extends Error {}

/** The disk refused the file: its error code (ENOSPC, ...), never the server's paths. */
const writeFailed = (e: Error) => new ExportAborted(`The export file could not be written (${(e as NodeJS.ErrnoException).code ?? 'error'})`);

/**
 * The first error of any of the export's streams. Every wait on them ends with it: a stream that
 * failed (a missing folder, a full disk) stops taking data, so a plain wait would never end; and an
 * error with no listener would end the process.
 *
 * Each wait registers its own reject and drops it when it settles. Racing every wait against one
 * never-settled promise (Promise.race([p, failed])) left a reaction on that promise per wait, kept
 * until the export ended: ~0.8 KB a document, 80 MB at 100,000.
 */
export class StreamGuard {
  error: Error | undefined;
  private readonly waiting = new Set<(e: Error) => void>();
  watch(...streams: NodeJS.EventEmitter[]) {
    for (const st of streams)
      st.on('error', (e: Error) => {
        this.error ??= e;
        const failure = writeFailed(this.error);
        for (const reject of this.waiting) reject(failure);
        this.waiting.clear();
      });
  }
  wait<T>(p: Promise<T> | undefined): Promise<T | undefined> {
    if (!p) return Promise.resolve(undefined);
    if (this.error) {
      p.catch(() => undefined);
      return Promise.reject(writeFailed(this.error));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      p.then(
        (v) => {
          this.waiting.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.waiting.delete(reject);
          reject(e);
        },
      );
    });
  }
}

/**
 * The zip being written (services/zip-writer.ts): one entry at a time, each streamed from its source
 * into the file (backpressure: a file is read no faster than the disk takes the zip), each entry's
 * central-directory record spooled to `${part}.cd.part` beside it rather than kept in memory, so the
 * export's memory does not grow with its number of documents; ZIP64 only when the zip needs it. (yazl,
 * before, kept ~0.5 KB an entry until the end; archiver ~4.7 KB.) The stream guard sees the file's and
 * the spool's errors.
 */
export class ZipWriter {
  private readonly zip: StreamingZipWriter;
  constructor(
    private readonly out: WriteStream,
    private readonly guard: StreamGuard,
    spoolPath: string,
  ) {
    this.zip = new StreamingZipWriter(out, { spoolPath });
    guard.watch(...this.zip.streams);
  }
  /** Adds one entry; resolves once its source is read to the end, so one file is open at a time. */
  async add(src: NodeJS.ReadableStream | Buffer, name: string, compress: boolean): Promise<void> {
    await this.guard.wait(this.zip.add(src, name, compress));
  }
  /** Writes the central directory and waits until the file is closed. */
  async finish(): Promise<void> {
    await this.guard.wait(this.zip.finish());
    await this.guard.wait(closed(this.out));
    if (this.guard.error) throw writeFailed(this.guard.error);
  }
  abort() {
    void this.zip.abort().catch(() => undefined);
  }
}

/**
 * Works an export job the runner has claimed (state running, ours). Returns the number of documents
 * handled. With maxItems it stops after that many, keeping the job as a process that dies would.
 */
export async function workExport(ctx: ExportWorkContext, claimed: JobRow, actor: Actor | null, opts: { maxItems?: number } = {}): Promise<number> {
  const { store, dir } = ctx;
  const jobId = claimed.id;
  const attempt = `${ctx.bootId.slice(0, 8)}-${Date.now().toString(36)}`;
  const begun = await store.transaction(async (tx) => {
    const job = await lockJob(tx, jobId);
    if (!job || job.state !== 'running' || job.locked_by !== ctx.bootId) return null;
    if (!actor || job.database_id === null) {
      await failJob(tx, job, 'The user who started the job no longer exists', 'ERROR_NOT_FOUND', new Date(ctx.now()));
      return null;
    }
    // Started before (a process died, or stopped): from scratch.
    await tx.query(`UPDATE job_items SET state = 'pending', reason = NULL, reason_key = NULL, handled_at = NULL WHERE job_id = $1 AND state <> 'pending'`, [jobId]);
    await tx.query('UPDATE jobs SET succeeded = 0, failed = 0, progress = 0, notes = $2::jsonb, result = NULL WHERE id = $1', [jobId, '[]']);
    return job;
  });
  if (!begun || !actor) return 0;
  await removeParts(dir, jobId);
  const params = begun.payload as ExportJobParams;
  const dbId = begun.database_id as number;
  const streams: { abandon?: () => Promise<void> } = {};
  try {
    return await run(ctx, begun, params, dbId, actor, attempt, opts, streams);
  } catch (e) {
    // Its streams closed (the file being read among them) before the files go.
    await streams.abandon?.();
    await removeParts(dir, jobId);
    // The database went away: the pass ends and the export is tried again later. Anything else (the
    // disk is full, a file broke the zip) would fail the same way again: the job fails with its reason.
    if (e instanceof DbError) throw e;
    ctx.log(`export job ${jobId} failed`, e);
    const reason = e instanceof ExportAborted ? e.message : 'The export file could not be written';
    await store.transaction(async (tx) => {
      const job = await lockJob(tx, jobId);
      if (job && job.state === 'running' && job.locked_by === ctx.bootId) await failJob(tx, job, reason, undefined, new Date(ctx.now()));
    });
    return 1;
  }
}

async function run(
  ctx: ExportWorkContext,
  job: JobRow,
  params: ExportJobParams,
  dbId: number,
  actor: Actor,
  attempt: string,
  opts: { maxItems?: number },
  streams: { abandon?: () => Promise<void> },
): Promise<number> {
  const { store, dir } = ctx;
  const s = params.settings;
  const jobId = job.id;
  const partPath = join(dir, `job-${jobId}-${attempt}.part`);
  const csvPath = join(dir, `job-${jobId}-${attempt}.csv.part`);
  const bit = exportBit(params.format);
  const folder = s.FilePath?.trim() ? `${safeFileName(s.FilePath)}/` : '';
  const names = new UniqueNames();

  // The CSV's columns: ArchiveID, DocID, File, then FieldIDs (default: the fields of ArchiveID).
  const fieldIds = s.FieldIDs?.length
    ? s.FieldIDs
    : (await store.query<{ field_id: number }>('SELECT field_id FROM archive_fields WHERE archive_id = $1 ORDER BY position, field_id', [s.ArchiveID])).rows.map((r) => r.field_id);
  const fields: FieldRow[] = [];
  for (const id of fieldIds) {
    const f = await fieldById(store, dbId, id);
    if (f) fields.push(f);
  }
  const nameField = params.field !== null ? ((await fieldById(store, dbId, params.field)) ?? null) : null;
  const header = ['ArchiveID', 'DocID', 'File', ...fields.map((f) => f.name)];

  const withCsv = params.format === 'zip' && Boolean(s.ExportWithCSV);
  // alwaysExportZip=false: one document of one file is that file itself; anything more is a zip.
  let single = params.format === 'zip' && !withCsv && !params.alwaysExportZip && job.total === 1;
  if (single) {
    const n = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM document_files f JOIN job_items i ON i.document_id = f.document_id WHERE i.job_id = $1', [jobId]);
    single = n.rows[0]?.n === 1;
  }
  let csvName = '';
  let sink: Sink;
  if (params.format === 'xlsx') {
    sink = { kind: 'xlsx', writer: createXlsxWriter(partPath, 'Index data', header) };
  } else if (single) {
    sink = { kind: 'single', path: partPath, name: null, ext: null };
  } else {
    const guard = new StreamGuard();
    const zip = new ZipWriter(createWriteStream(partPath), guard, `${partPath}.cd.part`);
    let csv: WriteStream | null = null;
    if (withCsv) {
      // Reserved first, so no document's file takes the CSV's name.
      const c = splitName(safeFileName(s.CsvFile?.trim() || EXPORT_CSV_NAME), 'csv');
      csvName = names.take(c.base, c.ext || 'csv');
      csv = createWriteStream(csvPath);
      guard.watch(csv);
      await guard.wait(write(csv, csvLine(header, s)));
    }
    sink = { kind: 'zip', zip, csv, csvPath: withCsv ? csvPath : null, guard };
  }

  const abandon = async () => {
    if (sink.kind === 'zip') {
      sink.zip.abort();
      sink.csv?.destroy();
    } else if (sink.kind === 'xlsx') {
      // exceljs has no abort: ending the workbook closes its file, which then goes.
      const writer = sink.writer;
      void writer
        .finish()
        .catch(() => undefined)
        .then(() => removeQuietly(partPath));
    }
  };
  streams.abandon = abandon;

  let handled = 0;
  let pending: Handled[] = [];
  let counts = { done: 0, failed: 0 };
  let lastFlush = Date.now();
  /** Writes the handled items and counters; false when the job is no longer ours to work (cancelled, taken over). */
  const flush = async (): Promise<boolean> => {
    const batch = pending;
    const c = counts;
    pending = [];
    counts = { done: 0, failed: 0 };
    lastFlush = Date.now();
    return store.transaction(async (tx) => {
      const now = new Date(ctx.now());
      const j = await lockJob(tx, jobId);
      if (!j || j.state !== 'running' || j.locked_by !== ctx.bootId) return false;
      if (batch.length) {
        // The positions as an array too: with it the planner walks the primary key to these few items
        // instead of joining the whole job (100,000 items) at every write.
        await tx.query(
          `UPDATE job_items i SET state = t.s, reason = t.r, reason_key = t.k, handled_at = $2
             FROM jsonb_to_recordset($3::jsonb) AS t(p int, s text, r text, k text)
            WHERE i.job_id = $1 AND i.position = ANY($4::int[]) AND i.position = t.p`,
          [jobId, now, JSON.stringify(batch), intArray(batch.map((b) => b.p))],
        );
      }
      await tx.query(
        `UPDATE jobs SET succeeded = succeeded + $2::int, failed = failed + $3::int, progress = progress + $2::int + $3::int, updated_at = $4, lease_until = $5 WHERE id = $1`,
        [jobId, c.done, c.failed, now, new Date(now.getTime() + ctx.leaseMs)],
      );
      return true;
    });
  };

  let archives = new Map<number, ArchiveRow>();
  // Positions run 0..total-1 (export-request.ts writes them so): each batch is a closed range, which
  // the primary key serves alone. 'position > n ORDER BY position LIMIT 100' read and sorted every item
  // after n (no statistics on a new job's items), ~200 ms a batch in the middle of 100,000.
  for (let from = 0; from < job.total; from += BATCH) {
    const items = (
      await store.query<{ position: number; archive_id: number; document_id: number }>(
        'SELECT position, archive_id, document_id FROM job_items WHERE job_id = $1 AND position >= $2 AND position < $3 ORDER BY position',
        [jobId, from, from + BATCH],
      )
    ).rows.map((i) => ({ ...i, document_id: Number(i.document_id) }));
    if (!items.length) continue;
    // Rights are read again for every batch: a right taken away while the export runs applies.
    archives = new Map((await archivesWithRights(store, dbId, actor.userId)).map((a) => [a.id, a]));
    const ids = intArray(items.map((i) => i.document_id));
    const docs = new Map(
      (await store.query<DocRow>('SELECT id, archive_id, deleted, fields, mvals FROM documents WHERE id = ANY($1::bigint[])', [ids])).rows.map((d) => [Number(d.id), d]),
    );
    const fileRows = new Map<number, FileRow[]>();
    for (const f of (await store.query<FileRow>('SELECT document_id, sha256, file_name, file_type FROM document_files WHERE document_id = ANY($1::bigint[]) ORDER BY document_id, position, id', [ids])).rows) {
      const k = Number(f.document_id);
      fileRows.set(k, [...(fileRows.get(k) ?? []), f]);
    }

    for (const item of items) {
      if (ctx.stopping()) {
        await abandon();
        await removeParts(dir, jobId);
        await store.query('UPDATE jobs SET locked_by = NULL, lease_until = NULL WHERE id = $1 AND locked_by = $2', [jobId, ctx.bootId]);
        return handled;
      }
      const doc = docs.get(item.document_id);
      const archive = archives.get(item.archive_id);
      let failure: { r: string; k: string } | null = null;
      if (!doc || doc.deleted || doc.archive_id !== item.archive_id) failure = { r: `The document no longer exists in archive ${archive?.name ?? item.archive_id}`, k: 'ERROR_NOT_FOUND' };
      else if (!archive || (archive.rights & ARCHIVE_PERMISSIONS.view) === 0 || (archive.rights & bit) === 0) {
        failure = { r: 'You do not have permission to export documents of this archive', k: 'ERROR_FAILED_DUE_TO_PERMISSIONS' };
      }
      if (!failure && doc) failure = await addDocument(ctx, sink, params, doc, fileRows.get(doc.id) ?? [], { folder, names, nameField, fields, header });
      if (failure) {
        pending.push({ p: item.position, s: 'failed', r: failure.r, k: failure.k });
        counts.failed++;
      } else {
        pending.push({ p: item.position, s: 'done', r: null, k: null });
        counts.done++;
      }
      handled++;
      if (sink.kind === 'zip' && sink.guard.error) throw writeFailed(sink.guard.error);
      if (pending.length >= FLUSH_DOCS || Date.now() - lastFlush >= FLUSH_MS || (opts.maxItems !== undefined && handled >= opts.maxItems)) {
        if (!(await flush())) {
          // Cancelled (DELETE api/jobs/{id}) or taken over after our lease lapsed: stop, leave nothing behind.
          await abandon();
          await removeParts(dir, jobId);
          return handled;
        }
      }
      if (opts.maxItems !== undefined && handled >= opts.maxItems) {
        await abandon();
        return handled;
      }
    }
  }
  if (!(await flush())) {
    await abandon();
    await removeParts(dir, jobId);
    return handled;
  }

  // The file is complete: close it and move it into place.
  let ext: string;
  if (sink.kind === 'zip') {
    if (sink.csv) {
      sink.csv.end();
      await sink.guard.wait(closed(sink.csv));
      const fh = await open(csvPath);
      // Deflated: index data is text.
      await sink.zip.add(fh.createReadStream(), `${folder}${csvName}`, true);
    }
    await sink.zip.finish();
    ext = 'zip';
  } else if (sink.kind === 'xlsx') {
    await sink.writer.finish();
    ext = 'xlsx';
  } else {
    ext = sink.ext ?? 'bin';
  }
  const finalName = `job-${jobId}.${ext}`;
  const finalPath = join(dir, finalName);
  const nothingDone = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_items WHERE job_id = $1 AND state = 'done'`, [jobId]);
  const succeeded = nothingDone.rows[0]?.n ?? 0;
  if (succeeded === 0 || (sink.kind === 'single' && sink.name === null)) {
    await removeParts(dir, jobId);
    throw new ExportAborted('No document could be exported');
  }
  await rename(sink.kind === 'xlsx' || sink.kind === 'zip' ? partPath : sink.path, finalPath);
  await removeParts(dir, jobId);
  const size = (await stat(finalPath)).size;
  const fileName = sink.kind === 'single' && !s.Filename?.trim() ? `${sink.name}.${ext}` : resultFileName(jobId, s.Filename, ext);

  const finished = await store.transaction(async (tx) => {
    const now = new Date(ctx.now());
    const j = await lockJob(tx, jobId);
    if (!j || j.state !== 'running' || j.locked_by !== ctx.bootId) return false;
    const expires = new Date(now.getTime() + EXPORT_KEEP_MS).toISOString();
    const result: ExportResult = { File: finalName, FileName: fileName, Size: size, Format: params.format, Mime: mimeOf(ext), Expires: expires };
    const note: ExportNote = { JobId: jobId, FileName: fileName, Size: size, Format: params.format, Expires: expires };
    if (params.auditEntry) {
      const [kind, message] =
        params.format === 'xlsx'
          ? ['exported', 'Index data exported to Excel']
          : withCsv
            ? ['exported-csv', 'Document exported with CSV index data']
            : s.ConvertToPDF
              ? ['exported-pdf', 'Document exported as PDF']
              : ['exported', 'Document exported'];
      // One statement for every document of the export (an export of 100,000 writes 100,000 entries).
      await tx.query(
        `INSERT INTO audit_entries (database_id, archive_id, document_id, message, category, time, user_name, user_id, details)
         SELECT $2, i.archive_id, i.document_id, $3, 'exported', $4, $5, $6, $7::jsonb FROM job_items i WHERE i.job_id = $1 AND i.state = 'done' ORDER BY i.position`,
        [jobId, dbId, message, now, actor.userName, actor.userId, JSON.stringify({ JobId: jobId, Event: { Kind: kind } })],
      );
    }
    await tx.query(
      `UPDATE jobs SET state = 'done', finished_at = $2, updated_at = $2, locked_by = NULL, lease_until = NULL, result = $3::jsonb, notes = $4::jsonb WHERE id = $1`,
      [jobId, now, JSON.stringify(result), JSON.stringify([[JOB_NOTE_KINDS.export, note]])],
    );
    return true;
  });
  if (!finished) await removeQuietly(finalPath);
  return Math.max(handled, 1);
}

/** Puts one document into the export; returns its failure, or null. */
async function addDocument(
  ctx: ExportWorkContext,
  sink: Sink,
  params: ExportJobParams,
  doc: DocRow,
  fileRows: FileRow[],
  c: { folder: string; names: UniqueNames; nameField: FieldRow | null; fields: FieldRow[]; header: string[] },
): Promise<{ r: string; k: string } | null> {
  const s = params.settings;
  const docId = Number(doc.id);
  const cells = c.fields.map((f) => fieldCell(f, doc));
  if (sink.kind === 'xlsx') {
    sink.writer.addRow([doc.archive_id, docId, fileRows.map((f) => f.file_name).join('; ') || null, ...cells]);
    return null;
  }
  const conv = { toPdf: Boolean(s.ConvertToPDF), toBw: Boolean(s.ConvertToBW) };
  const stored = await filesOf(ctx, docId, fileRows, conv);
  // WithAnnotations: the document's annotations drawn onto its pages (annotation-burn.ts).
  const files = s.WithAnnotations ? await burnAnnotations(ctx.store, docId, stored, conv.toPdf || conv.toBw) : stored;
  // field=: the document's value names its files; an empty value leaves the file's own name.
  const value = c.nameField ? fieldText(c.nameField, doc).trim() : '';
  const entries: string[] = [];
  for (const f of files) {
    let src: NodeJS.ReadableStream | Buffer;
    try {
      src = await opened(await f.open());
    } catch (e) {
      // A file the conversion cannot read, or a page over the page budget, says so with its own key.
      if (e instanceof ApiError && e.status === FILE_REFUSED_STATUS && e.key) return { r: e.message, k: e.key };
      ctx.log(`export: file of document ${docId} unreadable`, e);
      return { r: 'The file of this document could not be read', k: 'ERROR_NOT_FOUND' };
    }
    const base = safeFileName(value || f.base);
    const name = c.names.take(base, f.ext);
    entries.push(name);
    if (sink.kind === 'single') {
      // The export of one document's one file is that file itself (alwaysExportZip=false).
      await pipeline(Buffer.isBuffer(src) ? Readable.from([src]) : src, createWriteStream(sink.path));
      const dot = name.lastIndexOf('.');
      sink.name = dot > 0 ? name.slice(0, dot) : name;
      sink.ext = f.ext || 'bin';
      continue;
    }
    await sink.zip.add(src, `${c.folder}${name}`, !STORED_EXTS.has(f.ext.toLowerCase()));
  }
  if (sink.kind === 'zip' && sink.csv) {
    const texts = c.fields.map((f) => fieldText(f, doc));
    await sink.guard.wait(write(sink.csv, csvLine([String(doc.archive_id), String(docId), entries.join('; '), ...texts], s)));
  }
  return null;
}

/** The document's files as they go into the zip: as stored (from the rows the batch read), or converted (export-convert.ts). */
async function filesOf(ctx: ExportWorkContext, docId: number, rows: FileRow[], conv: ConvertOptions): Promise<OutFile[]> {
  if (conv.toPdf || conv.toBw) return (await exportFilesOf({ store: ctx.store, files: ctx.files }, docId, conv)).map((f) => ({ base: f.name, ext: f.ext, open: f.open }));
  return rows.map((f) => {
    const { base, ext } = splitName(f.file_name, f.file_type);
    return { base, ext, open: () => Promise.resolve(ctx.files.stream(f.sha256)) };
  });
}

// ---- The result file ----

export interface ExportDownload {
  path: string;
  fileName: string;
  mime: string;
  size: number;
}

/** 409 while the export runs: the error and the job, so the client can show its progress. */
export class ExportNotReady extends ApiError {
  constructor(readonly job: Job) {
    super(409, `Export ${job.Id} is not ready yet (${job.Processed} of ${job.Count} documents done)`, EXPORT_NOT_READY_KEY);
  }
}

const expired = (jobId: number) => new ApiError(410, `Export ${jobId} has expired: its file is kept ${EXPORT_KEEP_HOURS} hours`, EXPORT_EXPIRED_KEY);

/**
 * The finished export's file, for its owner: 404 unknown (or another user's, or another database's),
 * 400 not an export, 409 still running, 410 expired (the file is removed then if the purge has not
 * yet), 404 an export that ended without a file (cancelled or failed).
 */
export async function exportDownload(db: Queryable, dir: string, ownerId: number, dbId: number, jobId: number, now: number): Promise<ExportDownload> {
  const r = await db.query<JobRow>(
    `SELECT id, kind, state, total, received, succeeded, failed, notes, owner_id, database_id, key, archive_id, destination_archive_id,
            result, payload, locked_by, lease_until, created_at, updated_at, finished_at
       FROM jobs WHERE id = $1 AND owner_id = $2`,
    [jobId, ownerId],
  );
  const row = r.rows[0];
  if (!row || row.database_id !== dbId) throw Errors.notFound(`Job ${jobId} does not exist`);
  const job: JobRow = { ...row, id: Number(row.id), total: Number(row.total), received: Number(row.received), succeeded: Number(row.succeeded), failed: Number(row.failed) };
  if (job.kind !== EXPORT_JOB_KIND) throw Errors.badRequest(`Job ${jobId} is not an export`);
  if (job.state === 'queued' || job.state === 'running') throw new ExportNotReady(toWire(job));
  const result = job.result as ExportResult | null;
  if (job.state !== 'done' || !result?.File) throw Errors.notFound(`Export ${jobId} ${job.state === 'cancelled' ? 'was cancelled' : 'failed'}: it has no file`);
  const path = join(dir, result.File);
  if (result.Expired || Date.parse(result.Expires) <= now) {
    await removeQuietly(path);
    throw expired(jobId);
  }
  // Not on this server's disk (another process with its own DATA_DIR, or removed by hand).
  const st = await stat(path).catch(() => null);
  if (!st) throw expired(jobId);
  return { path, fileName: result.FileName, mime: result.Mime, size: st.size };
}

/**
 * Removes export files past their time (the job is kept: its GET answers 410) and temporary files
 * that no running export owns (left by a crash). At start and every hour (app.ts).
 */
export async function purgeExports(store: Store, dir: string, now: number): Promise<number> {
  const r = await store.query<{ id: number; result: ExportResult }>(
    `SELECT id, result FROM jobs WHERE kind = 'export' AND result IS NOT NULL AND finished_at < $1 AND NOT (result ? 'Expired') AND result ? 'File'`,
    [new Date(now - EXPORT_KEEP_MS)],
  );
  for (const j of r.rows) {
    await removeQuietly(join(dir, j.result.File));
    await store.query(`UPDATE jobs SET result = result || '{"Expired": true}'::jsonb WHERE id = $1`, [j.id]);
  }
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^job-\d+[-.]/.test(n));
  if (!names.length) return r.rows.length;
  // A running export's files stay (also its result in the moment between its rename and its commit),
  // and the results still kept; the rest was left by a crash, expired, or lost its job (its database
  // removed, or purged after JOB_KEEP_MS).
  const running = new Set(
    (await store.query<{ id: number }>(`SELECT id FROM jobs WHERE kind = 'export' AND state IN ('queued', 'running')`)).rows.map((x) => Number(x.id)),
  );
  const kept = new Set(
    (await store.query<{ file: string }>(`SELECT result->>'File' AS file FROM jobs WHERE kind = 'export' AND state = 'done' AND result ? 'File' AND NOT (result ? 'Expired')`)).rows.map(
      (x) => x.file,
    ),
  );
  for (const n of names) {
    const id = Number(/^job-(\d+)/.exec(n)![1]);
    if (!running.has(id) && !kept.has(n)) await removeQuietly(join(dir, n));
  }
  return r.rows.length;
}
