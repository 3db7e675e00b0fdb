/**
 * Outbox entry kinds (docs/architecture.md "Writes: the outbox"). Every entry has a `kind`; each kind
 * registers one handler here, and the one drain (drain.ts) asks the handler how to send the entry,
 * how to read its answer, what follows when it is done and whether a 409 is a conflict. The failure
 * policy (drain.ts `classify`) is the same for every kind.
 *
 * A handler module registers itself when imported (`registerKind(...)` at module level); every
 * context that drains (the page, a worker, the service worker) imports `./all-kinds`, so they all
 * know the same kinds. No React here: the service worker runs these.
 */
import type * as z from 'zod/mini';
import type { ArchiveDb, OutboxEntry } from '../db/db';

/**
 * Thrown by a kind's send when the entry cannot go yet for a reason of the device's own (e.g. an
 * import whose files are still uploading): not a failure. The drain queues it again after `retryMs`
 * without counting an attempt, and the tray words `key` as why it waits.
 */
export class OutboxWait extends Error {
  constructor(
    readonly key: string,
    readonly retryMs = 2_000,
  ) {
    super(key);
    this.name = 'OutboxWait';
  }
}

export interface SendContext {
  database: ArchiveDb;
  now: () => number;
  /**
   * Keeps progress of a multi-call entry (e.g. which documents of a group were sent) in the entry
   * itself, so a drain that dies half-way resumes where it was, re-sending at most the call in flight.
   */
  saveProgress: (changes: Partial<Pick<OutboxEntry, 'meta' | 'result'>>) => Promise<void>;
}

export interface OutboxKind {
  kind: string;
  /**
   * Sends the entry and resolves with the answer (the entry is then done), or throws what apiRequest
   * throws (the drain classifies it). Default: one apiRequest of the entry's method, path, query,
   * headers and body, with its id as the Idempotency-Key, parsed with `response`.
   */
  send?: (entry: OutboxEntry, ctx: SendContext) => Promise<unknown>;
  /** The answer's schema for the default send (default: anything). */
  response?: z.ZodMiniType;
  /** The server Key of a 409 that means "your change conflicts" (the entry becomes 'conflict'). */
  conflictKey?: string;
  /** After the entry is done, in the same Dexie transaction as its state change (outbox table only). */
  afterDone?: (database: ArchiveDb, entry: OutboxEntry, result: unknown) => Promise<void>;
  /** After the entry is done, outside the transaction (e.g. record a server job in the `jobs` table). */
  followUp?: (database: ArchiveDb, entry: OutboxEntry, result: unknown) => Promise<void>;
}

const kinds = new Map<string, OutboxKind>();

export function registerKind(k: OutboxKind): void {
  kinds.set(k.kind, k);
}

/** The handler of a kind; an entry of an unknown kind (a newer app wrote it) uses the defaults. */
export function kindOf(name: string): OutboxKind {
  return kinds.get(name) ?? { kind: name };
}
