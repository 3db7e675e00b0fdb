/**
 * A server job in the user's words (the tray's card and the system notification): its title (the
 * record's own, else its kind and size) and, once final, what came of it. Worded when shown, so a
 * language change re-words it.
 */
import type { JobRecord } from '../../db/db';
import type { AppTFunction as TFunction } from '../../i18n/t-function';

export function jobTitle(r: Pick<JobRecord, 'title' | 'kind' | 'total'>, t: TFunction): string {
  if (r.title) return r.title;
  const count = r.total;
  switch (r.kind) {
    case 'copy':
      return t('JOB_TITLE_COPY', { count });
    case 'move':
      return t('JOB_TITLE_MOVE', { count });
    case 'delete':
      return t('JOB_TITLE_DELETE', { count });
    case 'export':
      return t('JOB_TITLE_EXPORT', { count });
    case 'import':
      return t('JOB_TITLE_IMPORT', { count });
    default:
      return t('JOB_TITLE_OTHER', { kind: r.kind, count });
  }
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
