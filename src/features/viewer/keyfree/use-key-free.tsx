/**
 * Key-free extraction in the viewer (rules in keyfree-logic.ts): whether it is on, the words of the
 * shown page once it has been shown for 1.5 s, and what picking one does. State lives in this hook
 * (on/off, the page's words, the last notice); the words themselves are kept by ocr/page-words.ts.
 * The viewer puts `control` in its toolbar and `overlays` over the page.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { isAbortError } from '../../../api/api-error';
import type { ViewerDocumentInfo } from '../../../api/viewer';
import type { KeyFreeWord } from '../../../api/words';
import { useIndexerTarget } from '../indexer-target';
import { loadPageWords, type WordsDocument } from '../ocr/page-words';
import { renderPdfPageImage } from '../ocr/render-pdf-page';
import type { PageOverlay } from '../page-overlay';
import { KEYFREE_DEBOUNCE_MS, loadErrorNotice, pickWord, startNotice, wordsOutcome, type KeyFreeNotice } from './keyfree-logic';
import { KeyFreeControl } from './keyfree-control';
import { KeyFreeLayer } from './keyfree-layer';

type Loader = typeof loadPageWords;

export interface KeyFree {
  control: ReactNode;
  overlays: readonly PageOverlay[];
}

export function useKeyFree(p: { db: number; doc: ViewerDocumentInfo; page: number; pdf: PDFDocumentProxy | null; load?: Loader; delayMs?: number }): KeyFree {
  const { db, page, pdf } = p;
  const load = p.load ?? loadPageWords;
  const delay = p.delayMs ?? KEYFREE_DEBOUNCE_MS;
  const target = useIndexerTarget();
  const doc: WordsDocument = useMemo(() => ({ db, archiveId: p.doc.Archive, id: p.doc.Id, hash: p.doc.Hash }), [db, p.doc.Archive, p.doc.Id, p.doc.Hash]);
  const docKey = `${doc.db}/${doc.archiveId}/${doc.id}/${doc.hash}`;
  const key = `${docKey}/${page}`;
  // On for this document (another document's fields are not this one's: extraction ends with it), and
  // the last notice, said for the document it came from.
  const [onFor, setOnFor] = useState<string | null>(null);
  const [said, setSaid] = useState<{ docKey: string; notice: KeyFreeNotice | null } | null>(null);
  const [loaded, setLoaded] = useState<{ key: string; words: KeyFreeWord[] } | null>(null);
  const setActive = useCallback((on: boolean) => setOnFor(on ? docKey : null), [docKey]);
  const setNotice = useCallback((notice: KeyFreeNotice | null) => setSaid({ docKey, notice }), [docKey]);
  // The indexer panel closed, or no field is left: extraction is off, and says why.
  const stranded = onFor === docKey && !target?.current;
  const active = onFor === docKey && !stranded;
  const notice = stranded ? startNotice(target) : said?.docKey === docKey ? said.notice : null;

  // The shown page's words, once it has been shown for `delay` while extraction is on.
  useEffect(() => {
    if (!active || loaded?.key === key) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      const renderPage = pdf ? (n: number) => renderPdfPageImage(pdf, n) : undefined;
      load(doc, page, { signal: abort.signal, renderPage }).then(
        (words) => {
          if (abort.signal.aborted) return;
          const outcome = wordsOutcome(words);
          if ('error' in outcome) {
            setActive(false);
            setNotice(outcome.error);
          } else setLoaded({ key, words: outcome.words });
        },
        (e: unknown) => {
          if (abort.signal.aborted || isAbortError(e)) return;
          setActive(false);
          setNotice(loadErrorNotice(e));
        },
      );
    }, delay);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [active, key, loaded?.key, load, doc, page, pdf, delay, setActive, setNotice]);

  const toggle = useCallback(() => {
    if (active) {
      setActive(false);
      setNotice(null);
      return;
    }
    const refusal = startNotice(target);
    setNotice(refusal);
    if (!refusal) setActive(true);
  }, [active, target, setActive, setNotice]);

  const onPick = useCallback(
    (word: KeyFreeWord) => {
      const r = pickWord(target, word);
      setActive(r.active);
      setNotice(r.notice);
    },
    [target, setActive, setNotice],
  );

  const words = active && loaded?.key === key ? loaded.words : null;
  const overlays = useMemo<readonly PageOverlay[]>(
    () => (words ? [(o) => (o.pageNo === page ? <KeyFreeLayer key="keyfree" page={page} words={words} onPick={onPick} /> : null)] : []),
    [words, page, onPick],
  );
  const state = !active ? 'off' : words ? 'ready' : 'loading';
  const control = <KeyFreeControl state={state} field={target?.current?.name ?? null} notice={notice} onToggle={toggle} />;
  return { control, overlays };
}
