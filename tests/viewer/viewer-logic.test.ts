import { describe, expect, it, vi } from 'vitest';
import {
  THUMBNAIL_DWELL_MS, canvasScale, clampPage, createDwellTracker, matchingItems, pageWidth, parseTerms, parseViewerAddress, placeInSession, problemOf,
  serverImageWidth, viewerPath, zoomBy, zoomFactor,
} from '../../src/features/viewer/viewer-logic';
import { termsParam } from '../../src/features/viewer/open-document';

describe('the viewer address', () => {
  it('round-trips through viewerPath and parseViewerAddress', () => {
    const a = { hash: 'ab/c d', archiveId: 3, docId: 41, db: 1, terms: '"late fee" invoice', searchId: 7, criteria: '[{"ID":1}]', session: 'abc-1' };
    const url = new URL(viewerPath(a), 'http://x');
    expect(url.pathname).toBe('/viewer/ab%2Fc%20d');
    expect(parseViewerAddress(decodeURIComponent(url.pathname.slice('/viewer/'.length)), url.searchParams)).toEqual(a);
  });
  it('needs archive, Id and db as positive numbers', () => {
    expect(parseViewerAddress('h', new URLSearchParams('archive=1&Id=2'))).toBeNull();
    expect(parseViewerAddress('h', new URLSearchParams('archive=1&Id=x&db=1'))).toBeNull();
    expect(parseViewerAddress(undefined, new URLSearchParams('archive=1&Id=2&db=1'))).toBeNull();
    expect(parseViewerAddress('h', new URLSearchParams('archive=1&Id=2&db=1&search=0'))).toEqual({ hash: 'h', archiveId: 1, docId: 2, db: 1 });
  });
});

describe('pages and zoom', () => {
  const box = { width: 800, height: 600 };
  const a4 = { width: 595, height: 842 };
  it('clamps a page into 1..pages', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(2.6, 5)).toBe(3);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(3, 0)).toBe(1);
  });
  it('fits the width, the whole page, or scales the width fit', () => {
    expect(pageWidth({ kind: 'fit-width' }, box, a4)).toBe(800);
    expect(pageWidth({ kind: 'fit-page' }, box, a4)).toBe(Math.round((600 * 595) / 842));
    // A landscape page in a tall box: fit page is limited by the width.
    expect(pageWidth({ kind: 'fit-page' }, { width: 500, height: 900 }, { width: 842, height: 595 })).toBe(500);
    expect(pageWidth({ kind: 'scale', value: 1.5 }, box, a4)).toBe(1200);
  });
  it('zooms in and out in steps of 1.25 from whatever fit is on, within 25 %..500 %', () => {
    const fromFitPage = zoomBy({ kind: 'fit-page' }, box, a4, 1);
    expect(fromFitPage.kind).toBe('scale');
    expect(zoomFactor(fromFitPage, box, a4)).toBeCloseTo(zoomFactor({ kind: 'fit-page' }, box, a4) * 1.25, 1);
    expect(zoomBy({ kind: 'fit-width' }, box, a4, 1)).toEqual({ kind: 'scale', value: 1.25 });
    expect(zoomBy({ kind: 'fit-width' }, box, a4, -1)).toEqual({ kind: 'scale', value: 0.8 });
    expect(zoomBy({ kind: 'scale', value: 4.9 }, box, a4, 1)).toEqual({ kind: 'scale', value: 5 });
    expect(zoomBy({ kind: 'scale', value: 0.26 }, box, a4, -1)).toEqual({ kind: 'scale', value: 0.25 });
  });
  it('asks the server for page images in 200 px steps of device pixels, at most 1,600', () => {
    expect(serverImageWidth(700, 1)).toBe(800);
    expect(serverImageWidth(700, 2)).toBe(1400);
    expect(serverImageWidth(1200, 2)).toBe(1600);
    expect(serverImageWidth(1, 0)).toBe(200);
  });
  it('keeps a canvas under 4,096 px on its longer side', () => {
    expect(canvasScale(800, 1100, 2)).toBe(2);
    expect(canvasScale(3000, 4000, 2) * 4000).toBeCloseTo(4096);
  });
});

describe('the document in its session', () => {
  const docs = [1, 2, 3].map((i) => ({ Id: i, Archive: 10, Hash: `h${i}` }));
  it('gives its place and its neighbours', () => {
    expect(placeInSession(docs, 2, 10)).toEqual({ index: 1, count: 3, previous: docs[0], next: docs[2] });
    expect(placeInSession(docs, 1, 10)).toMatchObject({ index: 0, previous: null, next: docs[1] });
    expect(placeInSession(docs, 3, 10)).toMatchObject({ index: 2, previous: docs[1], next: null });
  });
  it('does not find a document of another archive with the same id', () => {
    expect(placeInSession(docs, 2, 11)).toEqual({ index: -1, count: 3, previous: null, next: null });
  });
});

describe('content-search terms', () => {
  it('parses words and quoted phrases, without operators, duplicates and wildcards', () => {
    expect(parseTerms('Invoice "Late Fee" AND total, invoice or x tot*')).toEqual(['invoice', 'late fee', 'total', 'tot']);
    expect(parseTerms('')).toEqual([]);
    expect(parseTerms(undefined)).toEqual([]);
  });
  it('marks the text runs that hold a term, ignoring case', () => {
    expect(matchingItems(['Invoice 12', 'Total due', 'a late fee applies', ''], ['invoice', 'late fee'])).toEqual([0, 2]);
    expect(matchingItems(['Invoice'], [])).toEqual([]);
  });
  it('gives the grid search terms to the viewer with phrases quoted', () => {
    expect(termsParam(['invoice', 'late fee'])).toBe('invoice "late fee"');
    expect(parseTerms(termsParam(['invoice', 'late fee']))).toEqual(['invoice', 'late fee']);
  });
});

describe('thumbnails load after 0.5 s in view', () => {
  it('loads a thumbnail that stayed in view, not one scrolled past, and each once', () => {
    vi.useFakeTimers();
    try {
      const loaded: number[] = [];
      const tracker = createDwellTracker((k) => loaded.push(k));
      tracker.visible(1, true);
      tracker.visible(2, true);
      vi.advanceTimersByTime(THUMBNAIL_DWELL_MS - 100);
      tracker.visible(2, false);
      vi.advanceTimersByTime(100);
      expect(loaded).toEqual([1]);
      tracker.visible(1, false);
      tracker.visible(1, true);
      vi.advanceTimersByTime(THUMBNAIL_DWELL_MS);
      expect(loaded).toEqual([1]);
      tracker.visible(3, true);
      tracker.stop();
      vi.advanceTimersByTime(THUMBNAIL_DWELL_MS);
      expect(loaded).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('problems in words', () => {
  it('tells no connection, no right, missing and server failures apart', () => {
    expect(problemOf({ kind: 'network' })).toBe('offline');
    expect(problemOf({ kind: 'http', status: 403 })).toBe('forbidden');
    expect(problemOf({ kind: 'http', status: 404 })).toBe('missing');
    expect(problemOf({ kind: 'http', status: 500 })).toBe('server');
    expect(problemOf(new Error('x'))).toBe('server');
  });
});
