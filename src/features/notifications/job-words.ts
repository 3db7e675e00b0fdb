/**
 * A server job in the user's words (the tray's card and the system notification): its title, its
 * failures and, once final, what came of it. Worded when shown, so a
 * language change re-words it.
 */
import type { JobRecord } from '../../db/db';
import type { AppTFunction as TFunction } from '../../i18n/t-function';
import { failureText, sayWords } from '../../i18n/words';
import { jobTitleWords } from '../../sync/job-title';

/**
 * Its title words (kept when it was started), else the title worded then (records of older app
 * versions), else what its kind, Count, format or CSV name say - the words a job learnt from the
 * server's list gets, the same as the device that started it shows.
 */
export function jobTitle(r: Pick<JobRecord, 'title' | 'titleWords' | 'kind' | 'total' | 'format' | 'name'>, t: TFunction, exists: (key: string) => boolean = () => true): string {
  const own = sayWords(r.titleWords, t, exists, r.title ?? '');
  if (own) return own;
  return sayWords(jobTitleWords(r), t, exists, t('JOB_TITLE_OTHER', { kind: r.kind, count: r.total }));
}

/** Each failure in the user's words; the server's English lines for records without parts. */
export function jobFailureLines(r: Pick<JobRecord, 'failures' | 'failureParts'>, t: TFunction, exists: (key: string) => boolean): string[] {
  if (r.failureParts && r.failureParts.length === (r.failures?.length ?? r.failureParts.length)) return r.failureParts.map((p) => failureText(p, t, exists));
  return r.failures ?? [];
}

/** What came of a final job; null while it runs. */
export function jobOutcome(r: JobRecord, t: TFunction): string | null {
  if (r.lost) return t('JOB_LOST');
  const values = { succeeded: r.succeeded ?? 0, failed: r.failed ?? 0, total: r.total };
  switch (r.state) {
    case 'done':
      return t('JOB_FINAL_DONE', values);
    case 'failed':
      return t('JOB_FINAL_FAILED', values);
    case 'cancelled':
      return t('JOB_FINAL_CANCELLED', values);
    default:
      return null;
  }
}

export function jobStateWords(r: Pick<JobRecord, 'state'>, t: TFunction): string {
  return t(`JOB_STATE_${r.state.toUpperCase() as Uppercase<JobRecord['state']>}`);
}
