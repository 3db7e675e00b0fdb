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
 * The files written differ from the zip's central directory. A streaming unzip cannot know where a
 * stored entry with a data descriptor (as the server's zip writes every file) ends except by looking
 * for the next signature, so a file whose bytes happen to hold "PK\x07\x08" or "PK\x03\x04" is cut
 * short without a word from fflate (measured: a 5,000-byte entry written as 1,000). The central
 * directory at the zip's end has every entry's real size: checked there, so a cut file is said.
 */
export class ZipDamagedError extends Error {
  constructor(readonly path: string) {
    super(`file differs from the zip's directory: ${path}`);
    this.name = 'ZipDamagedError';
  }
}

/** The zip's last bytes kept for the central directory check (~75 bytes an entry: 100,000 entries fit). */
const TAIL_MAX = 16 * 1024 * 1024;

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, i: number) => u32(b, i) + u32(b, i + 4) * 2 ** 32;

/**
 * Every file entry's name and uncompressed size from the central directory, read from `tail` (the
 * zip's last bytes; `tailStart` its offset in the zip), or null when the directory is not all in it.
 */
export function centralDirectorySizes(tail: Uint8Array, tailStart: number): Map<string, number> | null {
  let eocd = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 65_535); i--) {
    if (u32(tail, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = u16(tail, eocd + 10);
  let offset = u32(tail, eocd + 16);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(tail, eocd - 20) === 0x07064b50) {
    const at = u64(tail, eocd - 12) - tailStart;
    if (at < 0 || u32(tail, at) !== 0x06064b50) return null;
    count = u64(tail, at + 32);
    offset = u64(tail, at + 48);
  }
  let i = offset - tailStart;
  if (i < 0) return null;
  const sizes = new Map<string, number>();
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (i + 46 > tail.length || u32(tail, i) !== 0x02014b50) return null;
    const nameLength = u16(tail, i + 28);
    const extraLength = u16(tail, i + 30);
    const raw = tail.subarray(i + 46, i + 46 + nameLength);
    // As fflate reads names: UTF-8 with flag bit 11, else one character a byte.
    const name = u16(tail, i + 8) & 0x800 ? decoder.decode(raw) : String.fromCharCode(...raw);
    let size = u32(tail, i + 24);
    if (size === 0xffffffff) {
      // ZIP64 extra field (0x0001): the uncompressed size comes first.
      for (let e = i + 46 + nameLength; e + 4 <= i + 46 + nameLength + extraLength; e += 4 + u16(tail, e + 2)) {
        if (u16(tail, e) === 1) {
          size = u64(tail, e + 4);
          break;
        }
      }
    }
    if (!name.endsWith('/')) sizes.set(name, size);
    i += 46 + nameLength + extraLength + u16(tail, i + 32);
  }
  return sizes;
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
  /** Bytes written per entry name, and the zip's last bytes, for the central directory check. */
  const sizes = new Map<string, number>();
  const tail: Uint8Array[] = [];
  let tailLength = 0;
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
    sizes.set(entry.name, 0);
    entry.ondata = (err, data, final) => {
      if (err) {
        failure ??= err;
        return;
      }
      sizes.set(entry.name, sizes.get(entry.name)! + data.length);
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
      tail.push(value);
      tailLength += value.length;
      while (tail.length > 1 && tailLength - tail[0]!.length >= TAIL_MAX) tailLength -= tail.shift()!.length;
      onProgress?.(consumed);
    }
    if (state.open) throw new Error('zip ended inside an entry');
    const all = new Uint8Array(tailLength);
    let at = 0;
    for (const c of tail) {
      all.set(c, at);
      at += c.length;
    }
    const expected = centralDirectorySizes(all, consumed - tailLength);
    if (!expected) throw new ZipDamagedError('(central directory)');
    for (const [name, size] of expected) if (sizes.get(name) !== size) throw new ZipDamagedError(name);
    for (const name of sizes.keys()) if (!name.endsWith('/') && !expected.has(name)) throw new ZipDamagedError(name);
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    await state.open?.abort().catch(() => undefined);
    throw e;
  }
  return written;
}
