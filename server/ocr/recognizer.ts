/**
 * The server's OCR engine for key-free extraction: ONE tesseract.js worker (a worker thread of its
 * own, so recognising never blocks the HTTP thread), started on first use and reused; tesseract
 * queues the jobs given to it. Its English data comes from the @tesseract.js-data/eng package
 * (4.0.0_best_int), read from disk: nothing is fetched (tesseract's default langPath is a CDN).
 * When the data cannot be found or the engine does not start, OcrUnavailable
 * (DATA_EXTRACTION_NOT_REGISTERED to the client).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { toKeyFreeWords, type KeyFreeWord, type RecognisedBlock } from '../../src/api/words.js';

export class OcrUnavailable extends Error {}

export const OCR_ENGINE = 'tesseract.js 7 eng 4.0.0_best_int';

/** The folder holding eng.traineddata.gz, or null when the package is not installed. */
export function defaultLangPath(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    return existsSync(join(dir, 'eng.traineddata.gz')) ? dir : null;
  } catch {
    return null;
  }
}

export interface Recognised {
  words: KeyFreeWord[];
  width: number;
  height: number;
}

export class Recognizer {
  private worker?: Promise<Worker>;

  /** langPath: the folder of eng.traineddata.gz; null means none is installed. */
  constructor(private readonly langPath: string | null = defaultLangPath()) {}

  private start(): Promise<Worker> {
    if (this.worker) return this.worker;
    const langPath = this.langPath;
    if (!langPath || !existsSync(join(langPath, 'eng.traineddata.gz'))) return Promise.reject(new OcrUnavailable('no OCR language data'));
    const w = (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath,
        cacheMethod: 'none',
        gzip: true,
        errorHandler: () => undefined,
      });
      // Our page images carry no resolution; tesseract would guess 70 dpi and say so on stderr.
      await worker.setParameters({ user_defined_dpi: '150' });
      return worker;
    })();
    this.worker = w;
    w.catch(() => {
      if (this.worker === w) this.worker = undefined;
    });
    return w.catch((e: unknown) => {
      throw new OcrUnavailable(`OCR engine did not start: ${String(e)}`);
    });
  }

  /** The words of a page image (PNG bytes) of width x height pixels. */
  async recognize(png: Buffer, width: number, height: number): Promise<Recognised> {
    const worker = await this.start();
    const r = await worker.recognize(png, {}, { blocks: true, text: false });
    return { words: toKeyFreeWords(r.data.blocks as unknown as RecognisedBlock[] | null, width, height), width, height };
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await (await w.catch(() => null))?.terminate();
  }
}
