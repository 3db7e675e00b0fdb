import { useTranslation } from 'react-i18next';
import { useUpdateAvailable } from '../pwa/register';

/** "Update available - reload": the new service worker waits until the user asks for it. */
export function UpdateBanner() {
  const { t } = useTranslation();
  const { updateAvailable, blockedByOutbox, reload } = useUpdateAvailable();
  if (!updateAvailable) return null;
  return (
    <div className="banner banner-info" role="status" data-testid="update-banner">
      <span>{t('UPDATE_AVAILABLE')}</span>
      {blockedByOutbox && <span>{t('UPDATE_WAITS_FOR_OUTBOX')}</span>}
      <button type="button" className="button button-primary" onClick={reload}>
        {t('UPDATE_RELOAD')}
      </button>
    </div>
  );
}
