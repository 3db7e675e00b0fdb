import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isOnline, subscribeOnline } from '../api/connectivity';

/** Whether the server can be reached (src/api/connectivity.ts), as React state. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
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
