import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleError } from '../../../api/error-handler';
import type { JobRecord } from '../../../db/db';
import { cancelJob } from '../../../sync/jobs-api';
import { isFinalState } from '../../../sync/jobs-view';
import { jobFailureLines, jobOutcome, jobStateWords, jobTitle } from '../job-words';
import type { DownloadExport } from './export-note';
import { JobNoteLine } from './job-note-line';

/** More failures than this are folded behind a disclosure, so one bad job does not fill the tray. */
export const FAILURES_SHOWN_OPEN = 3;

/**
 * One server job in the tray: title, state, a progress bar with "N of M done", the counts of
 * successes and failures, each failure as 'DocID {id}: reason', its notes, Cancel while it runs, and
 * once final what came of it (a finished export: its file and Download, export-note.tsx). Cancel asks the server (DELETE api/jobs/{id}); the card shows the
 * record as the server's answer left it.
 */
export function JobItem({ job, onDownloadExport }: { job: JobRecord; onDownloadExport?: DownloadExport }) {
  const { t, i18n } = useTranslation();
  const exists = (k: string) => i18n.exists(k);
  const [cancelling, setCancelling] = useState(false);
  const title = jobTitle(job, t, exists);
  const final = isFinalState(job.state) || job.lost !== undefined;
  const failures = jobFailureLines(job, t, exists);
  const outcome = jobOutcome(job, t);
  const counts = t('JOB_COUNTS', { succeeded: job.succeeded ?? 0, failed: job.failed ?? 0 });

  const cancel = () => {
    setCancelling(true);
    cancelJob(job.id)
      .catch((e: unknown) => handleError(e))
      .finally(() => setCancelling(false));
  };

  const failureList = (
    <ul className="job-failures" aria-label={t('JOB_FAILURES')}>
      {failures.map((f, i) => (
        <li key={i}>{f}</li>
      ))}
    </ul>
  );

  return (
    <li className={`job-card job-card-${job.state}`} aria-label={title} data-testid={`job-${job.id}`}>
      <div className="outbox-entry-head">
        <span className="outbox-entry-title">{title}</span>
        <span className={`badge job-state job-state-${job.state}`}>{jobStateWords(job, t)}</span>
      </div>
      <progress className="job-progress" max={Math.max(1, job.total)} value={job.progress} aria-label={t('JOB_PROGRESS_LABEL', { title })} />
      <p className="job-line">
        {t('JOB_PROGRESS', { done: job.progress, total: job.total })} · {counts}
      </p>
      {outcome && (
        <p className={`job-line job-outcome${job.state === 'failed' || job.lost ? ' job-outcome-bad' : ''}`} role="status">
          {outcome}
        </p>
      )}
      {failures.length > 0 &&
        (failures.length > FAILURES_SHOWN_OPEN ? (
          <details className="job-failures-details">
            <summary>{t('JOB_FAILURES_SHOW', { count: failures.length })}</summary>
            {failureList}
          </details>
        ) : (
          failureList
        ))}
      {job.notes.length > 0 && (
        <ul className="job-notes">
          {job.notes.map((n, i) => (
            <JobNoteLine key={i} note={n} dbId={job.dbId} onDownload={onDownloadExport} />
          ))}
        </ul>
      )}
      {!final && (
        <div className="outbox-actions">
          <button type="button" className="button" disabled={cancelling} onClick={cancel}>
            {cancelling ? t('JOB_CANCELLING') : t('JOB_CANCEL')}
          </button>
        </div>
      )}
    </li>
  );
}
