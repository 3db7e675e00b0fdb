/**
 * A merge or append in the tray (the user-app spec §8 "merge and append success and failure notes"): what
 * came of it, worded when shown from the entry (src/sync/kinds/merge.ts mergeOutcome), so it follows
 * a language change. Null for other entries and while it has not finished.
 */
import type { OutboxEntry } from '../../db/db';
import { mergeOutcome } from '../../sync/kinds/merge';
import type { AppTFunction as TFunction } from '../../i18n/t-function';

export function mergeNote(entry: OutboxEntry, t: TFunction): string | null {
  const note = mergeOutcome(entry);
  if (!note) return null;
  return t(note.key, note.vars);
}
