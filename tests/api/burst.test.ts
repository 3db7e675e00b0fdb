/** The burst rules both sides apply (src/api/burst.ts) and the view route's address of an import document. */
import { describe, expect, it } from 'vitest';
import { BURST_KEYS, burstIndexPath, burstPages, burstRefusal, importDocThumbUrl, isBurstable } from '../../src/api/burst';

const ok = { documents: 1, fileType: 'PDF', pages: [2], total: 3, deletePages: false };

describe('burstRefusal (the archive-ops spec §5)', () => {
  it('lets one TIFF or PDF document with a page chosen through', () => {
    expect(burstRefusal(ok)).toBeNull();
    expect(burstRefusal({ ...ok, fileType: 'tif' })).toBeNull();
    expect(burstRefusal({ ...ok, fileType: 'TIFF', deletePages: true })).toBeNull();
    // Every page without removing them is a copy.
    expect(burstRefusal({ ...ok, pages: [1, 2, 3] })).toBeNull();
  });
  it('refuses each case with its key, the document checks first', () => {
    expect(burstRefusal({ ...ok, documents: 2 })).toBe(BURST_KEYS.multipleDocs);
    expect(burstRefusal({ ...ok, documents: 2, pages: [] })).toBe(BURST_KEYS.multipleDocs);
    expect(burstRefusal({ ...ok, fileType: 'DOCX' })).toBe(BURST_KEYS.edoc);
    expect(burstRefusal({ ...ok, fileType: null })).toBe(BURST_KEYS.edoc);
    expect(burstRefusal({ ...ok, pages: [] })).toBe(BURST_KEYS.noThumbnail);
    // Pages outside the document are no choice.
    expect(burstRefusal({ ...ok, pages: [0, 4] })).toBe(BURST_KEYS.noThumbnail);
    expect(burstRefusal({ ...ok, pages: [3, 1, 2, 2], deletePages: true })).toBe(BURST_KEYS.removeAll);
  });
});

describe('the burst call and the view route', () => {
  it('sends each page once, in document order', () => {
    expect(burstPages(new Set([3, 1]))).toEqual([1, 3]);
    expect(burstPages([2, 2, 0, -1, 1.5, 5])).toEqual([2, 5]);
  });
  it('knows the burstable types', () => {
    expect(['PDF', 'pdf', 'TIF', 'TIFF'].map(isBurstable)).toEqual([true, true, true, true]);
    expect(['PNG', '', undefined].map(isBurstable)).toEqual([false, false, false]);
  });
  it('names the import document, its pages and the source in the view route', () => {
    const path = burstIndexPath({ db: 1, importDoc: 'a-b', pages: [1, 3], deletePages: true, ogArchive: 2, ogDoc: 40 });
    expect(path).toBe('/view?db=1&ImportDoc=a-b&RequestedPages=1&RequestedPages=3&deleteBurstedPages=true&ogArchive=2&ogDoc=40');
    expect(burstIndexPath({ db: 1, importDoc: 'x', pages: [2], deletePages: false, ogArchive: 2, ogDoc: 4, fromIndexer: true })).toContain('deleteBurstedPages=false&ogArchive=2&ogDoc=4&fromIndexer=true');
    expect(importDocThumbUrl({ baseUrl: 'http://h/', token: 't', importDoc: 'x', page: 2, width: 300 })).toBe('http://h/api/files?fileName=x&action=thumb&Page=2&Width=300&token=t');
  });
});
