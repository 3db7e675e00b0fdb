/**
 * The viewer's rules without a browser (tests/viewer/): the address and its parameters, pages and
 * zoom, the place of a document in its session, content-search terms and the text they mark.
 */

/** the user-app spec §2 /viewer/{documentHash}: archive, documentHash, Id, db; optional terms, search, criteria; session: the viewer session. */
export interface ViewerAddress {
  hash: string;
  archiveId: number;
  docId: number;
  db: number;
  terms?: string;
  searchId?: number;
  criteria?: string;
  session?: string;
}

export function viewerPath(a: ViewerAddress): string {
  const q = new URLSearchParams({ archive: String(a.archiveId), Id: String(a.docId), db: String(a.db) });
  if (a.terms) q.set('terms', a.terms);
  if (a.searchId) q.set('search', String(a.searchId));
  if (a.criteria) q.set('criteria', a.criteria);
  if (a.session) q.set('session', a.session);
  return `/viewer/${encodeURIComponent(a.hash)}?${q.toString()}`;
}

const positiveInt = (v: string | null): number => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

/** The address's parameters, or null when a required one is missing or not a positive number. */
export function parseViewerAddress(hash: string | undefined, params: URLSearchParams): ViewerAddress | null {
  const archiveId = positiveInt(params.get('archive'));
  const docId = positiveInt(params.get('Id'));
  const db = positiveInt(params.get('db'));
  if (!hash || !archiveId || !docId || !db) return null;
  const searchId = positiveInt(params.get('search'));
  return {
    hash,
    archiveId,
    docId,
    db,
    terms: params.get('terms') || undefined,
    searchId: searchId || undefined,
    criteria: params.get('criteria') || undefined,
    session: params.get('session') || undefined,
  };
}

/** What the viewer calls a document: its title as the grid names it, else its file name, else its id. */
export function documentTitle(doc: { Title?: string | null; FileName?: string | null; Id: number }): string {
  return doc.Title?.trim() || doc.FileName?.trim() || String(doc.Id);
}

export function clampPage(page: number, pages: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.round(page)), Math.max(1, pages));
}

/** Zoom: fit the width, fit the whole page, or a factor of the width fit (1 = fit width). */
export type Zoom = { kind: 'fit-width' } | { kind: 'fit-page' } | { kind: 'scale'; value: number };
export const ZOOM_MIN = 0.25;
export const ZOOM_MAX = 5;
export const ZOOM_STEP = 1.25;

export interface Size {
  width: number;
  height: number;
}

/** The width the page is shown at, in CSS pixels, in a box of `box` for a page of aspect `page`. */
export function pageWidth(zoom: Zoom, box: Size, page: Size): number {
  const fitWidth = Math.max(1, box.width);
  if (zoom.kind === 'fit-width') return Math.round(fitWidth);
  if (zoom.kind === 'fit-page') {
    const byHeight = page.height > 0 ? (box.height * page.width) / page.height : fitWidth;
    return Math.max(1, Math.round(Math.min(fitWidth, byHeight)));
  }
  return Math.max(1, Math.round(fitWidth * zoom.value));
}

/** The zoom as a factor of the width fit, whatever its kind (for the next step and the label). */
export function zoomFactor(zoom: Zoom, box: Size, page: Size): number {
  return pageWidth(zoom, box, page) / Math.max(1, box.width);
}

export function zoomBy(zoom: Zoom, box: Size, page: Size, direction: 1 | -1): Zoom {
  const now = zoomFactor(zoom, box, page);
  const next = direction > 0 ? now * ZOOM_STEP : now / ZOOM_STEP;
  return { kind: 'scale', value: Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(next * 100) / 100)) };
}

/**
 * The width asked of the server for a page image (TIFF pages, thumbnails): the shown width in device
 * pixels, rounded up to a step so small resizes reuse the same image, and at most the server's 1,600.
 */
export const SERVER_IMAGE_MAX = 1600;
export function serverImageWidth(cssWidth: number, pixelRatio: number, step = 200): number {
  const px = Math.max(1, cssWidth * Math.max(1, pixelRatio));
  return Math.min(SERVER_IMAGE_MAX, Math.ceil(px / step) * step);
}

/** Canvas pixels for a PDF page: its CSS size times the pixel ratio, with the longer side at most `max`. */
export function canvasScale(cssWidth: number, cssHeight: number, pixelRatio: number, max = 4096): number {
  const ratio = Math.max(1, pixelRatio);
  const longest = Math.max(cssWidth, cssHeight) * ratio;
  return longest > max ? (ratio * max) / longest : ratio;
}

/** Where a document is in its session's list, and its neighbours (null at either end). */
export function placeInSession<T extends { Id: number; Archive: number }>(docs: readonly T[], docId: number, archiveId: number) {
  const index = docs.findIndex((d) => d.Id === docId && d.Archive === archiveId);
  if (index < 0) return { index: -1, count: docs.length, previous: null, next: null };
  return { index, count: docs.length, previous: docs[index - 1] ?? null, next: docs[index + 1] ?? null };
}

/**
 * The words and phrases of a content search ("a b", "exact phrase", and commas), lower-cased, without
 * the operators AND, OR and NOT and without words shorter than two characters.
 */
export function parseTerms(terms: string | null | undefined): string[] {
  if (!terms) return [];
  const out: string[] = [];
  for (const m of terms.matchAll(/"([^"]+)"|([^\s,"]+)/g)) {
    const t = (m[1] ?? m[2] ?? '').replace(/[*?]+/g, '').trim().toLowerCase();
    if (t.length < 2 || (!m[1] && /^(and|or|not)$/.test(t))) continue;
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** Indexes of the text items (pdf.js text runs) that hold one of the terms, ignoring case. */
export function matchingItems(items: readonly string[], terms: readonly string[]): number[] {
  if (terms.length === 0) return [];
  const out: number[] = [];
  items.forEach((text, i) => {
    const lower = text.toLowerCase();
    if (terms.some((t) => lower.includes(t))) out.push(i);
  });
  return out;
}

/**
 * Thumbnails load once they have been in view for `delay` ms (the archive-ops spec §9: 0.5 s), so a
 * fast scroll through a long strip asks the server for nothing. Timers are injected for the tests.
 */
export const THUMBNAIL_DWELL_MS = 500;
export function createDwellTracker(
  onDwell: (key: number) => void,
  delay = THUMBNAIL_DWELL_MS,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (t: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  },
) {
  const waiting = new Map<number, unknown>();
  const done = new Set<number>();
  return {
    visible(key: number, inView: boolean) {
      if (done.has(key)) return;
      const t = waiting.get(key);
      if (!inView) {
        if (t !== undefined) timers.clear(t);
        waiting.delete(key);
        return;
      }
      if (t !== undefined) return;
      waiting.set(
        key,
        timers.set(() => {
          waiting.delete(key);
          done.add(key);
          onDwell(key);
        }, delay),
      );
    },
    stop() {
      for (const t of waiting.values()) timers.clear(t);
      waiting.clear();
    },
  };
}

/** What a failure to show a document means to the user. */
export type ViewerProblem = 'forbidden' | 'missing' | 'offline' | 'server' | 'address';
export function problemOf(e: unknown): ViewerProblem {
  const err = e as { kind?: string; status?: number } | null;
  if (err?.kind === 'network') return 'offline';
  if (err?.status === 403) return 'forbidden';
  if (err?.status === 404) return 'missing';
  return 'server';
}
