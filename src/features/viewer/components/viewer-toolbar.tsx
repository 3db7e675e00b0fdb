/** The viewer's controls: document n of m, pages, zoom and fit, thumbnails. Every control has a name. */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { clampPage, type Zoom } from '../viewer-logic';

export interface ToolbarProps {
  title: string;
  /** Back to where the viewer was opened from (in this window); null in a tab of its own. */
  onBack: (() => void) | null;
  place: { index: number; count: number; onPrevious: (() => void) | null; onNext: (() => void) | null } | null;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  zoom: Zoom;
  percent: number;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: (kind: 'fit-width' | 'fit-page') => void;
  thumbsOpen: boolean;
  thumbsId: string;
  onToggleThumbs: () => void;
  /** More controls at the toolbar's end (key-free extraction, ...). */
  extra?: ReactNode;
}

export function ViewerToolbar(p: ToolbarProps) {
  const { t } = useTranslation();
  // What is typed in the page box until it is committed (Enter or leaving the box).
  // A draft belongs to the page it was typed on: once the page changes, the box shows the new page.
  const [draft, setDraft] = useState<{ page: number; text: string } | null>(null);
  const typed = draft && draft.page === p.page ? draft.text : String(p.page);
  const commit = () => {
    const n = clampPage(Number(typed), p.pages);
    setDraft(null);
    if (n !== p.page) p.onPage(n);
  };
  return (
    <div className="viewer-toolbar" role="toolbar" aria-label={t('VIEWER_TOOLS')}>
      {p.onBack && (
        <button type="button" className="button" onClick={p.onBack}>
          <span aria-hidden="true">←</span> {t('VIEWER_BACK')}
        </button>
      )}
      <h1 className="viewer-title" title={p.title}>
        {p.title}
      </h1>
      {p.place && p.place.count > 1 && (
        <div className="viewer-group">
          <button type="button" className="button" onClick={p.place.onPrevious ?? undefined} disabled={!p.place.onPrevious}>
            {t('VIEWER_PREVIOUS_DOCUMENT')}
          </button>
          <span data-testid="viewer-document-of">{t('VIEWER_DOCUMENT_OF', { n: p.place.index + 1, count: p.place.count })}</span>
          <button type="button" className="button" onClick={p.place.onNext ?? undefined} disabled={!p.place.onNext}>
            {t('VIEWER_NEXT_DOCUMENT')}
          </button>
        </div>
      )}
      <div className="viewer-group">
        <button type="button" className="button" onClick={() => p.onPage(p.page - 1)} disabled={p.page <= 1}>
          <span aria-hidden="true">‹</span> <span className="viewer-label">{t('VIEWER_PREVIOUS_PAGE')}</span>
        </button>
        <input
          className="viewer-page-input"
          type="number"
          inputMode="numeric"
          min={1}
          max={p.pages}
          value={typed}
          aria-label={t('VIEWER_PAGE_NUMBER')}
          onChange={(e) => setDraft({ page: p.page, text: e.target.value })}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
        <span>{t('VIEWER_PAGE_OF', { count: p.pages })}</span>
        <button type="button" className="button" onClick={() => p.onPage(p.page + 1)} disabled={p.page >= p.pages}>
          <span className="viewer-label">{t('VIEWER_NEXT_PAGE')}</span> <span aria-hidden="true">›</span>
        </button>
      </div>
      <div className="viewer-group">
        <button type="button" className="button" onClick={p.onZoomOut} aria-label={t('VIEWER_ZOOM_OUT')}>
          −
        </button>
        <output data-testid="viewer-zoom" aria-live="polite">
          {t('VIEWER_ZOOM_LEVEL', { percent: p.percent })}
        </output>
        <button type="button" className="button" onClick={p.onZoomIn} aria-label={t('VIEWER_ZOOM_IN')}>
          +
        </button>
        <button type="button" className="button" aria-pressed={p.zoom.kind === 'fit-width'} onClick={() => p.onFit('fit-width')}>
          {t('VIEWER_FIT_WIDTH')}
        </button>
        <button type="button" className="button" aria-pressed={p.zoom.kind === 'fit-page'} onClick={() => p.onFit('fit-page')}>
          {t('VIEWER_FIT_PAGE')}
        </button>
      </div>
      <button type="button" className="button" aria-pressed={p.thumbsOpen} aria-controls={p.thumbsId} onClick={p.onToggleThumbs}>
        {t('VIEWER_THUMBNAILS')}
      </button>
      {p.extra}
    </div>
  );
}
