/**
 * The one place an audit entry (the archive-ops spec §3 "Audit entry") is written. Routes and jobs
 * call it inside the transaction of the change it records, so an entry exists exactly when its change
 * does. `details.Event` holds the sentence's parts (src/api/audit.ts HistoryEvent) so that a client
 * words it in its user's language; `message` keeps the English sentence for older clients.
 */
import type { HistoryCategory, HistoryEvent } from '../../src/api/audit.js';
import type { Queryable } from '../db/store.js';

export interface AuditEntryInput {
  databaseId: number;
  archiveId: number;
  documentId: number | null;
  category: HistoryCategory;
  message: string;
  time: Date;
  userName: string | null;
  userId?: number | null;
  /** Where the document came from (moved, copied). */
  oldArchiveId?: number | null;
  oldDocId?: number | null;
  event?: HistoryEvent | null;
  /** Anything else kept with the entry (details jsonb), e.g. Fields of a field edit, the job id. */
  details?: Record<string, unknown>;
}

export async function writeAudit(db: Queryable, ...entries: AuditEntryInput[]): Promise<void> {
  if (!entries.length) return;
  const params: unknown[] = [];
  // Several entries of one change (a copy writes two) in one statement: a job writes thousands.
  const rows = entries.map((e) => {
    const details = { ...(e.details ?? {}), ...(e.event ? { Event: e.event } : {}) };
    const values = [e.databaseId, e.archiveId, e.documentId, e.message, e.category, e.oldArchiveId ?? null, e.oldDocId ?? null, e.time, e.userName, e.userId ?? null, JSON.stringify(details)];
    const first = params.length;
    params.push(...values);
    return `(${values.map((_, i) => `$${first + i + 1}${i === values.length - 1 ? '::jsonb' : ''}`).join(', ')})`;
  });
  await db.query(
    `INSERT INTO audit_entries (database_id, archive_id, document_id, message, category, old_archive_id, old_doc_id, time, user_name, user_id, details)
     VALUES ${rows.join(', ')}`,
    params,
  );
}
