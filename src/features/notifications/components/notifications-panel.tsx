import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { db, type JobRecord, type OutboxEntry, type PinRecord, type UploadRecord } from '../../../db/db';
import { dismissFinalJobs } from '../../../sync/jobs';
import { isFinalState } from '../../../sync/jobs-view';
import { clearDone } from '../../../sync/outbox';
import { clearDoneUploads } from '../../../sync/uploads';
import { useKeepInView } from '../../../ui/use-keep-in-view';
import { askNotificationPermission, canAskNotificationPermission } from '../job-notification';
import type { DownloadExport } from './export-note';
import { JobItem } from './job-item';
import { OutboxEntryItem } from './outbox-entry-item';
import { UploadItem } from './upload-item';
import { PinItems } from './pin-items';

interface Item {
  at: number;
  entry?: OutboxEntry;
  job?: JobRecord;
  upload?: UploadRecord;
}

/**
 * The tray's open panel: outbox entries, server jobs and uploads together, newest first, and what the user can
 * do with them. An entry that is done and has become a job (a copy, move or delete group) shows as
 * its job only. Loaded when the tray first opens, so the first screen does not carry it
 * (docs/development.md "Budgets").
 */
export function NotificationsPanel({
  id,
  entries,
  jobs,
  uploads = [],
  pins = [],
  owner,
  onClose,
  onDownloadExport,
}: {
  id: string;
  entries: readonly OutboxEntry[];
  jobs: readonly JobRecord[];
  /** Files on their way to the server (src/sync/uploads.ts). */
  uploads?: readonly UploadRecord[];
  /** Documents kept offline (src/sync/pins.ts). */
  pins?: readonly PinRecord[];
  owner: string | null;
  onClose: () => void;
  onDownloadExport?: DownloadExport;
}) {
  const { t } = useTranslation();
  const [askable, setAskable] = useState(canAskNotificationPermission);
  const hasDone = entries.some((e) => e.state === 'done') || uploads.some((u) => u.state === 'done');
  const hasFinalJobs = jobs.some((j) => isFinalState(j.state) || j.lost);
  const ref = useRef<HTMLElement>(null);
  useKeepInView(ref, true);

  const becameJob = new Set(jobs.map((j) => j.entryId).filter((x): x is string => !!x));
  const items: Item[] = [
    ...entries.filter((e) => !(e.state === 'done' && becameJob.has(e.id))).map((entry): Item => ({ at: entry.createdAt, entry })),
    ...jobs.map((job): Item => ({ at: job.startedAt, job })),
    ...uploads.map((upload): Item => ({ at: upload.createdAt, upload })),
  ].sort((a, b) => b.at - a.at || (b.entry?.seq ?? 0) - (a.entry?.seq ?? 0));

  return (
    <section id={id} ref={ref} className="nav-menu-panel notifications-panel" aria-label={t('NOTIFICATIONS')}>
      <div className="notifications-panel-head">
        <h2 className="notifications-title">{t('NOTIFICATIONS')}</h2>
        <button type="button" className="button" onClick={onClose}>
          {t('CLOSE')}
        </button>
      </div>
      {(hasDone || hasFinalJobs || askable) && (
        <div className="notifications-panel-actions">
          {hasDone && (
            <button type="button" className="button" onClick={() => void Promise.all([clearDone(), clearDoneUploads(owner)])}>
              {t('OUTBOX_CLEAR_DONE')}
            </button>
          )}
          {hasFinalJobs && (
            <button type="button" className="button" onClick={() => void dismissFinalJobs(db, owner, Date.now())}>
              {t('JOBS_CLEAR_FINISHED')}
            </button>
          )}
          {askable && (
            <button type="button" className="button" onClick={() => void askNotificationPermission().then(() => setAskable(canAskNotificationPermission()))}>
              {t('JOBS_NOTIFY_ASK')}
            </button>
          )}
        </div>
      )}
      {items.length === 0 && pins.length === 0 ? (
        <p className="notifications-empty">{t('OUTBOX_EMPTY')}</p>
      ) : (
        <ul className="outbox-list">
          <PinItems pins={pins} />
          {items.map((i) =>
            i.upload ? (
              <UploadItem key={`upload-${i.upload.id}`} upload={i.upload} />
            ) : i.job ? (
              <JobItem key={`job-${i.job.id}`} job={i.job} onDownloadExport={onDownloadExport} />
            ) : (
              i.entry && <OutboxEntryItem key={`entry-${i.entry.seq}`} entry={i.entry} />
            ),
          )}
        </ul>
      )}
    </section>
  );
}
