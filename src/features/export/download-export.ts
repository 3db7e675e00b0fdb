/**
 * Fetching a finished export (the user-app spec §7 GET api/dbs/{db}/export?jobid; src/api/export.ts) and
 * saving it. The token travels in the Auth-Token header, never in a URL the user could see, copy or
 * find in the download list. Nothing is stored: the server keeps the file until its Expires time and
 * the tray's job record (Dexie `jobs`) is what lets the user fetch it again after a reload.
 *
 * Where the browser has the File System Access API the user picks the file (showSaveFilePicker) and
 * the response body is piped into it chunk by chunk: a 2 GB zip never sits in memory. Elsewhere it is
 * downloaded through a Blob and an <a download> (see saveByDownload). The picking and writing are the
 * shared src/platform/save-file.ts.
 */
import { EXPORT_EXPIRED_KEY, EXPORT_NOT_READY_KEY, XLSX_MIME, exportPaths, type ExportNote } from '../../api/export';
import { TOKEN_HEADER } from '../../api/errors';
import { httpContext } from '../../api/http';
import { downloadBlob, hasSavePicker, pickSaveFile, writeToHandle, type SaveOutcome, type SavePickerWindow } from '../../platform/save-file';

/** Why a download did not happen, as a translation key. */
export type DownloadProblem = typeof EXPORT_NOT_READY_KEY | typeof EXPORT_EXPIRED_KEY | 'EXPORT_DOWNLOAD_GONE' | 'EXPORT_DOWNLOAD_OFFLINE' | 'EXPORT_DOWNLOAD_FAILED';

export class DownloadError extends Error {
  constructor(
    readonly problem: DownloadProblem,
    readonly status = 0,
  ) {
    super(problem);
    this.name = 'DownloadError';
  }
}

/** The problem of a non-2xx answer: 409 still being prepared, 410 expired, 404 gone (another user's or unknown). */
export function problemOfStatus(status: number): DownloadProblem {
  if (status === 409) return EXPORT_NOT_READY_KEY;
  if (status === 410) return EXPORT_EXPIRED_KEY;
  if (status === 404) return 'EXPORT_DOWNLOAD_GONE';
  return 'EXPORT_DOWNLOAD_FAILED';
}

/** The export's file on the wire: GET with the token in the header. Throws DownloadError. */
export async function fetchExport(dbId: number, jobId: number, signal?: AbortSignal): Promise<Response> {
  const { baseUrl, token } = httpContext();
  const url = `${baseUrl.replace(/\/+$/, '')}${exportPaths.job(dbId)}?jobid=${encodeURIComponent(String(jobId))}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { [TOKEN_HEADER]: token } : {}, signal });
  } catch (e) {
    if ((e as { name?: string })?.name === 'AbortError') throw e;
    throw new DownloadError('EXPORT_DOWNLOAD_OFFLINE');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new DownloadError(problemOfStatus(res.status), res.status);
  }
  return res;
}

const MIME_OF: Record<ExportNote['Format'], string> = { zip: 'application/zip', xlsx: XLSX_MIME };

/**
 * Saves a finished export. Call it straight from the click: the picker must open while the click's
 * user activation lasts, so it is asked first and the download starts beside it (a refused download
 * then removes the file the picker made). Where the picker may not open, it downloads instead.
 * Resolves 'cancelled' when the user closes the picker. Throws DownloadError for the server's
 * refusals and a lost connection.
 */
export async function saveExport(dbId: number, note: ExportNote, w: SavePickerWindow = globalThis as unknown as SavePickerWindow): Promise<SaveOutcome> {
  if (!hasSavePicker(w)) {
    await saveByDownload(await fetchExport(dbId, note.JobId), note.FileName);
    return 'downloaded';
  }
  const abort = new AbortController();
  const picking = pickSaveFile(note.FileName, MIME_OF[note.Format], w);
  const fetching = fetchExport(dbId, note.JobId, abort.signal);
  // Neither promise may go unhandled while the other is awaited.
  fetching.catch(() => undefined);
  let handle: Awaited<typeof picking>;
  try {
    handle = await picking;
  } catch (e) {
    abort.abort();
    throw e;
  }
  if (handle === null) {
    abort.abort();
    return 'cancelled';
  }
  const res = await fetching.catch(async (e: unknown) => {
    if (handle !== 'no-activation') await handle.remove?.().catch(() => undefined);
    throw e;
  });
  if (handle === 'no-activation' || !res.body) {
    await saveByDownload(res, note.FileName);
    return 'downloaded';
  }
  try {
    // Streamed: each chunk is written as it arrives, never the whole file in memory.
    await writeToHandle(handle, res.body);
  } catch {
    throw new DownloadError('EXPORT_DOWNLOAD_OFFLINE');
  }
  return 'saved';
}

/**
 * The fallback where there is no File System Access API (Firefox, Safari, iPadOS): the body is read
 * into a Blob and handed to the browser's downloads (src/platform/save-file.ts downloadBlob). This
 * costs the file's size in memory until the object URL is revoked (browsers may page a large Blob to
 * disk, but a tablet with little memory may fail on a multi-GB export).
 */
export async function saveByDownload(res: Response, fileName: string): Promise<void> {
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch {
    throw new DownloadError('EXPORT_DOWNLOAD_OFFLINE');
  }
  downloadBlob(blob, fileName);
}
