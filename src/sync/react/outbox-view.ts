/**
 * The outbox as the header's tray shows it: the live list of entries and the drain triggers. Kept
 * apart from the drain and the kinds so the first screen (the header) loads neither the drain nor the
 * contract schemas the kinds use; the triggers load the drain once there is something to send
 * (docs/development.md "Budgets"). React lives only in src/sync/react/: the rest of src/sync runs in the
 * service worker and workers too (eslint.config.js enforces it).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef } from 'react';
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

/**
 * Starts the drain triggers while mounted (the signed-in layout mounts it once), from the first
 * moment the outbox holds an entry to send: a start with nothing to send (a first visit, most
 * starts) loads neither the drain nor the kinds' schemas (~16 KB gzip on the first screen). An
 * enqueue, a retry or an entry left from before writes the table, which this watches; the service
 * worker drains on its own.
 */
export function useOutboxTriggers(database: ArchiveDb = defaultDb): void {
  const toSend = useLiveQuery(() => database.outbox.where('state').anyOf('queued', 'sending').count(), [database]) ?? 0;
  const needed = toSend > 0;
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!needed || stop.current) return;
    let live = true;
    void import('../triggers').then(({ startOutboxTriggers }) => {
      if (live) stop.current = startOutboxTriggers();
    });
    return () => {
      live = false;
    };
  }, [needed]);
  // Once started they run on (the next enqueue, the retry timer) until the layout goes.
  useEffect(
    () => () => {
      stop.current?.();
      stop.current = null;
    },
    [],
  );
}
