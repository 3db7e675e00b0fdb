/**
 * The outbox kind of an import of documents with index data (issue 11 item 3; src/api/import.ts):
 * ONE entry per confirmed import, with its own target, so an import that waits for its files never
 * holds back other changes. Sending it is three steps, each resumable:
 *
 *  (a) the files: each file the rows name was queued as an upload (src/sync/uploads.ts) when the user
 *      confirmed, and the entry keeps the upload record's id. While any of them is still going
 *      (queued, hashing, sending, waiting) or paused by the user, the entry waits (OutboxWait
 *      IMPORT_WAITING_FILES: not an attempt, the tray says why). A failed upload does NOT hold the
 *      import: the upload engine only fails a file after its own retries, and an import waiting on a
 *      failure nobody retries would wait for ever; so a failed or never-queued file (null) is sent
 *      without Upload, and the server fails that file's rows with ERROR_IMPORT_FILE_MISSING while the
 *      other rows are imported. A done upload's server job id fills Files[i].Upload. A record that is
 *      gone (the user cancelled the upload, or cleared it from the tray once done) is sent with the
 *      server job last seen for it (meta.known), if any: the server imports the file if that upload
 *      finished, else fails its rows as missing.
 *  (b) the rows, BULK_UPDATE_BATCH_ROWS at a time, under the entry's stable rows key; meta.batches
 *      counts the batches the server has (ctx.saveProgress), so a drain that dies re-sends at most the
 *      batch in flight (a repeated batch changes nothing on the server).
 *  (c) ImportDocuments with the entry's id as the Idempotency-Key -> ImportAccepted; followUp records
 *      the job (trackJob, kind IMPORT_JOB_KIND) so the tray shows its progress and 'Line n: reason'.
 *      If the server no longer has the rows (409 BULK_UPDATE_ROWS_MISSING: kept 24 h), they are sent
 *      again once and the start repeated.
 *
 * What is stored where: the request (without the files' Upload ids) and the rows in `body`; the
 * upload ids, the rows key, the progress and what the tray shows in `meta` (ImportMeta). A refusal's
 * catalogue key is kept in meta.refusedKey for the tray, as bulk update does. No React here: the
 * service worker runs it too.
 */
import { isApiError } from '../../api/api-error';
import { BULK_UPDATE_BATCH_ROWS, BULK_UPDATE_ROWS_MISSING_KEY, type CsvRow } from '../../api/bulk-update';
import { IDEMPOTENCY_HEADER } from '../../api/errors';
import { apiRequest } from '../../api/http';
import { IMPORT_JOB_KIND, ImportAccepted, ImportRowsReceived, importPaths, type ImportFile, type ImportRequestInput } from '../../api/import';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type UploadRecord, type Words } from '../../db/db';
import { getSession } from '../../session/session';
import { trackJob } from '../jobs';
import { jobTitleWords } from '../job-title';
import { OutboxWait, registerKind, type OutboxKind, type SendContext } from '../kinds';
import { enqueue } from '../outbox';
import { isActiveUpload } from '../uploads';

export const IMPORT_KIND = 'import';
/** Why an import waits (the tray translates it). */
export const IMPORT_WAITING_FILES = 'IMPORT_WAITING_FILES';

/** The request as stored: Files without Upload (filled when sent), Key the entry's rows key. */
export type StoredImportRequest = Omit<ImportRequestInput, 'Files'> & { Files: Pick<ImportFile, 'Name'>[] };

export interface ImportBody {
  request: StoredImportRequest;
  rows: CsvRow[];
}

export interface ImportMeta {
  dbId: number;
  archiveId: number;
  /** "Import of 12 documents from invoices.csv", worded by the caller: the fallback of titleWords. */
  title: string;
  /** The same as words (jobs-view.ts jobTitleWords), said in the language of the moment. */
  titleWords?: Words;
  /** The CSV file's name (names the job). */
  csvName?: string;
  /** Rows to import (the job's Count replaces it). */
  count: number;
  /** The local upload record of each file of request.Files (same index); null: no file to send. */
  uploads: (string | null)[];
  /** Batches of rows the server has acknowledged. */
  batches: number;
  /** The server upload job of each file as last seen (resolveImportFiles). */
  known?: (string | null)[];
  refusedKey?: string;
}

export function isImportMeta(m: unknown): m is ImportMeta {
  const o = m as Partial<ImportMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.dbId === 'number' && typeof o.archiveId === 'number' && Array.isArray(o.uploads) && typeof o.title === 'string';
}

const isImportBody = (b: unknown): b is ImportBody => typeof b === 'object' && b !== null && Array.isArray((b as ImportBody).rows) && typeof (b as ImportBody).request === 'object';

/** Whether the import must wait for this file: it is still on its way, or paused by the user (who may resume or cancel it). */
export const uploadHoldsImport = (r: Pick<UploadRecord, 'state'> | undefined): boolean => r !== undefined && (isActiveUpload(r) || r.state === 'paused');

/**
 * The files as ImportDocuments takes them: each done upload's server job, the others without Upload;
 * `waiting` while one is still on its way. `known` holds the server job of each upload as last seen
 * (an upload has its job from its first chunk on): a done upload the user cleared from the tray
 * before the import went is sent with it still (the server checks that upload finished).
 */
export async function resolveImportFiles(
  files: readonly Pick<ImportFile, 'Name'>[],
  uploads: readonly (string | null)[],
  known: readonly (string | null)[],
  database: ArchiveDb,
): Promise<{ waiting: boolean; files: ImportFile[]; known: (string | null)[] }> {
  const ids = uploads.map((u) => u ?? '');
  const records = await database.uploads.bulkGet(ids.filter(Boolean));
  const byId = new Map(records.filter((r): r is UploadRecord => r !== undefined).map((r) => [r.id, r]));
  const seen = ids.map((id, i) => byId.get(id)?.jobId ?? known[i] ?? null);
  const waiting = ids.some((id) => uploadHoldsImport(byId.get(id)));
  const out = files.map((f, i): ImportFile => {
    const r = byId.get(ids[i] ?? '');
    const job = r ? (r.state === 'done' ? r.jobId : undefined) : (seen[i] ?? undefined);
    return job ? { Name: f.Name, Upload: job } : { Name: f.Name };
  });
  return { waiting, files: out, known: seen };
}

async function sendRows(dbId: number, key: string, rows: readonly CsvRow[], from: number, onBatch: (done: number) => Promise<void>): Promise<void> {
  const batches = Math.ceil(rows.length / BULK_UPDATE_BATCH_ROWS);
  for (let i = from; i < batches; i++) {
    const Rows = rows.slice(i * BULK_UPDATE_BATCH_ROWS, (i + 1) * BULK_UPDATE_BATCH_ROWS);
    await apiRequest({ method: 'POST', path: importPaths.rows(dbId), body: { Key: key, Index: i, Total: rows.length, Rows }, auth: 'header', schema: ImportRowsReceived });
    await onBatch(i + 1);
  }
}

export async function sendImport(entry: OutboxEntry, ctx: SendContext): Promise<ImportAccepted> {
  if (!isImportMeta(entry.meta) || !isImportBody(entry.body)) throw new Error('Not an import entry');
  let meta: ImportMeta = entry.meta;
  const { request, rows } = entry.body;
  const dbId = meta.dbId;
  const progress = async (batches: number) => {
    meta = { ...meta, batches };
    await ctx.saveProgress({ meta });
  };
  // Each upload's server job is kept as it is seen, even while the import waits (see resolveImportFiles).
  const resolved = await resolveImportFiles(request.Files, meta.uploads, meta.known ?? [], ctx.database);
  if (resolved.known.some((k, i) => k !== (meta.known?.[i] ?? null))) {
    meta = { ...meta, known: resolved.known };
    await ctx.saveProgress({ meta });
  }
  if (resolved.waiting) throw new OutboxWait(IMPORT_WAITING_FILES);
  const Files = resolved.files;
  // The server keeps a key's first answer, a refusal too: the start after the rows were sent again
  // goes under its own key (the job is named by the rows' Key, so it is never made twice).
  const start = (key: string = entry.id) =>
    apiRequest({
      method: 'POST',
      path: importPaths.start(dbId),
      headers: { ...entry.headers, [IDEMPOTENCY_HEADER]: key },
      body: { ...request, Total: rows.length, Files },
      auth: 'header',
      schema: ImportAccepted,
    });
  try {
    await sendRows(dbId, request.Key, rows, meta.batches ?? 0, progress);
    try {
      return await start();
    } catch (e) {
      // The server dropped the staged rows (kept BULK_UPDATE_ROWS_KEEP_HOURS): once more from the first batch.
      if (!(isApiError(e) && e.kind === 'http' && e.status === 409 && e.key === BULK_UPDATE_ROWS_MISSING_KEY)) throw e;
      await progress(0);
      await sendRows(dbId, request.Key, rows, 0, progress);
      return await start(`${entry.id}:rows-again`);
    }
  } catch (e) {
    if (isApiError(e) && e.kind === 'http' && e.status >= 400 && e.status < 500 && !e.loginRedirect) {
      const { refusedKey: _old, ...rest } = meta;
      await ctx.saveProgress({ meta: e.key ? { ...rest, refusedKey: e.key } : rest });
    }
    throw e;
  }
}

export async function followImport(database: ArchiveDb, entry: OutboxEntry, result: unknown): Promise<void> {
  if (!isImportMeta(entry.meta)) return;
  const parsed = ImportAccepted.safeParse(result);
  if (!parsed.success) return;
  const m = entry.meta;
  await trackJob({ id: parsed.data.JobId, dbId: m.dbId, kind: IMPORT_JOB_KIND, total: parsed.data.Count, owner: entry.owner ?? null, ...(m.csvName ? { name: m.csvName } : { title: m.title }), archiveId: m.archiveId, entryId: entry.id }, database);
}

export const importKind: OutboxKind = { kind: IMPORT_KIND, send: sendImport, response: ImportAccepted, followUp: followImport };
registerKind(importKind);

export interface ImportInput {
  /** Import options without the staged rows' Key and Total and the files' Upload ids (filled here and when sent). */
  request: Omit<StoredImportRequest, 'Key' | 'Total'>;
  rows: CsvRow[];
  /** The upload record of each of request.Files (same index), null for a file not sent. */
  uploads: (string | null)[];
  title: string;
}

/** Keeps one confirmed import in the outbox (queued); the enqueue trigger sends it. Resolves with the entry's id. */
export async function enqueueImport(input: ImportInput, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  if (input.uploads.length !== input.request.Files.length) throw new Error('One upload (or null) per file');
  const dbId = input.request.Database;
  const key = globalThis.crypto.randomUUID();
  const body: ImportBody = { request: { ...input.request, Key: key, Total: input.rows.length }, rows: input.rows };
  const csvName = input.request.csvPath;
  const titleWords = jobTitleWords({ kind: IMPORT_JOB_KIND, total: input.rows.length, name: csvName });
  const meta: ImportMeta = { dbId, archiveId: input.request.Archive, title: input.title, ...(titleWords ? { titleWords } : {}), csvName, count: input.rows.length, uploads: input.uploads, batches: 0 };
  return enqueue(
    {
      kind: IMPORT_KIND,
      method: 'POST',
      path: importPaths.start(dbId),
      body,
      meta,
      target: `${dbId}|${IMPORT_KIND}|${key}`,
    },
    database,
    owner,
  );
}
