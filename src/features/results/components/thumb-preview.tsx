import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { THUMBNAIL } from '../../../api/constants';
import { ContextMenu, type ContextMenuItem } from '../../../ui/context-menu';
import { Modal } from '../../../ui/modal';
import { useLongPress } from '../../../ui/use-long-press';

/**
 * The thumbnail preview of one document (the user-app spec §2: 600x800), rendered by the server at that
 * size (`src`; `srcSet` offers twice that for high-density tablet screens, where a 600 px image would
 * be enlarged and blurred) and scaled down by CSS only where the viewport is smaller (a tablet in
 * landscape, a laptop); FILE_DOES_NOT_EXIST when the server has none. With `menu`, a right-click or
 * a long-press (touch) on the page opens the thumbnail menu (the user-app spec §2: Burst among its items).
 */
export function ThumbPreview(props: { open: boolean; title: string; src: string | null; srcSet?: string; onClose: () => void; menu?: { label: string; items: readonly ContextMenuItem[] } }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const withMenu = props.menu !== undefined && props.menu.items.length > 0;
  const press = useLongPress<HTMLDivElement>(setMenuAt);
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} className="results-thumb-dialog">
      <div className="results-thumb-preview" {...(withMenu ? press : {})}>
        {props.src && failed !== props.src ? (
          <img
            src={props.src}
            srcSet={props.srcSet}
            width={THUMBNAIL.previewWidth}
            height={THUMBNAIL.previewHeight}
            alt={t('RESULTS_THUMB_ALT', { name: props.title })}
            onError={() => setFailed(props.src)}
          />
        ) : (
          <p role="alert">{t('FILE_DOES_NOT_EXIST')}</p>
        )}
      </div>
      {withMenu && <p>{t('RESULTS_THUMB_MENU_HINT')}</p>}
      <div className="modal-actions">
        {withMenu && (
          <button type="button" className="button" aria-haspopup="menu" onClick={(e) => setMenuAt({ x: e.currentTarget.getBoundingClientRect().left, y: e.currentTarget.getBoundingClientRect().top })}>
            {props.menu!.label}
          </button>
        )}
        <button type="button" className="button" onClick={props.onClose}>
          {t('CLOSE')}
        </button>
      </div>
      {withMenu && menuAt && (
        <ContextMenu
          label={props.menu!.label}
          at={menuAt}
          onClose={() => setMenuAt(null)}
          items={props.menu!.items.map((i) => ({
            ...i,
            onSelect: () => {
              setMenuAt(null);
              props.onClose();
              i.onSelect();
            },
          }))}
        />
      )}
    </Modal>
  );
}
