import { useState, type ReactNode } from 'react';
import { handleError } from '../../../api/error-handler';
import type { AppTFunction } from '../../../i18n/t-function';

/**
 * What a console mode shows before its data: no database chosen, loading, or a failure with Retry.
 * Null once every query has its data.
 */
export function modeLoadState(
  t: AppTFunction,
  dbId: number | null,
  queries: readonly { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> }[],
  failed: string,
): ReactNode | null {
  if (dbId === null) return <p className="hint">{t('ADMIN_CHOOSE_DATABASE')}</p>;
  if (queries.some((q) => q.isError)) {
    return (
      <div className="callout callout-error" role="alert">
        <p>{failed}</p>
        <button type="button" className="button" onClick={() => void Promise.all(queries.map((q) => q.refetch()))}>
          {t('RETRY')}
        </button>
      </div>
    );
  }
  if (queries.some((q) => q.isPending)) return <p role="status">{t('ADMIN_MODE_LOADING')}</p>;
  return null;
}

/**
 * The item a delete confirmation is open for, and its confirmation: runs `remove`, closes on success,
 * hands a failure to the one error handler; `busy` while it runs.
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<void>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (deleting === null) return;
    setBusy(true);
    try {
      await remove(deleting);
      setDeleting(null);
    } catch (e) {
      handleError(e);
    } finally {
      setBusy(false);
    }
  };
  return { deleting, setDeleting, busy, confirm: () => void confirm() };
}
