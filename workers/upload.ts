/**
 * The upload worker's loop (workers/upload.worker.ts wires it; ARCHITECTURE.md "Uploads"). Which
 * upload goes next and what an answer means live in src/sync/upload-engine.ts; this file only runs
 * them, one upload at a time, oldest first:
 * - the `uploads` table is watched (Dexie liveQuery sees the page's enqueue, Pause, Resume, Retry):
 *   new work starts at once while the loop is idle;
 * - an upload that must wait (connection lost, server busy) is tried again at its nextAttemptAt, or
 *   at once on kick() (the page calls it when the connection comes back);
 * - a session error stops the loop and goes to onStopped (the page signs the user in again, and the
 *   next start goes on): the uploads stay queued.
 * State: the timer and the subscription, in memory; everything else is in the Dexie records.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { ArchiveDb, UploadRecord } from '../src/db/db';
import { workUpload, type UploadApi } from '../src/sync/upload-engine';

export interface UploadLoopOptions {
  database: ArchiveDb;
  api: UploadApi;
  owner: string | null;
  now?: () => number;
  onStopped?: (error: unknown) => void;
}

export interface UploadLoop {
  kick(): void;
  stop(): void;
  /** Settles when nothing is left to do now (tests). */
  idle(): Promise<void>;
}

const mine = (r: UploadRecord, owner: string | null) => r.owner === undefined || r.owner === owner;
const workable = (r: UploadRecord) => r.file !== undefined && (r.state === 'queued' || r.state === 'sending' || r.state === 'hashing' || r.state === 'waiting');

/** The upload to work now (oldest first), or when the next one is due. */
export function nextUpload(records: readonly UploadRecord[], owner: string | null, now: number): { id?: string; at?: number } {
  let at: number | undefined;
  for (const r of [...records].sort((a, b) => a.createdAt - b.createdAt)) {
    if (!mine(r, owner) || !workable(r)) continue;
    const due = r.state === 'waiting' ? (r.nextAttemptAt ?? 0) : 0;
    if (due <= now) return { id: r.id };
    at = at === undefined ? due : Math.min(at, due);
  }
  return { at };
}

export function startUploadLoop(opts: UploadLoopOptions): UploadLoop {
  const { database, owner } = opts;
  const now = opts.now ?? Date.now;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
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
      const pick = nextUpload(await database.uploads.toArray(), owner, now());
      if (!pick.id) return schedule(pick.at);
      const r = await workUpload(database, pick.id, opts.api, now);
      if (r.outcome === 'session') {
        loop.stop();
        opts.onStopped?.(r.error);
        return;
      }
    }
  };

  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = work()
      .catch((e: unknown) => {
        // Dexie itself failed (storage gone, quota): try again later.
        console.warn('Upload failed to run', e);
        schedule(now() + 30_000);
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };

  sub = liveQuery(() => database.uploads.where('state').anyOf('queued', 'waiting').primaryKeys()).subscribe({
    next: () => void run(),
    error: (e: unknown) => console.warn('Upload watch failed', e),
  });

  const loop: UploadLoop = {
    kick: () => {
      // Waiting uploads go at once (the connection is back).
      void database.uploads
        .where('state')
        .equals('waiting')
        .modify({ nextAttemptAt: 0 })
        .then(() => run());
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      sub?.unsubscribe();
      sub = null;
    },
    idle: async () => {
      while (running) await running;
    },
  };
  void run();
  return loop;
}
