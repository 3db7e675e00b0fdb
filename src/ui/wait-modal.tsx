import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

/** The wait modal with a spinner (user-app.md §2): blocks the page during a long action. */
export function WaitModal({ open, message }: { open: boolean; message?: string }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={message ?? t('MESSAGE_LOADING')} className="wait-modal">
      <div className="wait-modal-body" role="status" aria-live="polite">
        <span className="spinner spinner-large" aria-hidden="true" />
      </div>
    </Modal>
  );
}
