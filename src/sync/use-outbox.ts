/** React views of the outbox: live (useLiveQuery sees writes of other tabs and workers too). */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { db as defaultDb, type ArchiveDb, type OutboxEntry } from '../db/db';
import { pendingValuesByTarget, pendingValuesFrom, type PendingValues } from './outbox';
import { attentionCount, useOutbox } from './outbox-view';

export { useOutbox, useOutboxTriggers } from './outbox-view';

const EMPTY: OutboxEntry[] = [];

/** The tray badge: unsent, failed and conflicting entries. */
export function useOutboxAttentionCount(database: ArchiveDb = defaultDb): number {
  const entries = useOutbox(database);
  return useMemo(() => attentionCount(entries), [entries]);
}

/** The grid's overlay for one document (target: outboxTarget(db, archive, doc)). */
export function usePendingValues(target: string, database: ArchiveDb = defaultDb): PendingValues {
  const entries = useLiveQuery(() => database.outbox.where('[target+seq]').between([target, -Infinity], [target, Infinity]).toArray(), [database, target]) ?? EMPTY;
  return useMemo(() => pendingValuesFrom(entries, target), [entries, target]);
}

/** The grid's overlay for every document with unconfirmed edits (one live query for a whole page). */
export function usePendingValuesByTarget(database: ArchiveDb = defaultDb): Map<string, PendingValues> {
  const entries = useLiveQuery(() => database.outbox.where('state').anyOf('queued', 'sending', 'failed', 'conflict').toArray(), [database]) ?? EMPTY;
  return useMemo(() => pendingValuesByTarget(entries), [entries]);
}
