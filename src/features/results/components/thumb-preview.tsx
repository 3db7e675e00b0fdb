import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { THUMBNAIL } from '../../../api/constants';
import { Modal } from '../../../ui/modal';

/**
 * The thumbnail preview of one document (user-app.md §2: 600x800), rendered by the server at that
 * size (`src`; `srcSet` offers twice that for high-density tablet screens, where a 600 px image would
 * be enlarged and blurred) and scaled down by CSS only where the viewport is smaller (a tablet in
 * landscape, a laptop); FILE_DOES_NOT_EXIST when the server has none.
 */
export function ThumbPreview(props: { open: boolean; title: string; src: string | null; srcSet?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} className="results-thumb-dialog">
      <div className="results-thumb-preview">
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
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('CLOSE')}
        </button>
      </div>
    </Modal>
  );
}
