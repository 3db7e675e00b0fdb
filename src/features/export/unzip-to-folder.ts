/**
 * Unpacking an export's zip into a folder the user picked (File System Access API) as the response
 * streams in (issue 10 item 1). fflate's streaming Unzip is fed each network chunk; the entries'
 * bytes are written to their files before the next chunk is fed, so memory holds about one chunk
 * (plus what inflating it yields), never the zip. Loaded on the click only: the shell does not carry
 * fflate.
 */
import { Unzip, UnzipInflate } from 'fflate';
import type { DirectoryLike, WritableLike } from '../../platform/pick-folder';

/** An entry whose path would leave the chosen folder (or names nothing): the zip is not unpacked further. */
export class UnsafePathError extends Error {
  constructor(readonly path: string) {
    super(`unsafe path in zip: ${path}`);
    this.name = 'UnsafePathError';
  }
}

/**
 * The folder names and file name of a zip entry, or UnsafePathError. Refused: absolute paths (/x,
 * \x, C:...), '..' and '.' segments, empty names, and characters a file system refuses (the spec's
 * forbidden name characters, control characters). A trailing '/' marks a folder entry: [] as file.
 */
export function safeEntryPath(path: string): { folders: string[]; file: string | null } {
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) throw new UnsafePathError(path);
  const isFolder = p.endsWith('/');
  const parts = (isFolder ? p.slice(0, -1) : p).split('/');
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (parts.some((s) => s === '' || s === '.' || s === '..' || /[:*?"<>|\u0000-\u001f]/.test(s))) throw new UnsafePathError(path);
  return isFolder ? { folders: parts, file: null } : { folders: parts.slice(0, -1), file: parts.at(-1)! };
}

/** The sub-folder an export is unpacked into: its file name without .zip (made safe). */
export function folderNameOf(fileName: string): string {
  const base = fileName.replace(/\.zip$/i, '').replace(/[\\/:*?"<>|]/g, '_').trim();
  return base === '' || base === '.' || base === '..' ? 'export' : base;
}

async function folderAt(root: DirectoryLike, folders: string[], cache: Map<string, Promise<DirectoryLike>>): Promise<DirectoryLike> {
  let dir = root;
  let key = '';
  for (const name of folders) {
    key += `/${name}`;
    let next = cache.get(key);
    if (!next) {
      const parent = dir;
      next = parent.getDirectoryHandle(name, { create: true });
      cache.set(key, next);
    }
    dir = await next;
  }
  return dir;
}

/**
 * Unpacks the zip `body` into `root`, keeping the zip's own paths. With `wrapIn`, a zip whose first
 * entry lies at its top level (no FilePath folder) goes into the sub-folder `wrapIn`, so a folder of
 * other things does not get the export's files strewn in it; a zip that starts with a folder already
 * has one. `onProgress` gets the bytes of the zip consumed so far. Rejects with UnsafePathError for a path leaving `root`, with the stream's or
 * the file system's error otherwise (the files written so far stay; a file being written is aborted).
 */
export async function unzipToFolder(
  body: ReadableStream<Uint8Array>,
  root: DirectoryLike,
  options: { wrapIn?: string; onProgress?: (bytes: number) => void; signal?: AbortSignal } = {},
): Promise<string[]> {
  const { wrapIn, onProgress, signal } = options;
  let prefix: string[] | null = null;
  const written: string[] = [];
  const folders = new Map<string, Promise<DirectoryLike>>();
  // One chain of file-system work in the zip's order; fflate's callbacks are synchronous.
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  // The file being written (an object, so the closures' assignments are seen by the loop's checks).
  const state: { open: WritableLike | null } = { open: null };
  const then = (step: () => Promise<void>) => {
    chain = chain.then(() => (failure ? undefined : step())).catch((e: unknown) => {
      failure ??= e;
    });
  };

  const unzip = new Unzip((entry) => {
    let target: ReturnType<typeof safeEntryPath>;
    try {
      target = safeEntryPath(entry.name);
    } catch (e) {
      failure ??= e;
      return;
    }
    prefix ??= wrapIn && target.folders.length === 0 && target.file !== null ? [wrapIn] : [];
    target.folders = [...prefix, ...target.folders];
    if (target.file === null) {
      then(async () => void (await folderAt(root, target.folders, folders)));
      return;
    }
    const file = target.file;
    then(async () => {
      const dir = await folderAt(root, target.folders, folders);
      state.open = await (await dir.getFileHandle(file, { create: true })).createWritable();
    });
    entry.ondata = (err, data, final) => {
      if (err) {
        failure ??= err;
        return;
      }
      if (data.length) then(() => state.open!.write(data));
      if (final)
        then(async () => {
          await state.open!.close();
          state.open = null;
          written.push(entry.name);
        });
    };
    entry.start();
  });
  unzip.register(UnzipInflate);

  const reader = body.getReader();
  let consumed = 0;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
      const { done, value } = await reader.read();
      if (failure) throw failure;
      unzip.push(value ?? new Uint8Array(0), done);
      // The written bytes leave memory before the next chunk is read (backpressure on the network).
      await chain;
      if (failure) throw failure;
      if (done) break;
      consumed += value.length;
      onProgress?.(consumed);
    }
    if (state.open) throw new Error('zip ended inside an entry');
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    await state.open?.abort().catch(() => undefined);
    throw e;
  }
  return written;
}
