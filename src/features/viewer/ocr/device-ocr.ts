/**
 * The page's one way into the OCR worker (workers/ocr.worker.ts): started on first use, ended after
 * IDLE_MS without calls (the engine holds ~100 MB). Used for pages kept offline when the server
 * cannot be reached (page-words.ts); keeping a document caches the engine's files first
 * (src/sync/pin-api.ts keepDeviceOcrFiles). State: the running worker, in memory only.
 */
import { releaseProxy, wrap, type Remote } from 'comlink';
import type { PageWords } from '../../../api/words';
import type { OcrWorkerApi } from '../../../../workers/ocr.worker';

export const IDLE_MS = 60_000;

let worker: Worker | null = null;
let api: Remote<OcrWorkerApi> | null = null;
let running = 0;
let idle: ReturnType<typeof setTimeout> | undefined;

function stop() {
  clearTimeout(idle);
  api?.[releaseProxy]();
  worker?.terminate();
  worker = null;
  api = null;
}

async function call<T>(fn: (remote: Remote<OcrWorkerApi>) => Promise<T>): Promise<T> {
  if (!api) {
    worker = new Worker(new URL('../../../../workers/ocr.worker.ts', import.meta.url), { type: 'module', name: 'ocr' });
    api = wrap<OcrWorkerApi>(worker);
  }
  clearTimeout(idle);
  running++;
  try {
    return await fn(api);
  } catch (e) {
    stop();
    throw e;
  } finally {
    running = Math.max(0, running - 1);
    if (running === 0 && api) idle = setTimeout(stop, IDLE_MS);
  }
}

/** The words of page `page` from its image, recognised on this device. */
export async function recognizePageOnDevice(image: Blob, page = 1): Promise<PageWords> {
  const r = await call((remote) => remote.recognize(image));
  return { Page: page, ImageWidth: r.width, ImageHeight: r.height, Words: r.words };
}
