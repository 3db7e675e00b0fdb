import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

/**
 * Shown when the browser refused to open the share sheet because fetching the file outlasted the tap
 * that asked for it (Safari allows the share only close to a user's gesture): the file is ready, and
 * this button's tap is a fresh gesture.
 */
export function ShareReadyModal(props: { file: File | null; onShare: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={props.file !== null} title={t('DOCUMENTS_SHARE_READY', { name: props.file?.name ?? '' })} onClose={props.onClose} className="documents-modal">
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('DOCUMENTS_CANCEL')}
        </button>
        <button type="button" className="button button-primary" onClick={props.onShare}>
          {t('DOCUMENTS_SHARE')}
        </button>
      </div>
    </Modal>
  );
}
