/**
 * A job's title as words (a message key and values), from what every job record has. Plain data, no
 * i18next: the outbox kinds (which run in workers and the service worker too) name their entries with
 * it, and the tray words it when shown (features/notifications/job-words.ts).
 */
import type { JobRecord, Words } from '../db/db';

/**
 * How a job is named from what every record has (its kind and Count, an export's format, an import's
 * CSV name): the same words on the device that started it (the outbox entry's title) and on one that
 * learnt of it from the server's list. Null for a kind without words of its own.
 */
export function jobTitleWords(r: Pick<JobRecord, 'kind' | 'total' | 'format' | 'name'>): Words | null {
  const count = r.total;
  switch (r.kind) {
    case 'copy':
      return { key: 'JOB_TITLE_COPY', vars: { count } };
    case 'move':
      return { key: 'JOB_TITLE_MOVE', vars: { count } };
    case 'delete':
      return { key: 'JOB_TITLE_DELETE', vars: { count } };
    case 'export':
      return { key: r.format === 'xlsx' ? 'EXPORT_JOB_TITLE_EXCEL' : 'EXPORT_JOB_TITLE', vars: { count } };
    case 'bulk-update':
      return { key: 'BULK_UPDATE_JOB_TITLE', vars: { count } };
    case 'import':
      return r.name ? { key: 'IMPORT_JOB_TITLE', vars: { count, name: r.name } } : { key: 'JOB_TITLE_IMPORT', vars: { count } };
    case 'index-rebuild':
      return { key: 'JOB_TITLE_INDEX_REBUILD', vars: { count } };
    default:
      return null;
  }
}
