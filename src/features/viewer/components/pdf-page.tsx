/**
 * One PDF page drawn by pdf.js on a canvas at the width the viewer chose, with pdf.js's text layer
 * over it (selectable text; the runs that hold a content-search term are marked). A new page or
 * width cancels the render in progress.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { canvasScale, matchingItems, type Size } from '../viewer-logic';
import { pdfjs } from '../pdf-engine';

export function PdfPage(props: { pdf: PDFDocumentProxy; pageNo: number; pages: number; width: number; terms: readonly string[]; onPageSize: (s: Size) => void; onError: (e: unknown) => void; children?: ReactNode }) {
  const { t } = useTranslation();
  const { pdf, pageNo, width, terms, onPageSize, onError } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<{ key: string; hits: number } | null>(null);
  const key = `${pageNo}|${width}|${terms.join(' ')}`;

  useEffect(() => {
    let cancelled = false;
    let task: RenderTask | null = null;
    let textLayer: { cancel: () => void } | null = null;
    (async () => {
      const page = await pdf.getPage(pageNo);
      if (cancelled) return;
      const base = page.getViewport({ scale: 1 });
      onPageSize({ width: base.width, height: base.height });
      const viewport = page.getViewport({ scale: width / base.width });
      const canvas = canvasRef.current;
      const box = boxRef.current;
      const text = textRef.current;
      if (!canvas || !box || !text) return;
      const ratio = canvasScale(viewport.width, viewport.height, window.devicePixelRatio || 1);
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      box.style.setProperty('--scale-factor', String(viewport.scale));
      task = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined, background: '#ffffff' });
      await task.promise;
      if (cancelled) return;
      const lib = await pdfjs();
      text.replaceChildren();
      const layer = new lib.TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
      textLayer = layer;
      await layer.render();
      if (cancelled) return;
      const hits = matchingItems(layer.textContentItemsStr, terms);
      for (const i of hits) layer.textDivs[i]?.classList.add('viewer-hit');
      setDrawn({ key, hits: hits.length });
    })().catch((e: unknown) => {
      if (!cancelled && (e as { name?: string })?.name !== 'RenderingCancelledException') onError(e);
    });
    return () => {
      cancelled = true;
      task?.cancel();
      textLayer?.cancel();
    };
  }, [pdf, pageNo, width, terms, key, onPageSize, onError]);

  const done = drawn?.key === key;
  return (
    <div ref={boxRef} className="viewer-page viewer-pdf-page" data-page={pageNo} data-rendered={done || undefined} data-hits={done ? drawn.hits : undefined}>
      <canvas ref={canvasRef} role="img" aria-label={t('VIEWER_PAGE_IMAGE', { n: pageNo, count: props.pages })} />
      <div ref={textRef} className="textLayer" />
      {props.children && <div className="viewer-page-overlay">{props.children}</div>}
      {done && drawn.hits > 0 && (
        <p className="viewer-hits" role="status">
          {t('VIEWER_HITS', { count: drawn.hits })}
        </p>
      )}
    </div>
  );
}
