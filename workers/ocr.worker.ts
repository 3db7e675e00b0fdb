/**
 * OCR on the device for key-free extraction of pages kept offline (src/features/viewer/ocr/
 * device-ocr.ts is its one bridge): tesseract.js with every part served from the app's own origin
 * (vite.config.ts tesseractAssets copies them to /tesseract/; tesseract's defaults are CDNs, never
 * used): its worker script, its wasm core (the LSTM-only builds; tesseract picks the SIMD one the
 * device runs) and the English data (4.0.0_best_int). The service worker keeps them in its `ocr`
 * cache, not in the precache (about 14 MB); keeping a document offline puts them there. One
 * tesseract worker, started on first use and reused; the bridge ends this worker when idle.
 */
import { expose } from 'comlink';
import { createWorker, OEM, type Worker as TesseractWorker } from 'tesseract.js';
import { OCR_ENGINE_UNAVAILABLE, toKeyFreeWords, type KeyFreeWord, type RecognisedBlock } from '../src/api/words';

const base = new URL('/tesseract/', self.location.href).href;
let engine: Promise<TesseractWorker> | null = null;

function start(): Promise<TesseractWorker> {
  // tesseract.js throws its worker's failures from its message handler (an uncaught error in this
  // worker, hence in the page) unless an errorHandler takes them, and never settles createWorker when
  // loading the language data fails: the handler ends the start with an error the page can name.
  engine ??= new Promise<TesseractWorker>((resolve, reject) => {
    const unavailable = (e: unknown) => reject(Object.assign(new Error(String(e)), { name: OCR_ENGINE_UNAVAILABLE }));
    createWorker('eng', OEM.LSTM_ONLY, {
      workerPath: `${base}worker.min.js`,
      corePath: `${base}core/`,
      langPath: `${base}lang`,
      gzip: true,
      cacheMethod: 'none',
      workerBlobURL: false,
      errorHandler: unavailable,
    }).then(resolve, unavailable);
  }).then(async (w) => {
    await w.setParameters({ user_defined_dpi: '150' });
    return w;
  });
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

export interface DeviceWords {
  width: number;
  height: number;
  words: KeyFreeWord[];
}

const api = {
  /** The words of a page image (PNG, JPEG, ...). */
  async recognize(image: Blob): Promise<DeviceWords> {
    const bitmap = await createImageBitmap(image);
    const { width, height } = bitmap;
    bitmap.close();
    const w = await start();
    const r = await w.recognize(image, {}, { blocks: true, text: false });
    return { width, height, words: toKeyFreeWords(r.data.blocks as unknown as RecognisedBlock[] | null, width, height) };
  },
};

export type OcrWorkerApi = typeof api;

expose(api);
