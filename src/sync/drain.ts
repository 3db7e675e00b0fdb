/**
 * The one outbox drain (docs/architecture.md "Writes: the outbox"; ENVIRONMENT.md "Offline machinery").
 * It runs under the Web Lock 'outbox-drain', so the page, other tabs and the service worker never
 * send the same entry at once (an in-module mutex stands in where navigator.locks is missing). It
 * touches no window and no document, so it runs in the page, in a dedicated worker and in the
 * service worker alike (workers/service-worker.ts drains on its `sync` event).
 *
 * The drain is the same for every entry kind: it asks the kind's handler (kinds.ts, registered by
 * ./all-kinds) how to send the entry, how to read its answer, which 409 is a conflict and what
 * follows when it is done; the failure policy below applies to all of them.
 *
 * Entries go in `seq` order per target: an entry that failed, conflicts or waits for its retry time
 * holds back the later entries of its target; other targets go on. Each entry is marked 'sending'
 * before its request and sent with its id as the Idempotency-Key; an entry found 'sending' (its
 * drainer died, the request may have arrived) is sent again with the same key, and the server
 * replays its first answer. The current token is stamped on each request (src/api/http.ts); with
 * none the drain stops and the entries stay queued until the user has signed in again.
 *
 * The failure policy (one place: classify + the 'retry' case below). An entry is never retried
 * forever and never dropped:
 * - 2xx: done (answer kept in `result`); a 409 with the kind's conflictKey: conflict (the server's
 *   values kept).
 * - 401, 402, 499, a login redirect or an HTML page: sign in again. The drain stops, the entry stays
 *   queued (not counted) and the error goes to the app's error handler.
 * - Waits, not counted: network failures (offline or the server out of reach: the entry waits, it
 *   is not the change's fault), 502/503/504 (a gateway saying the server is out of reach), 408,
 *   429 and 409 "key still running". Queued again with backoff.
 * - Counted: any other 5xx, and anything unexpected thrown while sending. Queued again with
 *   backoff; the same failure MAX_SAME_FAILURES times in a row makes the entry failed.
 * - Any other 4xx: failed at once (the server refused the change; resending it cannot help).
 * A failed entry keeps its reason as data (`reason`, worded by the tray) and the technical text in
 * `error`; it holds back the later entries of its target (their order matters) until the user
 * retries or discards it (outbox.ts); other targets go on.
 */
import * as z from 'zod/mini';
import { isApiError } from '../api/api-error';
import { errorText, handleError } from '../api/error-handler';
import { IDEMPOTENCY_HEADER, WIRE_STATUS } from '../api/errors';
import { apiRequest } from '../api/http';
import { getSession, getToken } from '../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type OutboxReason } from '../db/db';
import { OutboxWait, kindOf, type OutboxKind, type SendContext } from './kinds';
// Every context that drains knows every kind: an entry of a kind not registered here would be sent
// with the defaults (a plain request, no conflict handling, nothing after it).
import './all-kinds';

export const DRAIN_LOCK = 'outbox-drain';
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_MAX_MS = 5 * 60_000;
/**
 * The same counted failure this many times in a row makes an entry failed. With the backoff that is
 * about 30 s of a server answering e.g. 500 to this request: long enough for a restart, short
 * enough that the user hears of it while the change is fresh in their mind.
 */
export const MAX_SAME_FAILURES = 5;
/** The server's Key for a 409 "this Idempotency-Key is still running" (server/http/idempotency.ts). */
const IDEMPOTENCY_IN_PROGRESS_KEY = 'ERROR_IDEMPOTENCY_IN_PROGRESS';
/** Gateway answers meaning the server is out of reach (like a network failure), not that it failed. */
const UNREACHABLE = new Set([502, 503, 504]);

/** Wait after `attempts` failed tries: 2 s, 4 s, 8 s ... at most 5 minutes, with jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exp * (0.75 + random() * 0.5));
}

export type Outcome =
  | { type: 'done'; result: unknown }
  | { type: 'conflict'; result: unknown; reason: string }
  /** Send again later; `counted` when the failure counts towards MAX_SAME_FAILURES. */
  | { type: 'retry'; reason: string; counted?: Counted }
  /** Not ready to go (OutboxWait): again after `ms`, no attempt counted. */
  | { type: 'wait'; reason: string; ms: number }
  | { type: 'failed'; reason: string; why: OutboxReason }
  | { type: 'stop'; error: unknown };

/** A failure that counts: its code ('http 500', 'error') and what the reason says if it ends the entry. */
export interface Counted {
  code: string;
  status?: number;
  message?: string;
}

/** The reason of an entry ended by `count` counted failures in a row. */
export const countedReason = (c: Counted, count: number): OutboxReason =>
  c.status !== undefined
    ? { code: 'serverError', status: c.status, count, ...(c.message ? { message: c.message } : {}) }
    : { code: 'error', count, ...(c.message ? { message: c.message } : {}) };

/**
 * What an error thrown while sending means for the entry. `conflictKey` is the entry kind's server
 * Key of a 409 that means "your change conflicts" (OutboxKind.conflictKey); without one every 409
 * but "key still running" is a refusal.
 */
export function classify(e: unknown, conflictKey?: string): Outcome {
  if (e instanceof OutboxWait) return { type: 'wait', reason: e.key, ms: e.retryMs };
  if (!isApiError(e)) {
    const message = String((e as Error)?.message ?? e);
    return { type: 'retry', reason: message, counted: { code: 'error', message } };
  }
  switch (e.kind) {
    case 'network':
      return { type: 'retry', reason: errorText(e) };
    case 'noToken':
    case 'html':
      return { type: 'stop', error: e };
    case 'parse':
      // A 2xx whose body did not fit: the server did act, so the entry must not be sent again.
      return { type: 'done', result: null };
    case 'http':
      break;
  }
  const s = e.status;
  if (s === 401 || s === WIRE_STATUS.leaseExpired || s === WIRE_STATUS.licenseExpired || (s === 403 && e.loginRedirect)) return { type: 'stop', error: e };
  if (s === 409 && conflictKey !== undefined && e.key === conflictKey) return { type: 'conflict', result: e.body, reason: errorText(e) };
  if (s === 408 || s === 429 || (s === 409 && e.key === IDEMPOTENCY_IN_PROGRESS_KEY) || UNREACHABLE.has(s)) return { type: 'retry', reason: errorText(e) };
  if (s >= 500) return { type: 'retry', reason: errorText(e), counted: { code: `http ${s}`, status: s, ...(e.serverMessage ? { message: e.serverMessage } : {}) } };
  return { type: 'failed', reason: errorText(e), why: { code: 'refused', status: s, ...(e.serverMessage ? { message: e.serverMessage } : {}) } };
}

export interface DrainOptions {
  database?: ArchiveDb;
  /** The current token (default: the session's); read before each send. */
  token?: () => string | null;
  /** The signed-in user (default: the session's): only their entries are sent. */
  user?: () => string | null;
  /** Ignore retry times (the user came back online or pressed Retry). */
  force?: boolean;
  now?: () => number;
  /** Where a session error goes (default: the app's one error handler). */
  onSessionError?: (e: unknown) => void;
}

export interface DrainResult {
  sent: number;
  done: number;
  conflict: number;
  failed: number;
  retry: number;
  /** Stopped for a session error or a missing token. */
  stopped: boolean;
  /** Earliest time an entry waits for, for the next timer; null when none waits. */
  nextAttemptAt: number | null;
}

const SENDABLE = new Set(['queued', 'sending']);

/**
 * The default send of an entry: one request of its method, path, query, headers and body, with its id
 * as the Idempotency-Key and the current token in the header, the answer parsed with `schema`. A
 * kind's own send may call it for each of its requests.
 */
export function sendEntry(e: Pick<OutboxEntry, 'id' | 'method' | 'path' | 'query' | 'headers' | 'body'>, schema: z.ZodMiniType = z.unknown()): Promise<unknown> {
  return apiRequest({
    method: e.method,
    path: e.path,
    query: e.query,
    headers: { ...e.headers, [IDEMPOTENCY_HEADER]: e.id },
    body: e.body,
    auth: 'header',
    schema,
  });
}

function sendWith(handler: OutboxKind, entry: OutboxEntry, database: ArchiveDb, now: () => number): Promise<unknown> {
  if (!handler.send) return sendEntry(entry, handler.response);
  const ctx: SendContext = {
    database,
    now,
    saveProgress: async (changes) => {
      // The handler goes on with the entry it holds: keep it in step with what is stored.
      Object.assign(entry, changes);
      await database.outbox.update(entry.seq!, { ...changes, updatedAt: now() });
    },
  };
  return handler.send(entry, ctx);
}

/** One pass over the outbox. Call only under the lock (drainOnce / drain). */
export async function runDrain(opts: DrainOptions = {}): Promise<DrainResult> {
  const database = opts.database ?? defaultDb;
  const token = opts.token ?? getToken;
  const user = opts.user ?? (() => getSession()?.userName ?? null);
  const now = opts.now ?? Date.now;
  const out: DrainResult = { sent: 0, done: 0, conflict: 0, failed: 0, retry: 0, stopped: false, nextAttemptAt: null };
  const waitUntil = (t: number) => (out.nextAttemptAt = out.nextAttemptAt === null ? t : Math.min(out.nextAttemptAt, t));

  const entries = await database.outbox.where('state').anyOf('queued', 'sending', 'failed', 'conflict').sortBy('seq');
  const blocked = new Set<string>();
  for (const listed of entries) {
    if (blocked.has(listed.target)) continue;
    // Another user's change waits for that user to sign in again (and keeps its target's order).
    if (listed.owner && user() !== null && listed.owner !== user()) {
      blocked.add(listed.target);
      continue;
    }
    if (!SENDABLE.has(listed.state)) {
      blocked.add(listed.target);
      continue;
    }
    if (!opts.force && (listed.nextAttemptAt ?? 0) > now()) {
      blocked.add(listed.target);
      waitUntil(listed.nextAttemptAt!);
      continue;
    }
    if (!token()) {
      out.stopped = true;
      return out;
    }
    // The user may have discarded or changed the entry since the list was read.
    const entry = await database.transaction('rw', database.outbox, async () => {
      const e = await database.outbox.get(listed.seq!);
      if (!e || !SENDABLE.has(e.state)) return null;
      await database.outbox.update(e.seq!, { state: 'sending', updatedAt: now() });
      return e;
    });
    if (!entry) continue;

    const handler = kindOf(entry.kind);
    let outcome: Outcome;
    try {
      outcome = { type: 'done', result: await sendWith(handler, entry, database, now) };
    } catch (e) {
      outcome = classify(e, handler.conflictKey);
    }
    out.sent++;
    const seq = entry.seq!;
    switch (outcome.type) {
      case 'done':
        await database.transaction('rw', database.outbox, async () => {
          await database.outbox.update(seq, { state: 'done', result: outcome.result, error: undefined, nextAttemptAt: 0, updatedAt: now() });
          await handler.afterDone?.(database, entry, outcome.result);
        });
        out.done++;
        if (handler.followUp) {
          // The entry is done whatever happens here: a follow-up that fails is only logged.
          await handler.followUp(database, entry, outcome.result).catch((e: unknown) => console.warn(`Outbox ${entry.kind}: follow-up failed`, e));
        }
        break;
      case 'conflict':
        await database.outbox.update(seq, { state: 'conflict', result: outcome.result, error: outcome.reason, updatedAt: now() });
        blocked.add(entry.target);
        out.conflict++;
        break;
      case 'failed':
        await database.outbox.update(seq, { state: 'failed', error: outcome.reason, reason: outcome.why, attempts: entry.attempts + 1, updatedAt: now() });
        blocked.add(entry.target);
        out.failed++;
        break;
      case 'retry': {
        const c = outcome.counted;
        // A network failure or a wait says nothing about the change: the count stays as it was.
        const count = c ? (c.code === entry.failureCode ? (entry.failureCount ?? 0) + 1 : 1) : (entry.failureCount ?? 0);
        const failure = c ? { failureCode: c.code, failureCount: count } : {};
        if (c && count >= MAX_SAME_FAILURES) {
          await database.outbox.update(seq, { state: 'failed', error: outcome.reason, reason: countedReason(c, count), ...failure, attempts: entry.attempts + 1, nextAttemptAt: 0, updatedAt: now() });
          blocked.add(entry.target);
          out.failed++;
          break;
        }
        const at = now() + backoffMs(entry.attempts + 1);
        await database.outbox.update(seq, { state: 'queued', error: outcome.reason, ...failure, attempts: entry.attempts + 1, nextAttemptAt: at, updatedAt: now() });
        blocked.add(entry.target);
        waitUntil(at);
        out.retry++;
        break;
      }
      case 'wait': {
        const at = now() + outcome.ms;
        await database.outbox.update(seq, { state: 'queued', error: outcome.reason, nextAttemptAt: at, updatedAt: now() });
        blocked.add(entry.target);
        waitUntil(at);
        out.retry++;
        break;
      }
      case 'stop':
        await database.outbox.update(seq, { state: 'queued', updatedAt: now() });
        out.stopped = true;
        (opts.onSessionError ?? ((e: unknown) => void handleError(e)))(outcome.error);
        return out;
    }
  }
  return out;
}

// --- the lock ---------------------------------------------------------------------------------------

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

let localChain: Promise<unknown> = Promise.resolve();
/** Where navigator.locks is missing (tests, old browsers): one drain at a time in this context. */
function localLock<T>(fn: () => Promise<T>): Promise<T> {
  const run = localChain.then(fn, fn);
  localChain = run.catch(() => undefined);
  return run;
}

function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (locks && typeof locks.request === 'function') return locks.request(DRAIN_LOCK, fn);
  return localLock(fn);
}

/** One drain under the lock, as another tab or the service worker would run it. */
export function drainOnce(opts: DrainOptions = {}): Promise<DrainResult> {
  return withLock(() => runDrain(opts));
}

let waiting: { promise: Promise<DrainResult>; force: boolean } | null = null;

/**
 * Drains the outbox. Calls made while a drain of this context waits for the lock share it (it reads
 * the outbox only once it holds the lock, so it sees their entries too).
 */
export function drain(opts: DrainOptions = {}): Promise<DrainResult> {
  if (waiting) {
    waiting.force ||= Boolean(opts.force);
    return waiting.promise;
  }
  const slot = { force: Boolean(opts.force), promise: Promise.resolve() as unknown as Promise<DrainResult> };
  slot.promise = withLock(async () => {
    if (waiting === slot) waiting = null;
    return runDrain({ ...opts, force: slot.force });
  });
  waiting = slot;
  return slot.promise;
}
