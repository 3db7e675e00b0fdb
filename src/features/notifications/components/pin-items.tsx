import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PinRecord } from '../../../db/db';
import { retryPin, unpinDocuments } from '../../../sync/pins';
import { sizeWords } from '../size-words';

/**
 * Documents kept offline in the tray (src/sync/pins.ts): one row for each document on its way to the
 * device or failed (its progress, why it waits or failed, Retry and Remove from device), and a line
 * saying how many are kept, the space they take and what the browser says is left. The rows are
 * written by the pin worker once per part; this only reads them.
 */
export function PinItems({ pins }: { pins: readonly PinRecord[] }) {
  const { t, i18n } = useTranslation();
  const [estimate, setEstimate] = useState<{ usage?: number; quota?: number } | null>(null);
  const kept = pins.filter((p) => p.state === 'done');
  const bytes = kept.reduce((s, p) => s + p.bytes, 0);
  const keptKey = `${kept.length}|${bytes}`;
  useEffect(() => {
    void navigator.storage?.estimate?.().then(setEstimate, () => setEstimate(null));
  }, [keptKey]);
  if (pins.length === 0) return null;
  const free = estimate?.quota !== undefined && estimate.usage !== undefined ? Math.max(0, estimate.quota - estimate.usage) : null;
  return (
    <>
      <li className="job-card pin-summary" data-testid="pin-summary">
        <p className="job-line">
          {t('PIN_SUMMARY', { count: kept.length, size: sizeWords(bytes, i18n.language) })}
          {free !== null && ` ${t('PIN_STORAGE_FREE', { size: sizeWords(free, i18n.language) })}`}
        </p>
      </li>
      {pins
        .filter((p) => p.state !== 'done')
        .map((p) => (
          <PinItem key={p.key} pin={p} />
        ))}
    </>
  );
}

function PinItem({ pin }: { pin: PinRecord }) {
  const { t, i18n } = useTranslation();
  const name = pin.fileName || String(pin.docId);
  const reason = pin.reason ? (i18n.exists(pin.reason.key) ? t(pin.reason.key as 'PIN_ERROR_SERVER') : (pin.reason.message ?? pin.reason.key)) : null;
  const detail = pin.state === 'failed' && pin.reason?.message && pin.reason.message !== reason ? pin.reason.message : null;
  return (
    <li className={`job-card pin-card pin-card-${pin.state}`} aria-label={name} data-testid={`pin-${pin.key}`}>
      <div className="outbox-entry-head">
        <span className="outbox-entry-title">{t('PIN_TITLE', { name })}</span>
        <span className={`badge pin-state pin-state-${pin.state}`}>{t(`PIN_STATE_${pin.state.toUpperCase()}` as 'PIN_STATE_QUEUED')}</span>
      </div>
      <progress className="job-progress" max={Math.max(1, pin.total)} value={pin.done} aria-label={t('PIN_PROGRESS_LABEL', { name })} />
      <p className="job-line">{t('PIN_PROGRESS', { done: pin.done, total: pin.total || '…', size: sizeWords(pin.bytes, i18n.language) })}</p>
      {reason && (
        <p className={pin.state === 'failed' ? 'outbox-entry-error' : 'outbox-entry-note'} role={pin.state === 'failed' ? 'alert' : undefined}>
          {reason}
        </p>
      )}
      {detail && <p className="outbox-entry-note">{detail}</p>}
      <div className="outbox-actions">
        {(pin.state === 'failed' || pin.state === 'waiting') && (
          <button type="button" className="button" onClick={() => void retryPin(pin.key)}>
            {t('OUTBOX_RETRY')}
          </button>
        )}
        <button type="button" className="button" onClick={() => void unpinDocuments([pin.key])}>
          {t('PIN_REMOVE')}
        </button>
      </div>
    </li>
  );
}
