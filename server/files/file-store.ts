/**
 * Content-addressed document files: bytes live in `${root}/<aa>/<bb>/<sha256>`; the blobs table
 * records size and type. Writing the same content twice stores it once. With an in-memory
 * database (tests) the files go to a temporary folder removed at close.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, createReadStream, mkdirSync, mkdtempSync, rmSync, type ReadStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class FileStore {
  private constructor(
    readonly root: string,
    private readonly temporary: boolean,
  ) {
    mkdirSync(join(root, 'tmp'), { recursive: true });
  }

  /** `copyFrom` (in memory only): another store's root whose files this one starts with. */
  static open(dataDir: string | undefined, copyFrom?: string): FileStore {
    if (!dataDir || dataDir.startsWith('memory://')) {
      const root = mkdtempSync(join(tmpdir(), 'archive-files-'));
      if (copyFrom) cpSync(copyFrom, root, { recursive: true });
      return new FileStore(root, true);
    }
    return new FileStore(join(dataDir, 'files'), false);
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('bad sha256');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(bytes: Uint8Array): Promise<{ sha256: string; size: number }> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const dest = this.pathOf(sha256);
    const exists = await stat(dest).then(
      () => true,
      () => false,
    );
    if (!exists) {
      mkdirSync(join(this.root, sha256.slice(0, 2), sha256.slice(2, 4)), { recursive: true });
      const tmp = join(this.root, 'tmp', `${sha256}.${randomBytes(4).toString('hex')}`);
      await writeFile(tmp, bytes);
      await rename(tmp, dest);
    }
    return { sha256, size: bytes.byteLength };
  }

  /**
   * Takes a finished file already on disk (an upload's part file, hashed as it came) into the store
   * by renaming it, so a 200 MiB upload is never read into memory. The caller vouches for sha256.
   * `path` must be on the store's file system (uploads keep their part files under root).
   */
  async adopt(path: string, sha256: string): Promise<{ sha256: string; size: number }> {
    const dest = this.pathOf(sha256);
    const { size } = await stat(path);
    const exists = await stat(dest).then(
      () => true,
      () => false,
    );
    if (exists) await rm(path, { force: true });
    else {
      mkdirSync(join(this.root, sha256.slice(0, 2), sha256.slice(2, 4)), { recursive: true });
      await rename(path, dest);
    }
    return { sha256, size };
  }

  get(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  /** The file read in chunks: an export of thousands of files never holds one whole in memory. */
  stream(sha256: string): ReadStream {
    return createReadStream(this.pathOf(sha256));
  }

  /** Removes every file (seed-cli wipes before a new seed). */
  wipe() {
    rmSync(this.root, { recursive: true, force: true });
    mkdirSync(join(this.root, 'tmp'), { recursive: true });
  }

  close() {
    if (this.temporary) rmSync(this.root, { recursive: true, force: true });
  }
}
