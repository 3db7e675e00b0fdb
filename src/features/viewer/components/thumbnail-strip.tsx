/**
 * The pages as thumbnails (user-app.md §9: 150 x 150; the image takes 85 % of the strip's width).
 * A thumbnail is asked of the server only once it has been in view for 0.5 s (archive-inbox-ops.md
 * §9), so scrolling through a long document loads only where the user stops.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createDwellTracker } from '../viewer-logic';

export const THUMB_SIZE = 150;

export function ThumbnailStrip(props: { id: string; pages: number; current: number; src: (page: number, scale: number) => string; onSelect: (page: number) => void }) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const [loaded, setLoaded] = useState<ReadonlySet<number>>(() => new Set());
  const { pages, current } = props;

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
    <nav id={props.id} className="viewer-thumbs" aria-label={t('VIEWER_THUMBNAILS')}>
      <ol ref={listRef}>
        {Array.from({ length: pages }, (_, i) => i + 1).map((page) => (
          <li key={page} data-page={page}>
            <button
              type="button"
              className="viewer-thumb"
              aria-label={t('VIEWER_GO_TO_PAGE', { n: page })}
              aria-current={page === current ? 'page' : undefined}
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
