import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

/** The larger thumbnail (150x150) of one document; FILE_DOES_NOT_EXIST when the server has none. */
export function ThumbPreview(props: { open: boolean; title: string; src: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} className="results-thumb-dialog">
      <div className="results-thumb-preview">
        {props.src && failed !== props.src ? (
          <img src={props.src} width={150} height={150} alt={t('RESULTS_THUMB_ALT', { name: props.title })} onError={() => setFailed(props.src)} />
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
