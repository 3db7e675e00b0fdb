import * as z from 'zod/mini';

/**
 * Key-free extraction's words (the archive-ops spec §3 "Key-free word", §4 "Key-free extraction",
 * §7 "key-free page word extraction (document path, settings, page index)", §8 keys):
 *
 *   GET wordsPaths.words(db, archive, id)?SecureId=&Page=  -> 200 PageWords
 *
 * The document is named as every document call names one (db, archive, Id and its SecureId, the
 * document's Hash); Page is the page index, 1-based like the thumbnail call's. Needs the view right
 * (archive bit 1): 403 without it or with a wrong SecureId; 404 FILE_DOES_NOT_EXIST for a page the
 * document does not have. The words come from OCR (tesseract, on the server, from its packaged
 * English data) of the page as the viewer draws it (its rotation applied); a page is recognised
 * once, then served from the server's cache (keyed by the file's content hash, page and rotation).
 * A page with no words answers Words [] (the client says ERROR_NO_KFI_WORDS). When the server cannot
 * run OCR (its language data is missing): 503 DATA_EXTRACTION_NOT_REGISTERED.
 *
 * Positions are FRACTIONS of the page (0..1 of its width for Left and Width, of its height for Top
 * and Height), so they draw right at any zoom; ImageWidth/ImageHeight say in how many pixels the
 * page was recognised. Line numbers lines in reading order from 1; words of one line share it.
 * Confidence is the recogniser's 0..100.
 */
/**
 * The device's OCR engine (workers/ocr.worker.ts) under /tesseract/ on the app's origin, and the
 * service worker's cache that keeps it (cache first). Keeping a document offline puts every file
 * there at once (src/sync/pin-api.ts keepDeviceOcrFiles): the engine picks one of the three cores by what
 * the device runs, and a file fetched by a worker's own worker may pass the service worker by.
 */
export const DEVICE_OCR_CACHE = 'ocr';
export const DEVICE_OCR_FILES = [
  'worker.min.js',
  'core/tesseract-core-lstm.wasm.js',
  'core/tesseract-core-simd-lstm.wasm.js',
  'core/tesseract-core-relaxedsimd-lstm.wasm.js',
  'lang/eng.traineddata.gz',
] as const;
export type DeviceOcrFile = (typeof DEVICE_OCR_FILES)[number];

/** The name of the error the device's OCR gives when its engine cannot start (its files could not be fetched). */
export const OCR_ENGINE_UNAVAILABLE = 'OcrEngineUnavailable';

export const KEYFREE_KEYS = {
  noWords: 'ERROR_NO_KFI_WORDS',
  notRegistered: 'DATA_EXTRACTION_NOT_REGISTERED',
  listItemNotFound: 'KEYFREE_LIST_ITEM_NOT_FOUND',
} as const;

const fraction = () => z.number().check(z.gte(0), z.lte(1));

export const KeyFreeWord = z.object({
  Value: z.string().check(z.minLength(1)),
  Top: fraction(),
  Left: fraction(),
  Width: fraction(),
  Height: fraction(),
  Line: z.int().check(z.positive()),
  Confidence: z.number().check(z.gte(0), z.lte(100)),
});
export type KeyFreeWord = z.infer<typeof KeyFreeWord>;

export const PageWords = z.looseObject({
  Page: z.int().check(z.positive()),
  ImageWidth: z.int().check(z.positive()),
  ImageHeight: z.int().check(z.positive()),
  Words: z.array(KeyFreeWord),
});
export type PageWords = z.infer<typeof PageWords>;

export interface WordsQuery {
  SecureId: string;
  Page: number;
}

export const wordsPaths = {
  words: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/words`,
} as const;

/** The part of an OCR engine's answer (tesseract.js's blocks) the words are read from. */
export interface RecognisedBlock {
  paragraphs: { lines: { words: { text: string; confidence: number; bbox: { x0: number; y0: number; x1: number; y1: number } }[] }[] }[];
}

const round4 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 10_000) / 10_000;

/**
 * The key-free words of a recognised page image of width x height pixels, in reading order, lines
 * numbered from 1. Words with neither a letter nor a digit (rules, specks read as '—' or '|') are
 * left out: nothing a field would take. The server and the device's OCR worker both use it.
 */
export function toKeyFreeWords(blocks: readonly RecognisedBlock[] | null | undefined, width: number, height: number): KeyFreeWord[] {
  const out: KeyFreeWord[] = [];
  let line = 0;
  for (const b of blocks ?? [])
    for (const p of b.paragraphs)
      for (const l of p.lines) {
        const words = l.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
        if (!words.length) continue;
        line++;
        for (const w of words) {
          out.push({
            Value: w.text.trim(),
            Left: round4(w.bbox.x0 / width),
            Top: round4(w.bbox.y0 / height),
            Width: round4((w.bbox.x1 - w.bbox.x0) / width),
            Height: round4((w.bbox.y1 - w.bbox.y0) / height),
            Line: line,
            Confidence: Math.round(Math.min(100, Math.max(0, w.confidence))),
          });
        }
      }
  return out;
}
