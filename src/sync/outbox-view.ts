/**
 * The outbox as the header's tray shows it: the live list of entries, how many need attention, and
 * the drain triggers. Kept apart from outbox.ts and drain.ts so the first screen (the header) loads
 * neither the outbox's writers nor the drain and the contract schemas they use; the triggers load
 * the drain once the tray has mounted (ARCHITECTURE.md "Budgets").
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { db as defaultDb, type ArchiveDb, type OutboxEntry } from '../db/db';

const EMPTY: OutboxEntry[] = [];

/** The tray badge: unsent, failed and conflicting entries. */
export const attentionCount = (entries: readonly OutboxEntry[]): number => entries.filter((e) => e.state !== 'done').length;

/** Every outbox entry in order (seq). */
export function useOutbox(database: ArchiveDb = defaultDb): OutboxEntry[] {
  return useLiveQuery(() => database.outbox.orderBy('seq').toArray(), [database]) ?? EMPTY;
}

/** Starts the drain triggers while mounted (the signed-in layout mounts it once). */
export function useOutboxTriggers(): void {
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    void import('./triggers').then(({ startOutboxTriggers }) => {
      if (live) stop = startOutboxTriggers();
    });
    return () => {
      live = false;
      stop?.();
    };
  }, []);
}
