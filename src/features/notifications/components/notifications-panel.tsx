import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../../../db/db';
import { clearDone } from '../../../sync/outbox';
import { useKeepInView } from '../../../ui/use-keep-in-view';
import { OutboxEntryItem } from './outbox-entry-item';

/**
 * The tray's open panel: the outbox entries and what the user can do with them. Loaded when the
 * tray first opens, so the first screen does not carry it (ARCHITECTURE.md "Budgets").
 */
export function NotificationsPanel({ id, entries, onClose }: { id: string; entries: readonly OutboxEntry[]; onClose: () => void }) {
  const { t } = useTranslation();
  const hasDone = entries.some((e) => e.state === 'done');
  const ref = useRef<HTMLElement>(null);
  useKeepInView(ref, true);
  return (
    <section id={id} ref={ref} className="nav-menu-panel notifications-panel" aria-label={t('NOTIFICATIONS')}>
      <div className="notifications-panel-head">
        <h2 className="notifications-title">{t('NOTIFICATIONS')}</h2>
        {hasDone && (
          <button type="button" className="button" onClick={() => void clearDone()}>
            {t('OUTBOX_CLEAR_DONE')}
          </button>
        )}
        <button type="button" className="button" onClick={onClose}>
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
  );
}
