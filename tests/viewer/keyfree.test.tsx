// @vitest-environment happy-dom
/**
 * Key-free extraction without a browser: picking a word against the indexer's target (fill, next
 * field, stop after the last, a refused word), where a page's words come from (server first; with no
 * connection the pinned page's stored words or the device's OCR of its image), and the hook's 1.5 s
 * wait on the shown page before its words are asked for, with the words as buttons that fill fields.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import type { PageWords } from '../../src/api/words';
import type { ViewerDocumentInfo } from '../../src/api/viewer';
import { i18n } from '../../src/i18n/i18n';
import { IndexerTargetContext, type IndexerTarget } from '../../src/features/viewer/indexer-target';
import { KEYFREE_DEBOUNCE_MS, loadErrorNotice, pickWord, wordsOutcome } from '../../src/features/viewer/keyfree/keyfree-logic';
import { useKeyFree } from '../../src/features/viewer/keyfree/use-key-free';
import { forgetPageWords, loadPageWords, setPinnedPageSource, type WordsDocument } from '../../src/features/viewer/ocr/page-words';

const word = (Value: string, Line = 1, Confidence = 95) => ({ Value, Top: 0.1 * Line, Left: 0.1, Width: 0.1, Height: 0.02, Line, Confidence });
const pageWords = (words = [word('Invoice'), word('1042', 1), word('Acme', 2)]): PageWords => ({ Page: 1, ImageWidth: 1600, ImageHeight: 2070, Words: words });

/** An indexer with these fields, filled in order; values in `filled`. A field named 'Status' takes only 'Paid'. */
function fakeIndexer(names: string[]) {
  const filled: [string, string, number][] = [];
  let i = 0;
  const target: IndexerTarget = {
    get current() {
      return i < names.length ? { id: i + 1, name: names[i]! } : null;
    },
    fill(value, confidence) {
      const name = names[i]!;
      if (name === 'Status' && value !== 'Paid') return { ok: false, key: 'KEYFREE_LIST_ITEM_NOT_FOUND' };
      filled.push([name, value, confidence]);
      i++;
      return { ok: true, next: i < names.length ? { id: i + 1, name: names[i]! } : null };
    },
  };
  return { target, filled };
}

describe('pickWord', () => {
  it('fills the current field and goes on; stops after the last field', () => {
    const { target, filled } = fakeIndexer(['Invoice number', 'Customer']);
    expect(pickWord(target, word('1042', 1, 91))).toEqual({ active: true, notice: null });
    expect(pickWord(target, word('Acme'))).toEqual({ active: false, notice: { key: 'KEYFREE_FINISHED' } });
    expect(filled).toEqual([
      ['Invoice number', '1042', 91],
      ['Customer', 'Acme', 95],
    ]);
  });

  it('a word the field refuses is said with its key, and extraction stays on', () => {
    const { target, filled } = fakeIndexer(['Status']);
    expect(pickWord(target, word('Open'))).toEqual({ active: true, notice: { key: 'KEYFREE_LIST_ITEM_NOT_FOUND', values: { field: 'Status', word: 'Open' }, error: true } });
    expect(filled).toEqual([]);
  });

  it('without an indexer panel there is nothing to fill', () => {
    expect(pickWord(null, word('x'))).toEqual({ active: false, notice: { key: 'KEYFREE_NEEDS_INDEXER', error: true } });
  });
});

describe('a page\'s words', () => {
  const doc: WordsDocument = { db: 1, archiveId: 2, id: 3, hash: 'h' };
  const offline = () => Promise.reject(new ApiError({ kind: 'network', method: 'GET', url: '/words' }));
  beforeEach(() => {
    forgetPageWords();
    setPinnedPageSource({});
  });

  it('come from the server, once per page in this tab', async () => {
    const fetchServer = vi.fn(async () => pageWords());
    expect(await loadPageWords(doc, 1, { fetchServer })).toEqual(pageWords());
    await loadPageWords(doc, 1, { fetchServer });
    expect(fetchServer).toHaveBeenCalledTimes(1);
  });

  it('with no connection: the pinned page\'s stored words, else the device reads its image and the words are kept', async () => {
    const stored = pageWords([word('Stored')]);
    setPinnedPageSource({ getPinnedPageWords: async (_d, p) => (p === 1 ? stored : null), getPinnedPageImage: async () => new Blob(['png']), putPinnedPageWords: async (_d, p, w) => void kept.push([p, w]) });
    const kept: [number, PageWords][] = [];
    const deviceOcr = vi.fn(async (_b: Blob, page: number) => ({ ...pageWords([word('Device')]), Page: page }));
    expect((await loadPageWords(doc, 1, { fetchServer: offline, deviceOcr })).Words[0]!.Value).toBe('Stored');
    expect((await loadPageWords(doc, 2, { fetchServer: offline, deviceOcr })).Words[0]!.Value).toBe('Device');
    expect(deviceOcr).toHaveBeenCalledTimes(1);
    expect(kept.map(([p, w]) => [p, w.Words[0]!.Value])).toEqual([[2, 'Device']]);
  });

  it('with no connection and nothing kept: the network error; a server refusal is never worked around', async () => {
    await expect(loadPageWords(doc, 1, { fetchServer: offline })).rejects.toMatchObject({ kind: 'network' });
    setPinnedPageSource({ getPinnedPageImage: async () => new Blob(['png']) });
    const deviceOcr = vi.fn();
    const refused = () => Promise.reject(new ApiError({ kind: 'http', method: 'GET', url: '/words', status: 503, key: 'DATA_EXTRACTION_NOT_REGISTERED' }));
    const e = await loadPageWords(doc, 1, { fetchServer: refused, deviceOcr }).catch((x: unknown) => x);
    expect(loadErrorNotice(e)).toEqual({ key: 'DATA_EXTRACTION_NOT_REGISTERED', error: true });
    expect(deviceOcr).not.toHaveBeenCalled();
  });

  it("with no connection and the device's engine not kept: says the page cannot be read offline; another OCR failure names itself", async () => {
    setPinnedPageSource({ getPinnedPageImage: async () => new Blob(['png']) });
    const unavailable = vi.fn(() => Promise.reject(Object.assign(new Error('TypeError: Failed to fetch'), { name: 'OcrEngineUnavailable' })));
    const e = await loadPageWords(doc, 1, { fetchServer: offline, deviceOcr: unavailable }).catch((x: unknown) => x);
    expect(loadErrorNotice(e)).toEqual({ key: 'KEYFREE_OFFLINE', error: true });
    const broken = vi.fn(() => Promise.reject(new Error('out of memory')));
    const f = await loadPageWords(doc, 2, { fetchServer: offline, deviceOcr: broken }).catch((x: unknown) => x);
    expect(loadErrorNotice(f)).toEqual({ key: 'KEYFREE_LOAD_FAILED', values: { message: 'out of memory' }, error: true });
  });

  it('a page without words is ERROR_NO_KFI_WORDS', () => {
    expect(wordsOutcome(pageWords([]))).toEqual({ error: { key: 'ERROR_NO_KFI_WORDS', error: true } });
  });
});

describe('useKeyFree in the viewer', () => {
  const info: ViewerDocumentInfo = { Archive: 2, Id: 3, Hash: 'h', Available: true, FileType: 'TIF', Pages: 2 };
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  function Harness(p: { page: number; load: typeof loadPageWords }) {
    const kf = useKeyFree({ db: 1, doc: info, page: p.page, pdf: null, load: p.load });
    return (
      <>
        {kf.control}
        {kf.overlays.map((o, i) => (
          <div key={i}>{o({ pageNo: p.page, width: 800, height: 1000 })}</div>
        ))}
      </>
    );
  }
  const show = (target: IndexerTarget | null, page: number, load: typeof loadPageWords) => (
    <I18nextProvider i18n={i18n}>
      <IndexerTargetContext.Provider value={target}>
        <Harness page={page} load={load} />
      </IndexerTargetContext.Provider>
    </I18nextProvider>
  );

  it('asks for the shown page\'s words after 1.5 s on it (not for a page passed through), then three taps fill three fields', async () => {
    vi.useFakeTimers();
    const { target, filled } = fakeIndexer(['Invoice number', 'Customer', 'Amount']);
    const load = vi.fn(async (_d: WordsDocument, page: number) => ({ ...pageWords([word('1042'), word('Acme', 2), word('99.50', 3)]), Page: page }));
    const view = render(show(target, 1, load));
    fireEvent.click(screen.getByRole('button', { name: 'Key-free extraction' }));
    expect(screen.getByRole('button', { name: 'Key-free extraction' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('keyfree-status').textContent).toBe('Reading the words of this page…');
    await act(async () => vi.advanceTimersByTime(KEYFREE_DEBOUNCE_MS - 100));
    view.rerender(show(target, 2, load));
    await act(async () => vi.advanceTimersByTime(KEYFREE_DEBOUNCE_MS - 1));
    expect(load).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]![1]).toBe(2);
    expect(screen.getByTestId('keyfree-status').textContent).toBe('Tap a word for: Invoice number');
    fireEvent.click(screen.getByRole('button', { name: '1042' }));
    expect(screen.getByTestId('keyfree-status').textContent).toBe('Tap a word for: Customer');
    fireEvent.click(screen.getByRole('button', { name: 'Acme' }));
    fireEvent.click(screen.getByRole('button', { name: '99.50' }));
    expect(filled.map(([f, v]) => [f, v])).toEqual([
      ['Invoice number', '1042'],
      ['Customer', 'Acme'],
      ['Amount', '99.50'],
    ]);
    // After the last field: off, the words gone, and said.
    expect(screen.getByRole('button', { name: 'Key-free extraction' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Acme' })).toBeNull();
    expect(screen.getByTestId('keyfree-notice').textContent).toBe('The last field is filled; key-free extraction has stopped.');
  });

  it('without the indexer panel the toggle stays off and says why; a page with no words stops with ERROR_NO_KFI_WORDS', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => pageWords([]));
    const view = render(show(null, 1, load));
    fireEvent.click(screen.getByRole('button', { name: 'Key-free extraction' }));
    expect(screen.getByRole('button', { name: 'Key-free extraction' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('alert').textContent).toBe('Open the indexer panel first: a tapped word fills its current field.');
    view.rerender(show(fakeIndexer(['Customer']).target, 1, load));
    fireEvent.click(screen.getByRole('button', { name: 'Key-free extraction' }));
    await act(async () => vi.advanceTimersByTime(KEYFREE_DEBOUNCE_MS));
    expect(screen.getByRole('alert').textContent).toBe('No words were found on this page.');
    expect(screen.getByRole('button', { name: 'Key-free extraction' }).getAttribute('aria-pressed')).toBe('false');
  });
});
