/**
 * Page thumbnails as PNG: PDF pages rendered by pdfjs-dist (legacy build) on @napi-rs/canvas in a
 * worker thread (pdf-worker.mjs), TIFF pages by sharp ({ page }). Thumbnails are cached on disk by
 * (file hash, page, size) under `${files.root}/thumbs`, so each is rendered once. A TIFF page over
 * the page budget is refused from its header (files/page-budget.ts), a PDF's images over it are not
 * decoded, and no side of a picture passes maxSide; a file that cannot be read answers
 * ERROR_FILE_UNREADABLE (422).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileStore } from '../files/file-store.js';
import { decoding, imagePage, PAGE_MAX_PIXELS, unreadable } from '../files/page-budget.js';

/**
 * The largest side served: the 600x800 preview (the user-app spec §2) at twice its size, for the
 * high-density screens of tablets (the app asks for it in the preview's srcset); rendered from the
 * page itself at that size (PDF pages are drawn, not a smaller render enlarged).
 */
export const THUMB_MAX = 1600;
export const THUMB_DEFAULT_HEIGHT = 120;
const RENDER_TIMEOUT_MS = 20_000;

interface Reply {
  id: number;
  ok: boolean;
  png?: Uint8Array;
  error?: string;
  code?: string;
}

export class PageOutOfRange extends Error {}

/**
 * The picture of a page of pw x ph fitted into width x height (0: follows the page's aspect ratio;
 * both 0: the page's own size), no side over maxSide. pdf-worker.mjs has the same for PDF pages.
 */
export function fitBox(pw: number, ph: number, width: number, height: number, maxSide: number): { width: number; height: number } {
  if (!width && !height) [width, height] = [pw, ph];
  if (!width) width = (pw * height) / ph;
  if (!height) height = (ph * width) / pw;
  const over = Math.max(1, width / maxSide, height / maxSide);
  return { width: Math.max(1, Math.round(width / over)), height: Math.max(1, Math.round(height / over)) };
}

export class Thumbnailer {
  private worker?: Worker;
  private ready?: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

  constructor(private readonly files: FileStore) {}

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('./pdf-worker.mjs', import.meta.url), { workerData: { maxImageSize: PAGE_MAX_PIXELS } });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: Reply) => {
        if (m.id === 0) return resolve();
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        p.resolve(m);
      });
    });
    worker.on('error', (e) => this.fail(e));
    worker.on('exit', () => this.fail(new Error('thumbnail worker stopped')));
    return this.ready;
  }

  private fail(e: Error) {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.worker = undefined;
    this.ready = undefined;
  }

  private async renderPdf(bytes: Uint8Array, page: number, width: number, height: number, maxSide: number): Promise<Buffer> {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new Error('thumbnail worker not running');
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new Error('thumbnail render timed out'));
      }, RENDER_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      worker.postMessage({ id, bytes, page, width, height, maxSide });
    });
    if (!reply.ok || !reply.png) {
      if (reply.code === 'PAGE') throw new PageOutOfRange(reply.error);
      if (reply.code === 'UNREADABLE') throw unreadable(reply.error ?? 'The PDF file cannot be read');
      throw new Error(reply.error ?? 'render failed');
    }
    return Buffer.from(reply.png);
  }

  private async renderTiff(bytes: Buffer, page: number, width: number, height: number, maxSide: number): Promise<Buffer> {
    const p = await imagePage(bytes, page, (pages) => new PageOutOfRange(`page ${page + 1} of ${pages}`));
    const box = fitBox(p.width, p.height, width, height, maxSide);
    return decoding('The image file', () =>
      p.image().flatten({ background: '#ffffff' }).resize(box.width, box.height, { fit: 'contain', background: '#ffffff' }).png().toBuffer(),
    );
  }

  /**
   * PNG of page `pageInFile` (0-based) of the stored file, fitted into width x height (exactly that
   * size, white margins); a 0 width or height follows the page's aspect ratio, both 0 is the page's
   * own size; no side passes maxSide (then the picture is smaller, with the page's aspect ratio).
   */
  async thumb(sha256: string, fileType: string, pageInFile: number, width: number, height: number, maxSide = THUMB_MAX): Promise<Buffer> {
    const dir = join(this.files.root, 'thumbs', sha256.slice(0, 2));
    const path = join(dir, `${sha256}-p${pageInFile}-${width}x${height}${maxSide === THUMB_MAX ? '' : `-max${maxSide}`}.png`);
    const cached = await readFile(path).catch(() => undefined);
    if (cached) return cached;
    const bytes = await this.files.get(sha256);
    const png = /^pdf$/i.test(fileType)
      ? await this.renderPdf(new Uint8Array(bytes), pageInFile + 1, width, height, maxSide)
      : await this.renderTiff(bytes, pageInFile, width, height, maxSide);
    mkdirSync(dir, { recursive: true });
    const tmp = `${path}.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, png);
    await rename(tmp, path);
    return png;
  }

  async close() {
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (w) await w.terminate();
  }
}

/**
 * A page's PNG at the size a call asks (Width and/or Height, each clamped to THUMB_MAX; neither: the
 * default height), or null when the page or its file is not there (the caller answers its 404).
 */
export async function thumbAtSize(thumbs: Thumbnailer, sha256: string, fileType: string, pageInFile: number, q: { Width?: number; Height?: number }): Promise<Buffer | null> {
  const width = q.Width === undefined ? 0 : Math.min(q.Width, THUMB_MAX);
  let height = q.Height === undefined ? 0 : Math.min(q.Height, THUMB_MAX);
  if (!width && !height) height = THUMB_DEFAULT_HEIGHT;
  try {
    return await thumbs.thumb(sha256, fileType, pageInFile, width, height);
  } catch (e) {
    if (e instanceof PageOutOfRange || (e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
