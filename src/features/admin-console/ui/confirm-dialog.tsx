import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

/** A yes/no question (CONFIRM_GENERIC_UNSAVED_CHANGES, CONFIRM_FIELDTYPE_CHANGE, ...): OK goes on, Cancel or Escape does not. */
export function ConfirmDialog(props: { open: boolean; title: string; message: string; confirmLabel?: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      <p className="admin-confirm-message">{props.message}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('ADMIN_CANCEL')}
        </button>
        <button type="button" className="button button-primary" onClick={props.onConfirm}>
          {props.confirmLabel ?? t('ADMIN_OK')}
        </button>
      </div>
    </Modal>
  );
}
