import { Suspense, lazy, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { attentionCount } from '../../../sync/outbox';
import { useOutbox, useOutboxTriggers } from '../../../sync/react/outbox-view';
import { useDismiss } from '../../../ui/use-dismiss';
import '../notifications.css';

const NotificationsPanel = lazy(() => import('./notifications-panel').then((m) => ({ default: m.NotificationsPanel })));

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
        <Suspense fallback={null}>
          <NotificationsPanel id={panelId} entries={entries} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
