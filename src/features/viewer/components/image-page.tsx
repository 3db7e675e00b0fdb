/** One page the server renders as an image (TIFF and other image documents), at the viewer's width. */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Size } from '../viewer-logic';

export function ImagePage(props: { src: string; pageNo: number; pages: number; width: number; onPageSize: (s: Size) => void; onError: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<string | null>(null);
  return (
    <div className="viewer-page viewer-image-page" data-page={props.pageNo} data-rendered={loaded === props.src || undefined}>
      <img
        src={props.src}
        alt={t('VIEWER_PAGE_IMAGE', { n: props.pageNo, count: props.pages })}
        width={props.width}
        decoding="async"
        onLoad={(e) => {
          const img = e.currentTarget;
          props.onPageSize({ width: img.naturalWidth, height: img.naturalHeight });
          setLoaded(props.src);
        }}
        onError={props.onError}
      />
      {props.children && <div className="viewer-page-overlay">{props.children}</div>}
    </div>
  );
}
