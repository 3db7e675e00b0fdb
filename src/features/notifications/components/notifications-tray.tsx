import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { db } from '../../../db/db';
import { useSession } from '../../../session/use-session';
import { isFinalState, jobAttentionCount } from '../../../sync/jobs-view';
import { useJobs } from '../../../sync/react/use-jobs';
import { attentionCount } from '../../../sync/outbox';
import { useOutbox, useOutboxTriggers } from '../../../sync/react/outbox-view';
import { useJobsWorker } from '../../../sync/react/use-jobs-worker';
import { useJobsTold } from '../../../sync/react/use-jobs-told';
import { useUploads, useUploadWorker } from '../../../sync/react/use-uploads';
import { usePins, usePinWorker } from '../../../sync/react/use-pins';
import { lazyNamed } from '../../../ui/lazy-named';
import { useDismiss } from '../../../ui/use-dismiss';
import type { DownloadExport } from './export-note';
import '../notifications.css';

const NotificationsPanel = lazyNamed(() => import('./notifications-panel'), 'NotificationsPanel');

/**
 * The header's Notifications button and its panel: outbox entries and the user's server jobs. The
 * badge counts entries that are unsent, failed or in conflict, running jobs, and ended jobs not seen
 * yet (opening the tray sees them). Mounted once in the signed-in header, it also starts the outbox's
 * drain triggers, the jobs worker and the upload worker (uploads are listed and counted too), tells of each job's end (a toast, and a system notification
 * while the tab is hidden) and keeps the app's icon badge at the number of running jobs.
 * `onDownloadExport` saves a finished export (the app passes the export feature's code).
 */
export function NotificationsTray({ onDownloadExport }: { onDownloadExport?: DownloadExport } = {}) {
  const { t } = useTranslation();
  useOutboxTriggers();
  const owner = useSession()?.userName ?? null;
  useJobsWorker();
  useJobsTold(owner, (ended) => {
    void import('../job-notification').then((m) => m.announceJobsEnded(ended, t));
  });
  useUploadWorker();
  usePinWorker();
  const entries = useOutbox();
  const jobs = useJobs(owner);
  const uploads = useUploads(owner);
  const pins = usePins(owner);
  const running = jobs.filter((j) => !j.lost && !isFinalState(j.state)).length;
  // The app's icon badge follows the running jobs (the Badging API, where there is one).
  useEffect(() => {
    void import('../job-notification').then((m) => m.showAppBadge(running));
  }, [running]);
  // Uploads count while they run and once they failed, like outbox entries.
  const count = attentionCount(entries) + jobAttentionCount(jobs) + uploads.filter((u) => u.state !== 'done').length + pins.filter((p) => p.state !== 'done').length;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useDismiss(ref, open, () => setOpen(false));

  // Ended jobs shown in the open tray are seen: the badge stops counting them.
  const unseen = open ? jobs.filter((j) => j.seenAt === undefined && (j.lost !== undefined || isFinalState(j.state))).map((j) => j.id) : [];
  const unseenKey = unseen.join(',');
  useEffect(() => {
    if (!unseenKey) return;
    void import('../../../sync/jobs').then((m) => m.markJobsSeen(db, unseenKey.split(','), Date.now()));
  }, [unseenKey]);

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
          <NotificationsPanel id={panelId} entries={entries} jobs={jobs} uploads={uploads} pins={pins} owner={owner} onClose={() => setOpen(false)} onDownloadExport={onDownloadExport} />
        </Suspense>
      )}
    </div>
  );
}
