import { useTranslation } from 'react-i18next';
import { Modal } from './modal';
import { dismissLeaseExpired, useLeaseExpiredShown } from './lease-expired';

export function LeaseExpiredModal({ onSignIn }: { onSignIn: () => void }) {
  const { t } = useTranslation();
  const shown = useLeaseExpiredShown();
  return (
    <Modal open={shown} title={t('LEASE_EXPIRED_TITLE')} onClose={dismissLeaseExpired}>
      <p>{t('LEASE_EXPIRED_MESSAGE')}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={dismissLeaseExpired}>
          {t('CLOSE')}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            dismissLeaseExpired();
            onSignIn();
          }}
        >
          {t('SIGN_IN_AGAIN')}
        </button>
      </div>
    </Modal>
  );
}
