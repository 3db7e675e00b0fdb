/**
 * The parts of a history entry (src/api/audit.ts HistoryEvent) read from audit_entries.details, so
 * that a client writes the sentence in its user's language; the message column keeps the English
 * sentence for older clients. Entries store their parts as details.Event; a field edit stores its
 * changes as details.Fields ([{ ID, Name, Old, New }], server/services/field-edits.ts), which is turned
 * into a fields-changed event here. Entries with neither answer no Event (the client shows Message).
 */
import * as z from 'zod/mini';
import { HistoryEvent } from '../../src/api/audit.js';

const EditedFields = z.array(z.looseObject({ Name: z.string(), Old: z.optional(z.nullable(z.string())), New: z.optional(z.nullable(z.string())) }));

export function historyEventOf(details: unknown): HistoryEvent | null {
  if (!details || typeof details !== 'object') return null;
  const d = details as { Event?: unknown; Fields?: unknown };
  if (d.Event !== undefined) {
    const e = HistoryEvent.safeParse(d.Event);
    return e.success ? e.data : null;
  }
  const fields = EditedFields.safeParse(d.Fields);
  if (fields.success && fields.data.length) {
    return { Kind: 'fields-changed', Changes: fields.data.map((f) => ({ Field: f.Name, Old: f.Old ?? '', New: f.New ?? '' })) };
  }
  return null;
}
