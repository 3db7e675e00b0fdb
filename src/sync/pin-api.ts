/**
 * The calls that fetch a kept document's parts (src/sync/pins.ts PinApi), through the app's one fetch
 * wrapper and file call: the viewer session of the document alone (its type, pages and pages
 * Version; the server checks the view right and the Hash), the archive's fields, the document's
 * index data (the indexer panel's grid page of one document), the file (a PDF), the server's page
 * images (TIFF pages, thumbnails). Used by workers/pin.worker.ts.
 *
 * The server's words of each page (PinApi.words) are not asked for: its OCR took ~30 s a page on a
 * busy machine here (a 4-page PDF 2 minutes), so a page of results would take many minutes to keep.
 * Key-free extraction on a kept page offline recognises it on the device instead (ocr/page-words.ts,
 * from the stored page image or the stored PDF), and keeps the result (putPinnedWords). So a
 * document is kept only once the device's OCR engine is in the service worker's cache (deviceOcr).
 */
import { isAbortError, ApiError } from '../api/api-error';
import { fetchArchiveFields } from '../api/archives';
import { fetchDocumentAnnotations } from '../api/document-annotations';
import { fetchDocumentFile } from '../api/document-file';
import { fetchDocumentIndex } from '../api/document-index';
import { documentThumbUrl } from '../api/documents';
import { httpContext, httpError } from '../api/http';
import { createViewerSession, getViewerSession, type ViewerDocumentInfo } from '../api/viewer';
import { DEVICE_OCR_CACHE, DEVICE_OCR_FILES } from '../api/words';
import type { PinRecord } from '../db/db';
import type { PinApi } from './pins';

const fileDoc = (p: PinRecord) => ({ archiveId: p.archiveId, id: p.docId, hash: p.hash });

async function info(p: PinRecord, signal?: AbortSignal): Promise<ViewerDocumentInfo> {
  const id = await createViewerSession({ Database: p.db, Documents: [{ Archive: p.archiveId, Id: p.docId, Hash: p.hash }] }, signal);
  const session = await getViewerSession(id, signal);
  const doc = session.Documents[0];
  return doc ?? { Archive: p.archiveId, Id: p.docId, Hash: p.hash, Available: false };
}

/** A page image as the server renders it (the token in the query, as an <img> sends it). */
async function pageImage(p: PinRecord, page: number, width: number, height?: number, signal?: AbortSignal): Promise<Blob> {
  const { baseUrl, token } = httpContext();
  const url = documentThumbUrl({ baseUrl, token, db: p.db, archiveId: p.archiveId, docId: p.docId, hash: p.hash, page, width, height });
  const shown = url.replace(/([?&]token=)[^&]*/, '$1…');
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw new ApiError({ kind: 'network', method: 'GET', url: shown, cause: e });
  }
  if (!res.ok) throw httpError('GET', shown, res, await res.text().catch(() => ''));
  return res.blob();
}

/**
 * Puts the device's OCR engine (DEVICE_OCR_FILES) in the service worker's DEVICE_OCR_CACHE, so
 * key-free extraction reads kept pages with no connection; files already there are not fetched
 * again. Keeping a document whose words are left to the device waits for it (PinApi.deviceOcr),
 * so a document is only "kept" once its words can be read offline. Throws ApiError 'network' when a
 * file cannot be fetched (the pin then waits and tries again), 'http' when the app's server does not
 * have it. Does nothing where there is no Cache API.
 */
async function keepDeviceOcrFiles(origin = self.location.origin): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(DEVICE_OCR_CACHE);
  for (const f of DEVICE_OCR_FILES) {
    const url = new URL(`/tesseract/${f}`, origin).href;
    if (await cache.match(url)) continue;
    let res: Response;
    try {
      res = await fetch(url);
    } catch (cause) {
      throw new ApiError({ kind: 'network', method: 'GET', url, cause });
    }
    if (!res.ok) throw new ApiError({ kind: 'http', method: 'GET', url, status: res.status, statusText: res.statusText });
    await cache.put(url, res);
  }
}

export function pinApi(signal?: AbortSignal): PinApi {
  return {
    info: (p) => info(p, signal),
    archiveFields: (p) => fetchArchiveFields(p.db, p.archiveId, signal),
    index: (p) => fetchDocumentIndex({ db: p.db, archiveId: p.archiveId, docId: p.docId, hash: p.hash }, signal),
    annotations: (p) => fetchDocumentAnnotations({ db: p.db, archiveId: p.archiveId, docId: p.docId, hash: p.hash }, signal),
    file: async (p) => (await fetchDocumentFile(p.db, fileDoc(p), { signal, view: true })).response.blob(),
    pageImage: (p, page, width, height) => pageImage(p, page, width, height, signal),
    deviceOcr: () => keepDeviceOcrFiles(),
  };
}
