import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

/** The spec's delete confirmation (the archive-ops spec "Modals"): "Delete 12 documents?". */
export function DeleteConfirmModal(props: { open: boolean; question: string; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={props.open} title={props.question} onClose={props.onClose} className="documents-modal">
      <p>{t('DOCUMENTS_DELETE_NOTE')}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('DOCUMENTS_CANCEL')}
        </button>
        <button type="button" className="button button-danger" onClick={props.onConfirm}>
          {t('DOCUMENTS_DELETE')}
        </button>
      </div>
    </Modal>
  );
}
