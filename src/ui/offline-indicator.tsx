import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(l: () => void) {
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  return () => {
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
  };
}
const online = () => navigator.onLine;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, online, () => true);
}

export function OfflineIndicator() {
  const { t } = useTranslation();
  if (useOnline()) return null;
  return (
    <div className="offline-indicator" role="status" data-testid="offline-indicator">
      {t('OFFLINE_INDICATOR')}
    </div>
  );
}
