import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getPendingCount, subscribePending } from '../api/http';

/** A thin bar and a spinner while any API call is pending (the loading counter of the user-app spec §4). */
export function BusyIndicator() {
  const { t } = useTranslation();
  const pending = useSyncExternalStore(subscribePending, getPendingCount, getPendingCount);
  if (pending === 0) return null;
  return (
    <div className="busy-indicator" role="progressbar" aria-label={t('BUSY_LABEL')} aria-busy="true" data-testid="busy-indicator">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
