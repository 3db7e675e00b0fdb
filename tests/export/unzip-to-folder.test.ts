import { Zip, ZipDeflate, ZipPassThrough, zipSync, strToU8 } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportNote } from '../../src/api/export';
import { configureHttp } from '../../src/api/http';
import type { DirectoryLike } from '../../src/platform/pick-folder';
import { UnsafePathError, ZipDamagedError, centralDirectorySizes, folderNameOf, safeEntryPath, unzipToFolder } from '../../src/features/export/unzip-to-folder';
import { saveExportToFolder } from '../../src/features/export/save-to-folder';

afterEach(() => vi.unstubAllGlobals());

/** A folder in memory: files by path ('a/b.pdf'), each the chunks written, and what was created. */
class FakeDir implements DirectoryLike {
  readonly files = new Map<string, Uint8Array[]>();
  readonly closed = new Set<string>();
  constructor(
    readonly path = '',
    readonly root: FakeDir | null = null,
    readonly opts: { failWrite?: string } = {},
  ) {}
  readonly name = 'picked';
  private get top(): FakeDir {
    return this.root ?? this;
  }
  async getDirectoryHandle(name: string): Promise<DirectoryLike> {
    return new FakeDir(`${this.path}${name}/`, this.top, this.opts);
  }
  async getFileHandle(name: string) {
    const path = `${this.path}${name}`;
    const top = this.top;
    return {
      createWritable: async () => {
        top.files.set(path, []);
        return {
          write: async (d: Uint8Array) => {
            if (top.opts.failWrite === path) throw new DOMException('full', 'QuotaExceededError');
            top.files.get(path)!.push(d.slice());
          },
          close: async () => void top.closed.add(path),
          abort: async () => void top.files.delete(path),
        };
      },
    };
  }
  bytes(path: string): Buffer {
    return Buffer.concat(this.files.get(path) ?? []);
  }
}

/** The zip fed in chunks of `size` bytes, counting how many were pulled. */
function chunked(zip: Uint8Array, size: number) {
  const state = { pulled: 0 };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (at >= zip.length) return c.close();
        c.enqueue(zip.slice(at, at + size));
        at += size;
        state.pulled++;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const random = (n: number, seed: number) => {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return b;
};

/** A zip as the server writes it: streamed entries with data descriptors, files stored, the CSV deflated. */
function streamedZip(entries: [string, Uint8Array, 'store' | 'deflate'][]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  for (const [name, data, how] of entries) {
    const f = how === 'store' ? new ZipPassThrough(name) : new ZipDeflate(name);
    zip.add(f);
    f.push(data, true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(parts));
}

describe('zip entry paths', () => {
  it('keeps folders and the file name', () => {
    expect(safeEntryPath('a.pdf')).toEqual({ folders: [], file: 'a.pdf' });
    expect(safeEntryPath('Invoices/2024/a.pdf')).toEqual({ folders: ['Invoices', '2024'], file: 'a.pdf' });
    expect(safeEntryPath('Invoices/')).toEqual({ folders: ['Invoices'], file: null });
  });
  it.each(['../a.pdf', 'x/../../a.pdf', '/etc/passwd', '\\\\server\\share\\a', 'C:/a.pdf', 'c:a.pdf', 'x//a.pdf', './a.pdf', '..', 'a\\..\\b', 'x/a?.pdf', 'a\u0000b'])('refuses %j', (p) => {
    expect(() => safeEntryPath(p)).toThrow(UnsafePathError);
  });
  it('names the sub-folder after the file without .zip', () => {
    expect(folderNameOf('export-42.zip')).toBe('export-42');
    expect(folderNameOf('Q1.ZIP')).toBe('Q1');
    expect(folderNameOf('..')).toBe('export');
  });
});

describe('unpacking into a folder as the zip streams', () => {
  const a = random(300_000, 1);
  const b = random(70_000, 2);
  const csv = strToU8('ArchiveID,DocID,File\n1,2,a.pdf\n1,3,b.tif\n'.repeat(200));

  it('writes every file byte for byte, in its sub-folder, reading the zip chunk by chunk', async () => {
    const zip = streamedZip([['a.pdf', a, 'store'], ['b.tif', b, 'store'], ['index.csv', csv, 'deflate']]);
    const dir = new FakeDir();
    const { stream, state } = chunked(zip, 4096);
    const seen: number[] = [];
    const names = await unzipToFolder(stream, dir, { wrapIn: 'export-42', onProgress: (n) => seen.push(n) });
    expect(names).toEqual(['a.pdf', 'b.tif', 'index.csv']);
    expect(dir.bytes('export-42/a.pdf').equals(Buffer.from(a))).toBe(true);
    expect(dir.bytes('export-42/b.tif').equals(Buffer.from(b))).toBe(true);
    expect(dir.bytes('export-42/index.csv').equals(Buffer.from(csv))).toBe(true);
    expect([...dir.closed].sort()).toEqual(['export-42/a.pdf', 'export-42/b.tif', 'export-42/index.csv']);
    // Fed in ~4 KB pieces (no whole-zip read): progress rises to the zip's size.
    expect(state.pulled).toBe(Math.ceil(zip.length / 4096));
    expect(seen.length).toBe(state.pulled);
    expect(seen.at(-1)).toBe(zip.length);
    // Each stored file arrived in many writes, not one buffer of the whole file.
    expect(dir.files.get('export-42/a.pdf')!.length).toBeGreaterThan(50);
  });

  it('keeps the FilePath folder the zip already has instead of adding one (a zip made at once, odd chunk sizes)', async () => {
    const zip = zipSync({ 'Invoices/a.pdf': [a, { level: 0 }], 'Invoices/b.tif': [b, { level: 0 }], 'index.csv': csv });
    const dir = new FakeDir();
    await unzipToFolder(chunked(zip, 777).stream, dir, { wrapIn: 'export-43' });
    expect([...dir.files.keys()].sort()).toEqual(['Invoices/a.pdf', 'Invoices/b.tif', 'index.csv']);
    expect(dir.bytes('Invoices/b.tif').equals(Buffer.from(b))).toBe(true);
    expect(dir.bytes('index.csv').equals(Buffer.from(csv))).toBe(true);
  });

  it('refuses an entry leaving the folder and writes nothing of it or after it', async () => {
    const zip = zipSync({ 'a.pdf': [a, { level: 0 }], '../evil.txt': strToU8('x'), 'c.pdf': [b, { level: 0 }] });
    const dir = new FakeDir();
    await expect(unzipToFolder(chunked(zip, 1000).stream, dir, { wrapIn: 'e' })).rejects.toBeInstanceOf(UnsafePathError);
    expect([...dir.files.keys()].some((k) => k.includes('evil'))).toBe(false);
    expect(dir.files.has('e/c.pdf')).toBe(false);
  });

  it('a stored file holding a zip signature (which a streaming unzip takes for the entry\'s end) is found cut short by the central directory, not left silently', async () => {
    const a2 = new Uint8Array(5000).fill(65);
    a2.set([0x50, 0x4b, 0x07, 0x08], 1000);
    const zip = streamedZip([['a.pdf', a2, 'store'], ['b.tif', b, 'store']]);
    await expect(unzipToFolder(chunked(zip, 512).stream, new FakeDir(), { wrapIn: 'x' })).rejects.toBeInstanceOf(ZipDamagedError);
  });

  it('reads entry sizes from the central directory, from the whole zip or its tail; null when the tail lacks part of it', () => {
    const zip = zipSync({ 'Invoices/a.pdf': [a, { level: 0 }], 'index.csv': csv });
    expect(centralDirectorySizes(zip, 0)).toEqual(new Map([['Invoices/a.pdf', a.length], ['index.csv', csv.length]]));
    const cut = zip.length - 60;
    expect(centralDirectorySizes(zip.subarray(cut), cut)).toBeNull();
    const from = a.length + 100;
    expect(centralDirectorySizes(zip.subarray(from), from)?.get('index.csv')).toBe(csv.length);
  });

  it('a write refused by the disk stops the unpacking with that error and aborts the file', async () => {
    const zip = streamedZip([['a.pdf', a, 'store'], ['b.tif', b, 'store']]);
    const dir = new FakeDir('', null, { failWrite: 'x/b.tif' });
    await expect(unzipToFolder(chunked(zip, 4096).stream, dir, { wrapIn: 'x' })).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(dir.closed.has('x/a.pdf')).toBe(true);
    expect(dir.files.has('x/b.tif')).toBe(false);
  });
});

describe('saving a finished export into a folder', () => {
  const note: ExportNote = { JobId: 42, FileName: 'export-42.zip', Size: 0, Format: 'zip', Expires: '2030-01-01T00:00:00Z' };
  const serve = (answer: () => Response) => {
    configureHttp({ baseUrl: () => 'http://test/', token: () => 'tok' });
    vi.stubGlobal('fetch', async () => answer());
  };

  it('unpacks the zip into a sub-folder named after the export', async () => {
    const zip = zipSync({ 'a.pdf': [strToU8('pdf bytes'), { level: 0 }] });
    serve(() => new Response(zip));
    const dir = new FakeDir();
    const r = await saveExportToFolder(1, note, Promise.resolve(dir));
    expect(r).toEqual({ outcome: 'saved', folder: 'picked/export-42' });
    expect(dir.bytes('export-42/a.pdf').toString()).toBe('pdf bytes');
  });

  it('writes an .xlsx as one file', async () => {
    serve(() => new Response(strToU8('PK workbook')));
    const dir = new FakeDir();
    const r = await saveExportToFolder(1, { ...note, FileName: 'export-42.xlsx', Format: 'xlsx' }, Promise.resolve(dir));
    expect(r).toEqual({ outcome: 'saved', folder: 'picked' });
    expect(dir.bytes('export-42.xlsx').toString()).toBe('PK workbook');
  });

  it('says why in words: expired (410), permission refused, disk full; a closed picker is no error', async () => {
    serve(() => new Response('gone', { status: 410 }));
    await expect(saveExportToFolder(1, note, Promise.resolve(new FakeDir()))).rejects.toMatchObject({ problem: 'ERROR_EXPORT_EXPIRED' });
    await expect(saveExportToFolder(1, note, Promise.reject(new DOMException('no', 'NotAllowedError')))).rejects.toMatchObject({ problem: 'EXPORT_FOLDER_DENIED' });
    await expect(saveExportToFolder(1, note, Promise.resolve(null))).resolves.toEqual({ outcome: 'cancelled' });
    serve(() => new Response(streamedZip([['b.tif', random(10_000, 3), 'store']])));
    await expect(saveExportToFolder(1, note, Promise.resolve(new FakeDir('', null, { failWrite: 'export-42/b.tif' })))).rejects.toMatchObject({ problem: 'EXPORT_FOLDER_FULL' });
  });

  it('Cancel (the signal) stops it and resolves cancelled', async () => {
    const abort = new AbortController();
    const zip = streamedZip([['a.pdf', random(200_000, 4), 'store']]);
    const { stream } = chunked(zip, 4096);
    serve(() => new Response(stream));
    const dir = new FakeDir();
    const r = await saveExportToFolder(1, note, Promise.resolve(dir), { signal: abort.signal, onProgress: (n) => n > 20_000 && abort.abort() });
    expect(r).toEqual({ outcome: 'cancelled' });
    expect(dir.files.has('export-42/a.pdf')).toBe(false);
  });
});
