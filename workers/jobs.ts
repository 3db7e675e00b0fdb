/**
 * The jobs worker's loop (workers/jobs.worker.ts wires it; docs/architecture.md "Long jobs"). What to poll
 * when and how an answer is merged live in src/sync/jobs.ts; this file only runs its steps:
 * - at start, once: GET api/jobs (jobs of this user from other devices, or whose record was lost);
 * - then pollJobs, and a timer for the earliest next poll; no timer when nothing needs polling;
 * - the `jobs` table is watched (Dexie liveQuery sees writes of the page, other workers and the
 *   service worker): a job tracked anywhere (trackJob sets nextPollAt 0) is polled at once;
 * - a session error (401, 402, 499 ...) stops the loop and goes to onStopped (the page's error
 *   handler signs the user in again): polling never loops on a dead token.
 * State: the timer and the subscription, in memory; everything else is in the Dexie records.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { Job } from '../src/api/jobs';
import type { ArchiveDb } from '../src/db/db';
import { isSessionError, nextPollTime, pollJobs, syncJobList, type FetchJob } from '../src/sync/jobs';
import { singleFlight } from './single-flight';

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface JobsLoopOptions {
  database: ArchiveDb;
  fetchJob: FetchJob;
  fetchJobList?: () => Promise<Job[]>;
  owner: string | null;
  now?: () => number;
  timers?: Timers;
  /** The session error that stopped the loop. */
  onStopped?: (error: unknown) => void;
}

export interface JobsLoop {
  /** Polls what is due now (e.g. after the page tracked a job). */
  kick(): void;
  stop(): void;
  /** True while a timer is set (tests: no timer when every job is final). */
  readonly waiting: boolean;
  /** Settles when the start-up sync and the first step are done. */
  readonly started: Promise<void>;
}

const defaultTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function startJobsLoop(opts: JobsLoopOptions): JobsLoop {
  const { database, owner } = opts;
  const now = opts.now ?? Date.now;
  const timers = opts.timers ?? defaultTimers;
  let timer: unknown = undefined;
  let stopped = false;
  let sub: Subscription | null = null;

  const clearTimer = () => {
    if (timer !== undefined) timers.clear(timer);
    timer = undefined;
  };
  const schedule = (at: number | null) => {
    clearTimer();
    if (stopped || at === null) return;
    timer = timers.set(() => {
      timer = undefined;
      void run();
    }, Math.max(0, at - now()));
  };
  const stopFor = (error: unknown) => {
    loop.stop();
    opts.onStopped?.(error);
  };

  const step = async () => {
    const r = await pollJobs(database, opts.fetchJob, now(), { owner });
    if (r.stopped) stopFor(r.stopped);
    else schedule(r.nextAt);
  };

  const flight = singleFlight(step, {
    stopped: () => stopped,
    before: clearTimer,
    onFail: (e) => {
      // Dexie itself failed (storage gone, quota): try again at the slowest pace.
      console.warn('Jobs poll failed', e);
      schedule(now() + 30_000);
    },
  });
  const run = flight.run;

  const start = async () => {
    if (opts.fetchJobList) {
      try {
        await syncJobList(database, await opts.fetchJobList(), owner, now());
      } catch (e) {
        if (isSessionError(e)) {
          stopFor(e);
          return;
        }
        // Offline or the server out of reach: the stored records are polled; the list waits for the next start.
      }
    }
    if (stopped) return;
    sub = liveQuery(() => database.jobs.toArray()).subscribe({
      next: (records) => {
        if (stopped) return;
        if (flight.current) {
          flight.again();
          return;
        }
        const at = nextPollTime(records, owner);
        if (at !== null && at <= now()) void run();
        else schedule(at);
      },
      error: (e: unknown) => console.warn('Jobs watch failed', e),
    });
    await run();
  };

  let started: Promise<void> = Promise.resolve();
  const loop: JobsLoop = {
    kick: () => void run(),
    stop: () => {
      stopped = true;
      clearTimer();
      sub?.unsubscribe();
      sub = null;
    },
    get waiting() {
      return timer !== undefined;
    },
    get started() {
      return started;
    },
  };
  started = start();
  return loop;
}
