/**
 * One document in the viewer: its pages one at a time (PDF drawn on the device, other types from the
 * server's page images), the toolbar, and the thumbnails strip. Page, zoom and strip are this view's
 * state; the document's place in its session comes from the screen. Keyboard: PageUp / PageDown turn
 * pages, Home / End go to the first and last (not while typing in a box).
 */
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { ViewerDocumentInfo } from '../../../api/viewer';
import { getToken } from '../../../session/session';
import { documentBytes, usePinnedImages } from '../pins/pinned-viewer';
import { openPdf } from '../pdf-engine';
import { clampPage, documentTitle, pageWidth, problemOf, serverImageWidth, zoomBy, zoomFactor, type Size, type ViewerProblem, type Zoom } from '../viewer-logic';
import { ImagePage } from './image-page';
import { PdfPage } from './pdf-page';
import { THUMB_SIZE, ThumbnailStrip } from './thumbnail-strip';
import { ViewerProblemView } from './viewer-problem';
import { ViewerToolbar, type ToolbarProps } from './viewer-toolbar';
import { documentThumbUrl } from '../../../api/documents';
import type { PageOverlay } from '../page-overlay';
import { useKeyFree } from '../keyfree/use-key-free';
import { useAnnotations } from '../annotations/use-annotations';
import { AnnotationLayer } from './annotation-layer';
import { AnnotationTools } from './annotation-tools';
import { isOnline } from '../../../api/connectivity';

const A4: Size = { width: 595, height: 842 };
const PAGE_MARGIN = 16;
const isTyping = (el: EventTarget | null) => el instanceof HTMLElement && (el.matches('input, textarea, select') || el.isContentEditable);

export function DocumentView(props: { db: number; doc: ViewerDocumentInfo; terms: readonly string[]; baseUrl: string; place: ToolbarProps['place']; onBack: ToolbarProps['onBack']; /** Beside the page area: the indexer (indexer-dock.tsx). */ indexer?: ReactNode }) {
  const { t } = useTranslation();
  const { db, doc, baseUrl } = props;
  const isPdf = (doc.FileType ?? '').toUpperCase() === 'PDF';
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [problem, setProblem] = useState<ViewerProblem | 'file' | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [page, setPageRaw] = useState(1);
  const [zoom, setZoom] = useState<Zoom>({ kind: 'fit-width' });
  // Opened for a burst (burst=1 in the address): the thumbnails are where pages are chosen.
  const [thumbsOpen, setThumbsOpen] = useState(() => new URLSearchParams(window.location.search).get('burst') === '1');
  const [box, setBox] = useState<Size>({ width: 0, height: 0 });
  const [pageSize, setPageSize] = useState<Size>(A4);
  const areaRef = useRef<HTMLDivElement>(null);
  const pages = Math.max(1, pdf?.numPages ?? doc.Pages ?? 1);
  const setPage = useCallback((n: number) => setPageRaw(clampPage(n, pages)), [pages]);
  // Rotation, annotations and stamps (annotations/use-annotations.ts): a turned page is fetched again.
  const ann = useAnnotations({ db, doc, page, title: documentTitle(doc) });
  const fileKey = `${doc.Version ?? ''}|${ann.fileRev}`;

  // The PDF's bytes (Auth-Token header) and pdf.js's document; ended when the document changes.
  useEffect(() => {
    if (!isPdf) return;
    const abort = new AbortController();
    let opened: PDFDocumentProxy | null = null;
    documentBytes(db, { archiveId: doc.Archive, id: doc.Id, hash: doc.Hash, version: doc.Version }, abort.signal)
      .then(
        (bytes) =>
          openPdf(bytes).then(
            (p) => {
              opened = p;
              if (abort.signal.aborted) void p.destroy();
              else setPdf(p);
            },
            () => !abort.signal.aborted && setProblem('file'),
          ),
        (e: unknown) => !abort.signal.aborted && setProblem(problemOf(e)),
      );
    return () => {
      abort.abort();
      void opened?.destroy();
    };
  }, [isPdf, db, doc.Archive, doc.Id, doc.Hash, doc.Version, attempt, fileKey]);

  // The page area's inner size, followed through resizes and rotations.
  useLayoutEffect(() => {
    const el = areaRef.current;
    if (!el) return;
    const measure = () => setBox({ width: Math.max(1, el.clientWidth - 2 * PAGE_MARGIN), height: Math.max(1, el.clientHeight - 2 * PAGE_MARGIN) });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [thumbsOpen, problem]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = e.key === 'PageDown' ? page + 1 : e.key === 'PageUp' ? page - 1 : e.key === 'Home' ? 1 : e.key === 'End' ? pages : null;
      if (to === null) return;
      e.preventDefault();
      setPage(to);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page, pages, setPage]);

  const width = box.width > 1 ? pageWidth(zoom, box, pageSize) : 0;
  const percent = Math.round(zoomFactor(zoom, box, pageSize) * 100);
  const onPageSize = useCallback((s: Size) => setPageSize((old) => (old.width === s.width && old.height === s.height ? old : s)), []);
  const onPdfError = useCallback(() => setProblem('file'), []);
  // A document kept on this device shows its stored page images and thumbnails (pins/pinned-viewer.ts).
  const stored = usePinnedImages(db, doc);
  const imageSrc = useCallback(
    (n: number, w: number, h?: number) => stored.src(n, h !== undefined) ?? documentThumbUrl({ baseUrl, token: getToken(), db, archiveId: doc.Archive, docId: doc.Id, hash: doc.Hash, page: n, width: w, height: h, version: fileKey }),
    [baseUrl, db, doc.Archive, doc.Id, doc.Hash, fileKey, stored],
  );
  const thumbSrc = useCallback((n: number, scale: number) => imageSrc(n, THUMB_SIZE * scale, THUMB_SIZE * scale), [imageSrc]);
  const terms = useMemo(() => props.terms, [props.terms]);
  const thumbsId = 'viewer-thumbnails';
  // The layers drawn over the page (page-overlay.ts), at the page's drawn size.
  const keyFree = useKeyFree({ db, doc, page, pdf });
  const overlays: readonly PageOverlay[] = [...keyFree.overlays, (p) => <AnnotationLayer {...p} state={ann} />];
  const drawn = { pageNo: page, width, height: pageSize.width > 0 ? Math.round((width * pageSize.height) / pageSize.width) : 0 };
  const overlay = overlays.length > 0 ? overlays.map((o, i) => <Fragment key={i}>{o(drawn)}</Fragment>) : null;

  let body;
  if (problem) {
    body = (
      <ViewerProblemView
        problem={problem}
        onRetry={() => {
          setProblem(null);
          setAttempt((a) => a + 1);
        }}
      />
    );
  } else if (width === 0 || (isPdf && !pdf) || !stored.ready) {
    body = <p className="viewer-loading" role="status">{t('VIEWER_LOADING')}</p>;
  } else if (isPdf && pdf) {
    body = <PdfPage pdf={pdf} pageNo={page} pages={pages} width={width} terms={terms} onPageSize={onPageSize} onError={onPdfError}>
        {overlay}
      </PdfPage>;
  } else {
    body = (
      <ImagePage
        src={imageSrc(page, serverImageWidth(width, window.devicePixelRatio || 1))}
        pageNo={page}
        pages={pages}
        width={width}
        onPageSize={onPageSize}
        onError={() => setProblem(isOnline() ? 'missing' : 'offline')}
      >
        {overlay}
      </ImagePage>
    );
  }

  return (
    <div className="viewer-document" data-file-type={isPdf ? 'pdf' : 'image'}>
      <ViewerToolbar
        title={documentTitle(doc)}
        place={props.place}
        onBack={props.onBack}
        page={page}
        pages={pages}
        onPage={setPage}
        zoom={zoom}
        percent={percent}
        onZoomIn={() => setZoom(zoomBy(zoom, box, pageSize, 1))}
        onZoomOut={() => setZoom(zoomBy(zoom, box, pageSize, -1))}
        onFit={(kind) => setZoom({ kind })}
        thumbsOpen={thumbsOpen}
        thumbsId={thumbsId}
        onToggleThumbs={() => setThumbsOpen((o) => !o)}
        extra={keyFree.control}
      />
      <AnnotationTools state={ann} />
      <div className="viewer-body">
        {thumbsOpen && (
          <ThumbnailStrip
            id={thumbsId}
            pages={pages}
            current={page}
            src={thumbSrc}
            onSelect={setPage}
            burst={{ db, archiveId: doc.Archive, docId: doc.Id, hash: doc.Hash, fileType: doc.FileType, pages }}
          />
        )}
        <div ref={areaRef} className="viewer-area" data-zoom={zoom.kind}>
          {body}
        </div>
        {props.indexer}
      </div>
    </div>
  );
}
