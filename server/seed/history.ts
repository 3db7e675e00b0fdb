/**
 * A realistic history for each seeded document (the archive-ops spec §3 History categories):
 * indexed first, then a few events of other categories between its creation and now. Uses its own
 * random sequence so the documents' field values do not depend on it.
 */
import type { HistoryCategory, HistoryEvent } from '../../src/api/audit.js';
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

/** Columns of audit_entries the rows below fill, in order (details: { Event }, the sentence's parts). */
export const HISTORY_COLUMNS = ['database_id', 'archive_id', 'document_id', 'message', 'category', 'old_archive_id', 'old_doc_id', 'time', 'user_name', 'details'] as const;

const USERS = ['admin', 'user', 'kiosk'];
const NEXT_STATUS: Record<string, string> = { New: 'Approved', Approved: 'Paid', Paid: 'Paid' };

/** A category, the English sentence (audit_entries.message) and its parts (src/api/audit.ts HistoryEvent). */
type Event = [HistoryCategory, string, HistoryEvent];

function event(rng: Prng, d: HistoryDoc): Event[] {
  const page = rng.int(1, Math.max(1, d.pages));
  switch (rng.int(0, 11)) {
    case 0:
    case 1:
      return [['viewed', 'Document viewed', { Kind: 'viewed' }]];
    case 2: {
      if (!d.status) return [['updated', 'Index fields updated', { Kind: 'index-updated' }]];
      const next = NEXT_STATUS[d.status] ?? 'Approved';
      return [['updated', `Field Status changed from ${d.status} to ${next}`, { Kind: 'fields-changed', Changes: [{ Field: 'Status', Old: d.status, New: next }] }]];
    }
    case 3:
      return rng.chance(0.5)
        ? [['annotation', `Annotation added on page ${page}`, { Kind: 'annotation-added', Page: page }]]
        : [['annotation', `Stamp APPROVED applied on page ${page}`, { Kind: 'stamp-applied', Stamp: 'APPROVED', Page: page }]];
    case 4:
      return rng.chance(0.5)
        ? [['exported', 'Document exported as PDF', { Kind: 'exported-pdf' }]]
        : [['exported', 'Document exported with CSV index data', { Kind: 'exported-csv' }]];
    case 5:
      return [['printed', `Printed ${d.pages} page${d.pages === 1 ? '' : 's'}`, { Kind: 'printed', Count: d.pages }]];
    case 6: {
      const pick = rng.int(0, 2);
      if (pick === 0) return [['email', 'Document e-mailed to finance@example.com', { Kind: 'emailed', Address: 'finance@example.com' }]];
      if (pick === 1) return [['email', 'Attached to an e-mail', { Kind: 'attached-to-email' }]];
      return [['email', 'Notification sent to archive@example.com', { Kind: 'notification-sent', Address: 'archive@example.com' }]];
    }
    case 7:
      return [
        ['checked in/out', 'Checked out', { Kind: 'checked-out' }],
        ['checked in/out', 'Checked in', { Kind: 'checked-in' }],
      ];
    case 8:
      if (d.fileType === 'TIF') return [['converted', 'Converted to PDF', { Kind: 'converted-pdf' }]];
      return rng.chance(0.7)
        ? [['published/unpublished', 'Published to the portal', { Kind: 'published' }]]
        : [['published/unpublished', 'Unpublished from the portal', { Kind: 'unpublished' }]];
    case 9:
      return [['appended', `Page appended from inbox Scans (${d.pages} pages now)`, { Kind: 'page-appended', Inbox: 'Scans', Count: d.pages }]];
    case 10:
      return d.pages > 1
        ? [['deleted', `Page ${page} deleted`, { Kind: 'page-deleted', Page: page }]]
        : [['copied', 'Copied to archive Paid Invoices', { Kind: 'copied-to', Archive: 'Paid Invoices' }]];
    default:
      return [['updated', `Page ${page} replaced`, { Kind: 'page-replaced', Page: page }]];
  }
}

export function historyRows(rng: Prng, d: HistoryDoc, nowMs: number): unknown[][] {
  const rows: unknown[][] = [];
  const at = (t: number, category: HistoryCategory, message: string, ev: HistoryEvent, by: string, oldArchive: number | null = null, oldDoc: number | null = null) =>
    rows.push([d.dbId, d.archiveId, d.id, message, category, oldArchive, oldDoc, new Date(t), by, { Event: ev }]);
  at(d.created, 'indexed', 'Document indexed', { Kind: 'indexed' }, d.by);
  let t = d.created;
  if (d.parentArchiveId !== null && rng.chance(0.4)) {
    t += rng.int(60, 86_400) * 1000;
    at(t, 'moved', 'Moved from the parent archive', { Kind: 'moved-from-parent' }, rng.pick(USERS), d.parentArchiveId, d.id);
  }
  if (d.revised) at(d.created + 3_600_000, 'version', 'New version 2 checked in', { Kind: 'version-checked-in', Version: '2' }, d.by);
  const span = Math.max(1, nowMs - t);
  const times = Array.from({ length: rng.int(2, 5) }, () => t + Math.floor(rng.next() * span)).sort((a, b) => a - b);
  for (const when of times) {
    const user = rng.pick(USERS);
    event(rng, d).forEach(([category, message, ev], i) => at(when + i * 600_000, category, message, ev, user));
  }
  return rows;
}
