/**
 * The calls that fetch a kept document's parts (src/sync/pins.ts PinApi), through the app's one fetch
 * wrapper and file call: the viewer session of the document alone (its type, pages and pages
 * Version; the server checks the view right and the Hash), the archive's fields, the document's
 * index data (the indexer panel's grid page of one document), the file (a PDF), the server's page
 * images (TIFF pages, thumbnails), and the server's words of each page for key-free extraction (none
 * when the server has no OCR registered: the device recognises them then). Used by
 * workers/pin.worker.ts.
 */
import { isAbortError, isApiError, ApiError } from '../api/api-error';
import { fetchArchiveFields } from '../api/archives';
import { fetchDocumentFile } from '../api/document-file';
import { documentIndexPath } from '../api/document-index';
import { documentThumbUrl } from '../api/documents';
import { apiRequest, httpContext, httpError } from '../api/http';
import { DocumentPage } from '../api/search';
import { createViewerSession, getViewerSession, type ViewerDocumentInfo } from '../api/viewer';
import { KEYFREE_KEYS, PageWords, wordsPaths } from '../api/words';
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

/** The server's words of a page; null when the server has no OCR (503 DATA_EXTRACTION_NOT_REGISTERED). */
async function words(p: PinRecord, page: number, signal?: AbortSignal): Promise<PageWords | null> {
  try {
    return await apiRequest({ path: wordsPaths.words(p.db, p.archiveId, p.docId), query: { SecureId: p.hash, Page: page }, auth: 'header', schema: PageWords, signal });
  } catch (e) {
    if (isApiError(e) && (e.status === 503 || e.key === KEYFREE_KEYS.notRegistered)) return null;
    throw e;
  }
}

export function pinApi(signal?: AbortSignal): PinApi {
  return {
    info: (p) => info(p, signal),
    archiveFields: (p) => fetchArchiveFields(p.db, p.archiveId, signal),
    index: (p) => apiRequest({ path: documentIndexPath(p.db, p.archiveId, p.docId), query: { SecureId: p.hash }, auth: 'header', schema: DocumentPage, signal }),
    file: async (p) => (await fetchDocumentFile(p.db, fileDoc(p), { signal })).response.blob(),
    pageImage: (p, page, width, height) => pageImage(p, page, width, height, signal),
    words: (p, page) => words(p, page, signal),
  };
}
