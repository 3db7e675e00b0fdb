/**
 * The loop the upload worker and the pin worker share: records in a Dexie table are the work, one at
 * a time, oldest first (`pick` chooses it, or says when the next is due), and:
 * - the table is watched (Dexie liveQuery sees the page's enqueue, Pause, Resume, Retry): new work
 *   starts at once while the loop is idle;
 * - a record that must wait (connection lost, server busy) is tried again when due, or at once on
 *   kick() (the page calls it when the connection comes back);
 * - a session error stops the loop and goes to onStopped (the page signs the user in again, and the
 *   next start goes on): the records stay queued.
 * State: the timer and the subscription, in memory; everything else is in the Dexie records.
 */
import { liveQuery, type Subscription } from 'dexie';
import { singleFlight } from './single-flight';

export interface RecordLoop {
  kick(): void;
  stop(): void;
  /** Settles when nothing is left to do now (tests). */
  idle(): Promise<void>;
}

export interface RecordLoopOptions<K> {
  /** What to work now, or when the next record is due. */
  pick(now: number): Promise<{ key?: K; at?: number }>;
  /** Works one record; a session error stops the loop. */
  work(key: K): Promise<{ outcome: string; error?: unknown }>;
  /** What the loop watches for new work (e.g. the keys of the queued and waiting records). */
  watch(): Promise<unknown>;
  /** Makes the waiting records due now (kick). */
  wakeWaiting(): Promise<unknown>;
  /** For the console when the store itself fails. */
  name: string;
  now?: () => number;
  onStopped?: (error: unknown) => void;
}

export function startRecordLoop<K>(opts: RecordLoopOptions<K>): RecordLoop {
  const now = opts.now ?? Date.now;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sub: Subscription | null = null;

  const schedule = (at: number | undefined) => {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || at === undefined) return;
    timer = setTimeout(() => void run(), Math.max(0, at - now()));
  };

  const work = async () => {
    for (;;) {
      if (stopped) return;
      const pick = await opts.pick(now());
      if (pick.key === undefined) return schedule(pick.at);
      const r = await opts.work(pick.key);
      if (r.outcome === 'session') {
        loop.stop();
        opts.onStopped?.(r.error);
        return;
      }
    }
  };

  const flight = singleFlight(work, {
    stopped: () => stopped,
    before: () => clearTimeout(timer),
    onFail: (e) => {
      // Dexie itself failed (storage gone, quota): try again later.
      console.warn(`${opts.name} failed to run`, e);
      schedule(now() + 30_000);
    },
  });
  const run = flight.run;

  sub = liveQuery(opts.watch).subscribe({
    next: () => void run(),
    error: (e: unknown) => console.warn(`${opts.name} watch failed`, e),
  });

  const loop: RecordLoop = {
    kick: () => void opts.wakeWaiting().then(() => run()),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      sub?.unsubscribe();
      sub = null;
    },
    idle: async () => {
      while (flight.current) await flight.current;
    },
  };
  void run();
  return loop;
}
