import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attentionCount, clearDone } from '../../outbox/outbox';
import { useOutbox, useOutboxTriggers } from '../../outbox/use-outbox';
import { useDismiss } from '../../../ui/use-dismiss';
import { OutboxEntryItem } from './outbox-entry-item';
import '../notifications.css';

/**
 * The header's Notifications button and its panel (first version: outbox entries; later issues add
 * jobs). The badge counts entries that are unsent, failed or in conflict. Mounted once in the
 * signed-in header, it also starts the outbox's drain triggers.
 */
export function NotificationsTray() {
  const { t } = useTranslation();
  useOutboxTriggers();
  const entries = useOutbox();
  const count = attentionCount(entries);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const hasDone = entries.some((e) => e.state === 'done');

  useDismiss(ref, open, () => setOpen(false));

  return (
    <div className="nav-menu notifications-tray" ref={ref}>
      <button
        type="button"
        className="button nav-button notifications-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={count > 0 ? t('NOTIFICATIONS_WITH_COUNT', { count }) : t('NOTIFICATIONS')}
        data-testid="header-notifications"
        onClick={() => setOpen((o) => !o)}
      >
        {t('NOTIFICATIONS')}
        {count > 0 && (
          <span className="notifications-count" aria-hidden="true">
            {count}
          </span>
        )}
      </button>
      {open && (
        <section id={panelId} className="nav-menu-panel notifications-panel" aria-label={t('NOTIFICATIONS')}>
          <div className="notifications-panel-head">
            <h2 className="notifications-title">{t('NOTIFICATIONS')}</h2>
            {hasDone && (
              <button type="button" className="button" onClick={() => void clearDone()}>
                {t('OUTBOX_CLEAR_DONE')}
              </button>
            )}
            <button type="button" className="button" onClick={() => setOpen(false)}>
              {t('CLOSE')}
            </button>
          </div>
          {entries.length === 0 ? (
            <p className="notifications-empty">{t('OUTBOX_EMPTY')}</p>
          ) : (
            <ul className="outbox-list">
              {[...entries].reverse().map((e) => (
                <OutboxEntryItem key={e.seq} entry={e} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
