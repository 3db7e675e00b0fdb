/**
 * The words of a document page for key-free extraction (src/api/words.ts): the server's OCR first;
 * when the server cannot be reached and the page is kept on this device (pinned), the device's own
 * OCR (device-ocr.ts) reads the pinned page image. Pinning fills the source below
 * (setPinnedPageSource): it may hand back words it stored when the document was pinned, or the page's
 * image. Answers are kept in memory for this tab (a page is asked of the server once).
 */
import { isApiError } from '../../../api/api-error';
import { apiRequest } from '../../../api/http';
import { OCR_ENGINE_UNAVAILABLE, PageWords, wordsPaths } from '../../../api/words';

export interface WordsDocument {
  db: number;
  archiveId: number;
  id: number;
  hash: string;
}

/** What the pinned (offline) store offers for a page; every part optional. */
export interface PinnedPageSource {
  /** Words stored for the page (the server's at pin time, or the device's earlier OCR). */
  getPinnedPageWords?(doc: WordsDocument, page: number): Promise<unknown>;
  /** The stored image of the page (documents that are not PDF). */
  getPinnedPageImage?(doc: WordsDocument, page: number): Promise<Blob | null>;
  /** Keeps the words the device recognised, so the page is not read again. */
  putPinnedPageWords?(doc: WordsDocument, page: number, words: PageWords): Promise<void>;
}

let pinned: PinnedPageSource = {};
/** Pinning (offline documents) registers where its stored words and page images are read from. */
export function setPinnedPageSource(source: PinnedPageSource): void {
  pinned = source;
}

type DeviceOcr = (image: Blob, page: number) => Promise<PageWords>;
const defaultDeviceOcr: DeviceOcr = async (image, page) => (await import('./device-ocr')).recognizePageOnDevice(image, page);

const MEMORY_MAX = 50;
const memory = new Map<string, PageWords>();
const keyOf = (doc: WordsDocument, page: number) => `${doc.db}/${doc.archiveId}/${doc.id}/${doc.hash}/${page}`;

export function fetchServerPageWords(doc: WordsDocument, page: number, signal?: AbortSignal): Promise<PageWords> {
  return apiRequest({ path: wordsPaths.words(doc.db, doc.archiveId, doc.id), query: { SecureId: doc.hash, Page: page }, auth: 'header', schema: PageWords, signal });
}

/**
 * The words of page `page` (1-based). Throws the server's error (ApiError: 503
 * DATA_EXTRACTION_NOT_REGISTERED, 403, ...), or the network error when the page is not kept here.
 */
export async function loadPageWords(
  doc: WordsDocument,
  page: number,
  opts: {
    signal?: AbortSignal;
    /** The page drawn on the device (a PDF the viewer has open), for OCR here when the server cannot be reached. */
    renderPage?: (page: number) => Promise<Blob | null>;
    fetchServer?: typeof fetchServerPageWords;
    deviceOcr?: DeviceOcr;
  } = {},
): Promise<PageWords> {
  const key = keyOf(doc, page);
  const known = memory.get(key);
  if (known) return known;
  let words: PageWords;
  try {
    words = await (opts.fetchServer ?? fetchServerPageWords)(doc, page, opts.signal);
  } catch (e) {
    if (!isApiError(e) || e.kind !== 'network') throw e;
    const stored = PageWords.safeParse(await pinned.getPinnedPageWords?.(doc, page).catch(() => null));
    if (stored.success) words = stored.data;
    else {
      const image = (await pinned.getPinnedPageImage?.(doc, page).catch(() => null)) ?? (await opts.renderPage?.(page).catch(() => null));
      if (!image) throw e;
      try {
        words = await (opts.deviceOcr ?? defaultDeviceOcr)(image, page);
      } catch (ocr) {
        // The device's engine could not be fetched either: the page cannot be read without a connection.
        if ((ocr as { name?: unknown } | null)?.name === OCR_ENGINE_UNAVAILABLE) throw e;
        throw ocr;
      }
      await pinned.putPinnedPageWords?.(doc, page, words).catch(() => undefined);
    }
  }
  memory.set(key, words);
  if (memory.size > MEMORY_MAX) memory.delete(memory.keys().next().value as string);
  return words;
}

/** For tests: forget what this tab has read. */
export function forgetPageWords(): void {
  memory.clear();
}
