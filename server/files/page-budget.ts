/**
 * How much of a document file the server decodes, in one place (issue 20). A page's pixels cost
 * memory whatever its size on disk: a 1-bit CCITT G4 TIFF of 16,000 x 16,000 pixels is 6 KB on disk
 * and 256 MB a band once decoded, and sharp's own limit (0x3FFF squared, 268 Mpx) let it through, so
 * one thumbnail, OCR or merge of it took the server to gigabytes. Every path that decodes a page
 * (thumbnails, OCR, rotate, burst, merge, export's conversions, annotations drawn on an export) reads
 * the page's size from its header first and refuses a page over PAGE_MAX_PIXELS with
 * ERROR_PAGE_TOO_LARGE before anything is allocated, and passes the same budget to sharp as
 * limitInputPixels. A file that cannot be read as its type answers ERROR_FILE_UNREADABLE. Both are
 * 422: the request was fine, the file is not (src/api/file-check.ts).
 */
import { PDFDocument, type LoadOptions } from 'pdf-lib';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { FILE_KEYS, FILE_REFUSED_STATUS } from '../../src/api/file-check.js';
import { ApiError } from '../http/errors.js';

/**
 * A page as large as a real scan gets: A3 at 600 dpi is 7,016 x 9,921 = 69.6 million pixels; a
 * decoded 8-bit band of it is 70 MB. PAGE_MAX_PIXELS in the environment sets another budget.
 */
export const DEFAULT_PAGE_MAX_PIXELS = 70_000_000;

export function pixelBudget(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : DEFAULT_PAGE_MAX_PIXELS;
}

export const PAGE_MAX_PIXELS = pixelBudget(process.env.PAGE_MAX_PIXELS);

/**
 * OCR reads a page at most this many pixels on its long side (an A4 page at ~340 dpi, a Letter page
 * at ~360): tesseract reads text best at about 300 dpi, and a larger image only costs its memory.
 */
export const OCR_MAX_SIDE = 4000;

export const unreadable = (message: string) => new ApiError(FILE_REFUSED_STATUS, message, FILE_KEYS.unreadable);

export const pageTooLarge = (page: number, width: number, height: number) =>
  new ApiError(
    FILE_REFUSED_STATUS,
    `Page ${page} is ${width} x ${height} pixels, more than the ${+(PAGE_MAX_PIXELS / 1e6).toFixed(1)} million pixels this server draws a page at`,
    FILE_KEYS.pageTooLarge,
  );

/**
 * sharp keeps decoded images and open files in a cache of its own (50 MB, 20 files by default): a
 * page is read once per request here, so the cache only holds memory the server then keeps.
 */
export function configureSharp() {
  sharp.cache(false);
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A page of an image file (TIFF, PNG, JPEG) whose size is known and within the budget. */
export interface ImagePage {
  /** The page's header as sharp reads it (resolution, bits per sample, ...). */
  meta: Metadata;
  width: number;
  height: number;
  /** The pages of the whole file. */
  pages: number;
  /** The page to decode, with the budget as sharp's own limit. */
  image(): Sharp;
}

/** Reads a header: a file sharp cannot read at all is unreadable. */
async function headerOf(input: Buffer | string, page?: number): Promise<Metadata> {
  try {
    return await sharp(input, { ...(page === undefined ? {} : { page }), limitInputPixels: false }).metadata();
  } catch (e) {
    throw unreadable(`The image file cannot be read: ${messageOf(e)}`);
  }
}

/** The pages of an image file, from its header. */
export async function imagePageCount(input: Buffer | string): Promise<number> {
  return (await headerOf(input)).pages ?? 1;
}

/**
 * Page `index` (0-based) of an image file, checked against the budget from its header alone.
 * `outOfRange` makes the error for a page the file does not have (a 404 for a thumbnail, a 400 for a
 * rotation).
 */
export async function imagePage(input: Buffer | string, index: number, outOfRange: (pages: number) => Error): Promise<ImagePage> {
  const first = await headerOf(input);
  const pages = first.pages ?? 1;
  if (index < 0 || index >= pages) throw outOfRange(pages);
  const meta = index === 0 ? first : await headerOf(input, index);
  const width = meta.width ?? 1;
  // A multi-page file's header may give the height of all its pages together and the page's apart.
  const height = meta.pageHeight ?? meta.height ?? 1;
  if (width * height > PAGE_MAX_PIXELS) throw pageTooLarge(index + 1, width, height);
  return { meta, width, height, pages, image: () => sharp(input, { page: index, limitInputPixels: PAGE_MAX_PIXELS }) };
}

/**
 * Runs work that decodes a stored file: a failure that is not already an answer (a damaged TIFF's
 * strips, a JPEG cut short) is the file's, ERROR_FILE_UNREADABLE, not a 500.
 */
export async function decoding<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw unreadable(`${what} cannot be read: ${messageOf(e)}`);
  }
}

/** A stored PDF opened with pdf-lib; one pdf-lib cannot parse (not a PDF, truncated) is unreadable. */
export async function loadPdf(bytes: Uint8Array, options: LoadOptions = {}): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { ignoreEncryption: true, ...options });
  } catch (e) {
    throw unreadable(`The PDF file cannot be read: ${messageOf(e)}`);
  }
}
