/**
 * The outbox's entries (docs/architecture.md "Writes: the outbox"): what the user changed, kept in the
 * Dexie `outbox` table (src/db/db.ts) until the server has given a final answer. This module adds
 * entries of any kind and carries out the user's decisions on them; drain.ts sends them; what is
 * particular to a kind (its request, its meta, what follows) lives in its module under ./kinds/.
 *
 * What is stored where: one OutboxEntry per user action. `id` is a UUID sent as the Idempotency-Key,
 * so a re-send is never applied twice; `seq` (++) orders entries; `target` groups the entries that
 * must reach the server in order (e.g. one document: `${db}|${archive}|${doc}`). The token is never
 * stored: drain.ts stamps the current one when it sends. Entries are removed only by the user
 * (discard a failed/conflict entry, clear done entries). No React and no window: the service
 * worker and workers use this module too.
 */
import { getSession } from '../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type OutboxState } from '../db/db';

export const outboxTarget = (dbId: number, archiveId: number, docId: number): string => `${dbId}|${archiveId}|${docId}`;

/** States that still need the server (or the user): everything but done. */
export const UNFINISHED_STATES: readonly OutboxState[] = ['queued', 'sending', 'failed', 'conflict'];
/** The tray's badge: unsent, failed and conflicting entries. */
export const attentionCount = (entries: readonly OutboxEntry[]): number => entries.filter((e) => e.state !== 'done').length;

export function newEntryId(): string {
  return globalThis.crypto.randomUUID();
}

type Listener = () => void;
const enqueueListeners = new Set<Listener>();
/** Called after every enqueue or user decision (triggers.ts drains then). */
export function onEnqueue(l: Listener): () => void {
  enqueueListeners.add(l);
  return () => enqueueListeners.delete(l);
}

/** Tells the listeners (the page's triggers) that there is something to send. */
export function notifyEnqueued(): void {
  for (const l of enqueueListeners) l();
}

/** What a kind gives to enqueue: the request and what it is about; the outbox adds the rest. */
export type NewEntry = Pick<OutboxEntry, 'kind' | 'method' | 'path' | 'target'> & Partial<Pick<OutboxEntry, 'query' | 'headers' | 'body' | 'meta'>>;

/**
 * Keeps an entry of any kind in the outbox (queued) for the signed-in user. Resolves with its id
 * (its Idempotency-Key).
 */
export async function enqueue(entry: NewEntry, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  const now = Date.now();
  const id = newEntryId();
  await database.outbox.add({
    ...entry,
    id,
    ...(owner ? { owner } : {}),
    state: 'queued',
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  });
  notifyEnqueued();
  return id;
}

// --- the user's decisions ------------------------------------------------------------------------

/**
 * Sends a failed (or waiting) entry again at the next drain; a failed one with a fresh count. It keeps
 * its Idempotency-Key: after a 5xx or an error the server may have applied it (a proxy's 500 after
 * the commit), and the key makes the repeat answer that instead of applying it twice. A refused
 * entry (4xx) gets a new key: the server stored its refusal under the old one and would only replay
 * it, and a refusal means nothing was applied, so the new key cannot apply it twice.
 */
export async function retryEntry(seq: number, database: ArchiveDb = defaultDb): Promise<void> {
  await database.outbox
    .where('seq')
    .equals(seq)
    .modify((e) => {
      if (e.state !== 'failed' && e.state !== 'queued') return;
      if (e.state === 'failed') {
        if (e.reason?.code === 'refused') {
          e.id = newEntryId();
          e.attempts = 0;
        }
        e.reason = undefined;
        e.failureCode = undefined;
        e.failureCount = undefined;
      }
      // A waiting entry is only sent now: its count goes on, so pressing Retry cannot keep it
      // from ending as failed.
      e.state = 'queued';
      e.nextAttemptAt = 0;
      e.error = undefined;
      e.updatedAt = Date.now();
    });
  notifyEnqueued();
}

/** Removes a failed or conflicting entry (the caller has asked the user to confirm). Other states stay. */
export async function discardEntry(seq: number, database: ArchiveDb = defaultDb): Promise<boolean> {
  const removed = await database.transaction('rw', database.outbox, async () => {
    const e = await database.outbox.get(seq);
    if (!e || (e.state !== 'failed' && e.state !== 'conflict')) return false;
    await database.outbox.delete(seq);
    return true;
  });
  if (removed) notifyEnqueued();
  return removed;
}

/** Conflict, take theirs: the server's values stay; the change is dropped. */
export const takeTheirs = (seq: number, database: ArchiveDb = defaultDb): Promise<boolean> => discardEntry(seq, database);

/** Removes every done entry (the tray's "Clear done"). */
export async function clearDone(database: ArchiveDb = defaultDb): Promise<number> {
  return database.outbox.where('state').equals('done').delete();
}
