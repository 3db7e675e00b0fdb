/**
 * The pages as thumbnails (the user-app spec §9: 150 x 150; the image takes 85 % of the strip's width).
 * A thumbnail is asked of the server only once it has been in view for 0.5 s (the archive-ops spec
 * §9), so scrolling through a long document loads only where the user stops.
 *
 * With `burst`, pages can be selected for a burst (the archive-ops spec §4): "Select pages" shows a
 * check box on each thumbnail (a 44 px target); a long-press on a thumbnail (touch) or a right-click
 * selects it and turns selection on; a tap still goes to the page. The burst panel
 * (burst/burst-panel.tsx) says how many are ticked and bursts them.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../../session/use-session';
import { useLongPress } from '../../../ui/use-long-press';
import { BurstPanel, type BurstDocument } from '../burst/burst-panel';
import { createDwellTracker } from '../viewer-logic';

export const THUMB_SIZE = 150;

export function ThumbnailStrip(props: { id: string; pages: number; current: number; src: (page: number, scale: number) => string; onSelect: (page: number) => void; burst?: BurstDocument }) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const [loaded, setLoaded] = useState<ReadonlySet<number>>(() => new Set());
  const { pages, current, burst } = props;
  const [params] = useSearchParams();
  // Opened for a burst (the grid's thumbnail menu: burst=1): selecting from the start.
  const [selecting, setSelecting] = useState(() => burst !== undefined && params.get('burst') === '1');
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (page: number, on?: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on ?? !next.has(page)) next.add(page);
      else next.delete(page);
      return next;
    });
  const press = useLongPress<HTMLOListElement>((at) => {
    const li = document.elementFromPoint(at.x, at.y)?.closest<HTMLElement>('li[data-page]');
    if (!burst || !li) return;
    setSelecting(true);
    toggle(Number(li.dataset.page), true);
  });
  // The viewer opened from the indexer keeps its document whole (the user-app spec §2); a read-only licence
  // makes no documents (the server refuses both too).
  const readOnly = useSession()?.licenceType === 4;
  const burstDisabled = params.get('fromIndexer') === 'true' ? t('BURST_DISABLED_FROM_INDEXER') : readOnly ? t('DOCUMENTS_READ_ONLY_LICENCE') : null;

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const tracker = createDwellTracker((page) => setLoaded((s) => new Set(s).add(page)));
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) tracker.visible(Number((e.target as HTMLElement).dataset.page), e.isIntersecting);
      },
      { root: list, rootMargin: '50px' },
    );
    for (const item of list.querySelectorAll('li')) observer.observe(item);
    return () => {
      observer.disconnect();
      tracker.stop();
    };
  }, [pages]);

  // The current page's thumbnail stays in view as the user pages through.
  useEffect(() => {
    listRef.current?.querySelector(`li[data-page="${current}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);

  return (
    <nav id={props.id} className={burst ? 'viewer-thumbs viewer-thumbs-burst' : 'viewer-thumbs'} aria-label={t('VIEWER_THUMBNAILS')}>
      {burst && (
        <div className="viewer-thumbs-head">
          <button type="button" className="button" aria-pressed={selecting} onClick={() => setSelecting((on) => !on)}>
            {t('BURST_SELECT_PAGES')}
          </button>
          {selecting && <BurstPanel doc={burst} selected={selected} disabledReason={burstDisabled} onClear={() => setSelected(new Set())} />}
        </div>
      )}
      <ol ref={listRef} {...(burst ? press : {})}>
        {Array.from({ length: pages }, (_, i) => i + 1).map((page) => (
          <li key={page} data-page={page}>
            {selecting && (
              <label className="viewer-thumb-check">
                <input type="checkbox" checked={selected.has(page)} onChange={() => toggle(page)} aria-label={t('BURST_SELECT_PAGE', { n: page })} />
              </label>
            )}
            <button
              type="button"
              className="viewer-thumb"
              aria-label={t('VIEWER_GO_TO_PAGE', { n: page })}
              aria-current={page === current ? 'page' : undefined}
              data-selected={selecting && selected.has(page) ? 'true' : undefined}
              onClick={() => props.onSelect(page)}
            >
              {loaded.has(page) ? (
                <img src={props.src(page, 1)} srcSet={`${props.src(page, 2)} 2x`} alt="" width={THUMB_SIZE} height={THUMB_SIZE} decoding="async" />
              ) : (
                <span className="viewer-thumb-placeholder" aria-hidden="true" />
              )}
              <span className="viewer-thumb-number" aria-hidden="true">
                {page}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
