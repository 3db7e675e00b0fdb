/**
 * Saving a finished export into a folder the user picked (issue 10 item 1, File System Access API):
 * a zip is unpacked into it as it streams from the server (unzip-to-folder.ts), an .xlsx (or a single
 * file) is written as one file. Nothing about the folder is kept. Loaded on the click (with fflate).
 */
import type { ExportNote } from '../../api/export';
import type { DirectoryLike } from '../../platform/pick-folder';
import { DownloadError, fetchExport } from './download-export';
import { UnsafePathError, ZipDamagedError, folderNameOf, unzipToFolder } from './unzip-to-folder';

/** Why saving into the folder failed, as a translation key (besides DownloadError's). */
export type FolderProblem = 'EXPORT_FOLDER_DENIED' | 'EXPORT_FOLDER_FULL' | 'EXPORT_FOLDER_UNSAFE_PATH' | 'EXPORT_FOLDER_DAMAGED';

export class FolderError extends Error {
  constructor(readonly problem: FolderProblem) {
    super(problem);
    this.name = 'FolderError';
  }
}

export type FolderOutcome = { outcome: 'saved'; folder: string } | { outcome: 'cancelled' };

export interface FolderOptions {
  onProgress?: (bytes: number) => void;
  signal?: AbortSignal;
}

const isAbort = (e: unknown) => (e as { name?: string } | null)?.name === 'AbortError';

/** The file system's refusals in the user's words; others pass through unchanged. */
function asFolderError(e: unknown): unknown {
  const name = (e as { name?: string } | null)?.name;
  if (e instanceof UnsafePathError) return new FolderError('EXPORT_FOLDER_UNSAFE_PATH');
  if (e instanceof ZipDamagedError) return new FolderError('EXPORT_FOLDER_DAMAGED');
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'NoModificationAllowedError') return new FolderError('EXPORT_FOLDER_DENIED');
  if (name === 'QuotaExceededError') return new FolderError('EXPORT_FOLDER_FULL');
  return e;
}

/** Counts the bytes passing through, for the card's progress. */
function counting(body: ReadableStream<Uint8Array>, onProgress?: (bytes: number) => void): ReadableStream<Uint8Array> {
  let n = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        c.enqueue(chunk);
        n += chunk.length;
        onProgress?.(n);
      },
    }),
  );
}

/**
 * Fetches the export and writes it into `picked` (awaited here: the caller opened the picker on the
 * click). A closed picker or Cancel (the signal) resolves 'cancelled'. Throws DownloadError for the
 * server's refusals (410 expired ...) and a lost connection, FolderError for the file system's.
 */
export async function saveExportToFolder(dbId: number, note: ExportNote, picked: Promise<(DirectoryLike & { name: string }) | null>, o: FolderOptions = {}): Promise<FolderOutcome> {
  let dir: Awaited<typeof picked>;
  try {
    dir = await picked;
  } catch (e) {
    throw asFolderError(e);
  }
  if (!dir) return { outcome: 'cancelled' };
  let res: Response;
  try {
    res = await fetchExport(dbId, note.JobId, o.signal);
  } catch (e) {
    if (isAbort(e)) return { outcome: 'cancelled' };
    throw e;
  }
  if (!res.body) throw new DownloadError('EXPORT_DOWNLOAD_FAILED');
  const network = (e: unknown) => (e instanceof TypeError ? new DownloadError('EXPORT_DOWNLOAD_OFFLINE') : e);
  try {
    if (note.Format === 'zip' && /\.zip$/i.test(note.FileName)) {
      const wrapIn = folderNameOf(note.FileName);
      await unzipToFolder(res.body, dir, { wrapIn, onProgress: o.onProgress, signal: o.signal });
      return { outcome: 'saved', folder: `${dir.name}/${wrapIn}` };
    }
    // One file (.xlsx, or an export of one document's file): streamed into it.
    const writable = await (await dir.getFileHandle(note.FileName, { create: true })).createWritable();
    const reader = counting(res.body, o.onProgress).getReader();
    try {
      for (;;) {
        if (o.signal?.aborted) throw o.signal.reason ?? new DOMException('Aborted', 'AbortError');
        const { done, value } = await reader.read();
        if (done) break;
        await writable.write(value);
      }
      await writable.close();
    } catch (e) {
      await reader.cancel().catch(() => undefined);
      await writable.abort().catch(() => undefined);
      throw e;
    }
    return { outcome: 'saved', folder: dir.name };
  } catch (e) {
    if (isAbort(e)) return { outcome: 'cancelled' };
    throw network(asFolderError(e));
  }
}
