/**
 * Key-free extraction's words of a document page (src/api/words.ts). The page is drawn to PNG by the
 * thumbnailer (PDF pages by pdf.js in its worker thread, TIFF and image pages by sharp; an image page
 * at most OCR_MAX_SIDE pixels on its long side, a page over the page budget refused), turned by
 * the rotation the viewer shows it at, and recognised by the one OCR engine (server/ocr). The words
 * are stored in page_words (migration 016) by the file's content hash, page and rotation, so a page
 * is recognised once; two requests for a page being recognised share the one recognition.
 */
import sharp from 'sharp';
import type { PageWords } from '../../src/api/words.js';
import type { Queryable } from '../db/store.js';
import { OCR_MAX_SIDE } from '../files/page-budget.js';
import { ApiError } from '../http/errors.js';
import { OCR_ENGINE, OcrUnavailable, type Recognizer } from '../ocr/recognizer.js';
import { PageOutOfRange, type Thumbnailer } from '../thumbs/thumbnailer.js';
import type { KeyFreeWord } from '../../src/api/words.js';

/** PDF pages are drawn this wide for OCR (a Letter page at ~190 dpi); the viewer asks for this size too. */
export const OCR_PDF_WIDTH = 1600;

export const ocrUnavailable = () => new ApiError(503, 'Data extraction is not available on this server', 'DATA_EXTRACTION_NOT_REGISTERED');
const pageMissing = () => new ApiError(404, 'The file of this document does not exist', 'FILE_DOES_NOT_EXIST');

interface Stored {
  words: KeyFreeWord[];
  width: number;
  height: number;
}

export class PageWordsService {
  private readonly inflight = new Map<string, Promise<Stored>>();
  /** How many pages were recognised (not served from the cache): read by the tests. */
  recognised = 0;

  constructor(
    private readonly store: Queryable,
    private readonly thumbs: Thumbnailer,
    private readonly recognizer: Recognizer,
  ) {}

  /** The words of page `page` (1-based) of a document whose view right the caller has checked. */
  async pageWords(docId: number, page: number): Promise<PageWords> {
    const r = await this.store.query<{ page_in_file: number; rotation: number; sha256: string; file_type: string }>(
      `SELECT p.page_in_file, p.rotation, f.sha256, f.file_type FROM document_pages p JOIN document_files f ON f.id = p.file_id
        WHERE p.document_id = $1 AND p.page_no = $2`,
      [docId, page],
    );
    const row = r.rows[0];
    if (!row) throw pageMissing();
    const rotation = (((Number(row.rotation) || 0) % 360) + 360) % 360;
    const key = `${row.sha256}/${row.page_in_file}/${rotation}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.load(row.sha256, row.file_type, Number(row.page_in_file), rotation).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const s = await pending;
    return { Page: page, ImageWidth: s.width, ImageHeight: s.height, Words: s.words };
  }

  private async load(sha256: string, fileType: string, pageInFile: number, rotation: number): Promise<Stored> {
    const cached = await this.store.query<{ words: KeyFreeWord[]; image_width: number; image_height: number }>(
      'SELECT words, image_width, image_height FROM page_words WHERE sha256 = $1 AND page_in_file = $2 AND rotation = $3',
      [sha256, pageInFile, rotation],
    );
    const hit = cached.rows[0];
    if (hit) return { words: hit.words, width: Number(hit.image_width), height: Number(hit.image_height) };

    let png: Buffer;
    try {
      png = await this.thumbs.thumb(sha256, fileType, pageInFile, /^pdf$/i.test(fileType) ? OCR_PDF_WIDTH : 0, 0, OCR_MAX_SIDE);
    } catch (e) {
      if (e instanceof PageOutOfRange || (e as NodeJS.ErrnoException).code === 'ENOENT') throw pageMissing();
      throw e;
    }
    if (rotation) png = await sharp(png).rotate(rotation).png().toBuffer();
    const meta = await sharp(png).metadata();
    let out: Stored;
    try {
      const rec = await this.recognizer.recognize(png, meta.width ?? 1, meta.height ?? 1);
      out = { words: rec.words, width: rec.width, height: rec.height };
    } catch (e) {
      if (e instanceof OcrUnavailable) throw ocrUnavailable();
      throw e;
    }
    this.recognised++;
    await this.store.query(
      `INSERT INTO page_words (sha256, page_in_file, rotation, image_width, image_height, words, engine)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) ON CONFLICT DO NOTHING`,
      [sha256, pageInFile, rotation, out.width, out.height, JSON.stringify(out.words), OCR_ENGINE],
    );
    return out;
  }
}
