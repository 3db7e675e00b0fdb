/**
 * The outbox as the header's tray shows it: the live list of entries and the drain triggers. Kept
 * apart from the drain and the kinds so the first screen (the header) loads neither the drain nor the
 * contract schemas the kinds use; the triggers load the drain once the tray has mounted
 * (docs/development.md "Budgets"). React lives only in src/sync/react/: the rest of src/sync runs in the
 * service worker and workers too (eslint.config.js enforces it).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';
import { db as defaultDb, type ArchiveDb, type OutboxEntry } from '../../db/db';
import { attentionCount } from '../outbox';

const EMPTY: OutboxEntry[] = [];

/** Every outbox entry in order (seq). */
export function useOutbox(database: ArchiveDb = defaultDb): OutboxEntry[] {
  return useLiveQuery(() => database.outbox.orderBy('seq').toArray(), [database]) ?? EMPTY;
}

/** The tray badge: unsent, failed and conflicting entries. */
export function useOutboxAttentionCount(database: ArchiveDb = defaultDb): number {
  const entries = useOutbox(database);
  return useMemo(() => attentionCount(entries), [entries]);
}

/** Starts the drain triggers while mounted (the signed-in layout mounts it once). */
export function useOutboxTriggers(): void {
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    void import('../triggers').then(({ startOutboxTriggers }) => {
      if (live) stop = startOutboxTriggers();
    });
    return () => {
      live = false;
      stop?.();
    };
  }, []);
}
