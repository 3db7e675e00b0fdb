/**
 * The viewer's word that the document is kept on this device ("Keep offline"), how far its fetch is,
 * and, when the server cannot be reached (or the browser is offline), that what is shown comes from
 * the device.
 */
import { useTranslation } from 'react-i18next';
import type { PinRecord } from '../../../db/db';
import { useOnline } from '../../../ui/offline-indicator';
import './pins.css';

export function PinBadge({ pin, local }: { pin: PinRecord | undefined; local: boolean }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (!pin) return null;
  const text =
    pin.state === 'done'
      ? t('PIN_BADGE_KEPT')
      : pin.state === 'failed'
        ? t('PIN_BADGE_FAILED')
        : t('PIN_BADGE_FETCHING', { done: pin.done, total: pin.total || '…' });
  return (
    <p className="viewer-pin-bar" role="status" data-testid="viewer-pinned" data-state={pin.state}>
      <span className="badge pin-badge">{text}</span>
      {(local || (!online && pin.state === 'done')) && <span className="viewer-pin-local">{t('PIN_SHOWN_FROM_DEVICE')}</span>}
    </p>
  );
}
