/**
 * The viewer with documents kept on this device (src/sync/pins.ts, "Keep offline"):
 * - useLocalSession: when the server cannot be reached (no connection) and the document is kept,
 *   a viewer session of it alone, from the stored record, so a reload offline opens it. A document
 *   not kept still says there is no connection.
 * - useRefreshPin: online, the server's pages Version differs from the kept one: fetched again.
 * - documentBytes: a PDF's bytes from the stored file, else from the server.
 * - usePinnedImages: the stored page images and thumbnails as object URLs (revoked when the
 *   document closes or its parts change), in place of the server's addresses.
 * - the stored words and page images for key-free extraction (ocr/page-words.ts's pinned source).
 * - documentIndexOrKept: the indexer panel's index data, kept fresh online, the kept copy offline.
 * - useKeptAnnotations: the same for the viewer's annotations and the user's rights (notes, stamps).
 */
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../../api/api-error';
import { viewerPaths, type ViewerDocumentInfo, type ViewerSession } from '../../../api/viewer';
import { db as appDb, type PinRecord } from '../../../db/db';
import { DocumentPage } from '../../../api/search';
import { DocumentAnnotations } from '../../../api/annotations';
import { getPinnedFile, getPinnedPageImage, getPinnedWords, localViewerSession, putPinnedWords, readPinnedDocument, refreshPin, updatePinnedAnnotations, updatePinnedIndex, type PinDocRef } from '../../../sync/pins';
import { usePinned } from '../../../sync/react/use-pins';
import { fetchDocumentBytes } from '../api/document-bytes';
import { setPinnedPageSource } from '../ocr/page-words';
import { problemOf } from '../viewer-logic';

setPinnedPageSource({
  getPinnedPageWords: (d, page) => getPinnedWords({ db: d.db, archiveId: d.archiveId, docId: d.id }, page),
  getPinnedPageImage: (d, page) => getPinnedPageImage({ db: d.db, archiveId: d.archiveId, docId: d.id }, page),
  putPinnedPageWords: (d, page, words) => putPinnedWords({ db: d.db, archiveId: d.archiveId, docId: d.id }, page, words),
});

/** Kept far enough to be shown: its type and pages are known and some parts are stored. */
export const isViewable = (pin: PinRecord | undefined): pin is PinRecord => !!pin && pin.fetchedAt !== undefined;

/**
 * The local session of a kept document while the server cannot be reached: the session call failed
 * for want of a connection, or waits for one (TanStack Query pauses calls while the browser is
 * offline). Otherwise null. `error`: a network error for a document that is not kept while the call
 * waits for a connection, so the viewer says there is none instead of loading for ever.
 */
export function useLocalSession(
  address: { db: number; archiveId: number; docId: number } | null,
  query: { error: unknown; fetchStatus: string; data?: unknown },
): { session: ViewerSession | null; pin: PinRecord | undefined; error: ApiError | null } {
  const { pin, loaded } = usePinned(address);
  const waiting = query.fetchStatus === 'paused' && query.data === undefined;
  const offline = waiting || (query.error !== null && query.error !== undefined && problemOf(query.error) === 'offline');
  const session = useMemo(() => (offline && isViewable(pin) ? localViewerSession(pin) : null), [offline, pin]);
  const error = waiting && loaded && !session ? new ApiError({ kind: 'network', method: 'GET', url: viewerPaths.session() }) : null;
  return { session, pin, error };
}

/** Online: a kept document whose pages changed on the server is fetched again (the viewer shows the server's meanwhile). */
export function useRefreshPin(db: number | undefined, doc: ViewerDocumentInfo | null, pin: PinRecord | undefined): void {
  const version = doc?.Version;
  const key = pin?.key;
  useEffect(() => {
    if (key && version && db) void refreshPin(key, version);
  }, [key, version, db]);
}

/** A PDF's bytes: the stored file of a kept document (fresh: same Version), else the server's. */
export async function documentBytes(db: number, doc: { archiveId: number; id: number; hash: string; version?: string | null }, signal?: AbortSignal): Promise<Uint8Array> {
  const ref = { db, archiveId: doc.archiveId, docId: doc.id };
  const pin = await readPinnedDocument(db, doc.archiveId, doc.id);
  const fresh = pin && (!doc.version || pin.version === doc.version);
  const stored = fresh ? await getPinnedFile(ref).catch(() => null) : null;
  if (stored) return new Uint8Array(await stored.arrayBuffer());
  return fetchDocumentBytes(db, doc, signal);
}

export interface PinnedImages {
  /** False while the stored parts of a kept document are being read. */
  ready: boolean;
  /** The page's (or, with `thumb`, the thumbnail's) object URL, or null when none is stored. */
  src(page: number, thumb: boolean): string | null;
}

const NOT_KEPT: PinnedImages = { ready: true, src: () => null };

/** The stored images of a kept document as object URLs, while it is shown. */
export function usePinnedImages(db: number, doc: ViewerDocumentInfo): PinnedImages {
  const { pin, loaded } = usePinned({ db, archiveId: doc.Archive, docId: doc.Id });
  // Read again when the stored parts change (fetched, fetched again for a new Version).
  const stamp = isViewable(pin) && (!doc.Version || pin.version === doc.Version) ? `${pin.key}|${pin.fetchedAt}|${pin.version}` : null;
  const key = pin?.key;
  const [urls, setUrls] = useState<{ stamp: string; map: Map<string, string> } | null>(null);
  useEffect(() => {
    if (!stamp || !key) return;
    let live = true;
    const made: string[] = [];
    void appDb.pinParts
      .where('pin')
      .equals(key)
      .filter((p) => (p.kind === 'page' || p.kind === 'thumb') && !!p.blob)
      .toArray()
      .then((parts) => {
        if (!live) return;
        const map = new Map<string, string>();
        for (const p of parts) {
          const url = URL.createObjectURL(p.blob!);
          made.push(url);
          map.set(`${p.kind}|${p.page}`, url);
        }
        setUrls({ stamp, map });
      })
      .catch(() => live && setUrls({ stamp, map: new Map() }));
    return () => {
      live = false;
      for (const u of made) URL.revokeObjectURL(u);
    };
  }, [stamp, key]);
  return useMemo(() => {
    if (!loaded) return { ready: false, src: () => null };
    if (!stamp) return NOT_KEPT;
    if (urls?.stamp !== stamp) return { ready: false, src: () => null };
    return { ready: true, src: (page, thumb) => urls.map.get(`${thumb ? 'thumb' : 'page'}|${page}`) ?? null };
  }, [loaded, stamp, urls]);
}

/** The kept index data of a document: the indexer's own (fetched at pin time or since), else the grid's row. */
export async function keptDocumentPage(ref: PinDocRef): Promise<DocumentPage | null> {
  const pin = await readPinnedDocument(ref.db, ref.archiveId, ref.docId);
  if (!pin) return null;
  const kept = DocumentPage.safeParse(pin.index);
  if (kept.success) return kept.data;
  const row = pin.row as { Permissions?: number } | undefined;
  const fromRow = DocumentPage.safeParse({ Count: 1, Docs: [row], Fields: pin.fields ?? pin.archiveFields ?? [], Terms: [], Permissions: row?.Permissions ?? 0 });
  return fromRow.success ? fromRow.data : null;
}

/**
 * The indexer panel's index data of a document (`fetch`: the server's): a kept document's copy is
 * refreshed with each answer, and answers when the server cannot be reached. Use with TanStack's
 * networkMode 'offlineFirst', so the call is tried (and falls back) while the browser is offline.
 */
export async function documentIndexOrKept(ref: PinDocRef, fetch: () => Promise<DocumentPage>): Promise<DocumentPage> {
  try {
    const page = await fetch();
    void updatePinnedIndex(ref, page).catch(() => undefined);
    return page;
  } catch (e) {
    if (problemOf(e) !== 'offline') throw e;
    const kept = await keptDocumentPage(ref).catch(() => null);
    if (kept) return kept;
    throw e;
  }
}

/**
 * A kept document's annotations and the user's rights on its archive: the server's answer (`fresh`,
 * online) refreshes the kept copy; with no answer (offline) the kept copy stands in, so notes and
 * stamps are offered by the rights kept with the document. `at`: when it was kept.
 */
export function useKeptAnnotations(ref: PinDocRef, fresh: DocumentAnnotations | undefined): { data: DocumentAnnotations | undefined; at: number } {
  const { pin } = usePinned(ref);
  const key = pin?.key;
  useEffect(() => {
    if (key && fresh) void updatePinnedAnnotations(ref, fresh).catch(() => undefined);
  }, [key, fresh, ref]);
  const kept = pin?.annotations;
  const data = useMemo(() => {
    const r = DocumentAnnotations.safeParse(kept);
    return r.success ? r.data : undefined;
  }, [kept]);
  return { data, at: pin?.fetchedAt ?? 0 };
}
