import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router-dom';
import { loginUrl } from '../api/error-handler';
import { registerServiceWorker } from '../pwa/register';
import { BusyIndicator } from '../ui/busy-indicator';
import { LeaseExpiredModal } from '../ui/lease-expired-modal';
import { OfflineIndicator } from '../ui/offline-indicator';
import { Toasts } from '../ui/toasts';
import { StorageAlert } from './storage-alert';
import { TokenCapture } from './token-capture';
import { UpdateBanner } from './update-banner';

/** Everything every route shows: banners, busy state, notifications, the lease-expired modal. */
export function Root() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // After the first paint: the first screen does not need the service worker (or workbox-window).
  useEffect(() => registerServiceWorker(), []);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('SKIP_TO_CONTENT')}
      </a>
      <BusyIndicator />
      <StorageAlert />
      <UpdateBanner />
      <OfflineIndicator />
      <TokenCapture>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </TokenCapture>
      <Toasts />
      <LeaseExpiredModal
        onSignIn={() => void navigate(loginUrl({ redirectUrl: window.location.pathname + window.location.search }))}
      />
    </>
  );
}
