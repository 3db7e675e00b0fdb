/**
 * A realistic history for each seeded document (archive-inbox-ops.md §3 History categories):
 * indexed first, then a few events of other categories between its creation and now. Uses its own
 * random sequence so the documents' field values do not depend on it.
 */
import type { HistoryCategory } from '../../src/api/audit.js';
import type { Prng } from './prng.js';

export interface HistoryDoc {
  id: number;
  dbId: number;
  archiveId: number;
  parentArchiveId: number | null;
  created: number;
  by: string;
  fileType: string;
  pages: number;
  revised: boolean;
  status?: string;
}

/** Columns of audit_entries the rows below fill, in order. */
export const HISTORY_COLUMNS = ['database_id', 'archive_id', 'document_id', 'message', 'category', 'old_archive_id', 'old_doc_id', 'time', 'user_name'] as const;

const USERS = ['admin', 'user', 'kiosk'];
const NEXT_STATUS: Record<string, string> = { New: 'Approved', Approved: 'Paid', Paid: 'Paid' };

type Event = [HistoryCategory, string, number | null];

function event(rng: Prng, d: HistoryDoc): Event[] {
  const page = rng.int(1, Math.max(1, d.pages));
  switch (rng.int(0, 11)) {
    case 0:
    case 1:
      return [['viewed', 'Document viewed', null]];
    case 2:
      return d.status
        ? [['updated', `Field Status changed from ${d.status} to ${NEXT_STATUS[d.status] ?? 'Approved'}`, null]]
        : [['updated', 'Index fields updated', null]];
    case 3:
      return [['annotation', rng.chance(0.5) ? `Annotation added on page ${page}` : `Stamp APPROVED applied on page ${page}`, null]];
    case 4:
      return [['exported', rng.chance(0.5) ? 'Document exported as PDF' : 'Document exported with CSV index data', null]];
    case 5:
      return [['printed', `Printed ${d.pages} page${d.pages === 1 ? '' : 's'}`, null]];
    case 6:
      return [['email', rng.pick(['Document e-mailed to finance@example.com', 'Attached to an e-mail', 'Notification sent to archive@example.com']), null]];
    case 7:
      return [['checked in/out', 'Checked out'], ['checked in/out', 'Checked in']].map(([c, m]) => [c as HistoryCategory, m as string, null]);
    case 8:
      return d.fileType === 'TIF' ? [['converted', 'Converted to PDF', null]] : [['published/unpublished', rng.chance(0.7) ? 'Published to the portal' : 'Unpublished from the portal', null]];
    case 9:
      return [['appended', `Page appended from inbox Scans (${d.pages} pages now)`, null]];
    case 10:
      return d.pages > 1 ? [['deleted', `Page ${page} deleted`, null]] : [['copied', 'Copied to archive Paid Invoices', null]];
    default:
      return [['updated', `Page ${page} replaced`, null]];
  }
}

export function historyRows(rng: Prng, d: HistoryDoc, nowMs: number): unknown[][] {
  const rows: unknown[][] = [];
  const at = (t: number, category: HistoryCategory, message: string, by: string, oldArchive: number | null = null, oldDoc: number | null = null) =>
    rows.push([d.dbId, d.archiveId, d.id, message, category, oldArchive, oldDoc, new Date(t), by]);
  at(d.created, 'indexed', 'Document indexed', d.by);
  let t = d.created;
  if (d.parentArchiveId !== null && rng.chance(0.4)) {
    t += rng.int(60, 86_400) * 1000;
    at(t, 'moved', 'Moved from the parent archive', rng.pick(USERS), d.parentArchiveId, d.id);
  }
  if (d.revised) at(d.created + 3_600_000, 'version', 'New version 2 checked in', d.by);
  const span = Math.max(1, nowMs - t);
  const times = Array.from({ length: rng.int(2, 5) }, () => t + Math.floor(rng.next() * span)).sort((a, b) => a - b);
  for (const when of times) {
    const user = rng.pick(USERS);
    event(rng, d).forEach(([category, message], i) => at(when + i * 600_000, category, message, user));
  }
  return rows;
}
