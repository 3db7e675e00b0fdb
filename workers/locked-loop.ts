/**
 * What the jobs worker and the upload worker share: one loop at a time across every tab. start()
 * reads the session from Dexie (no window in a worker), points the fetch wrapper at the API with
 * the stored token, then runs the loop while holding the Web Lock `lockName`; a second tab's
 * worker waits for the lock and takes over when the first tab closes. A start() superseded by a
 * newer start() or a stop() before it got the lock does nothing.
 */
import { configureHttp } from '../src/api/http';
import { getToken, loadSession } from '../src/session/session';

export interface StoppableLoop {
  kick(): void;
  stop(): void;
}

export interface LockedLoopHost {
  /** `make` starts the loop for the signed-in `owner`; the loop calls `done` when it stops by itself. */
  start(baseUrl: string, make: (owner: string | null, done: () => void) => StoppableLoop): Promise<void>;
  kick(): void;
  stop(): void;
}

export function lockedLoopHost(lockName: string): LockedLoopHost {
  let loop: StoppableLoop | null = null;
  /** Ends the current run: stops its loop and gives up its lock. */
  let release: (() => void) | null = null;
  /** Which start() is current. */
  let generation = 0;
  const host: LockedLoopHost = {
    async start(baseUrl, make) {
      host.stop();
      const mine = generation;
      const session = await loadSession();
      if (!session || mine !== generation) return;
      configureHttp({ baseUrl: () => baseUrl, token: getToken });
      const run = () =>
        new Promise<void>((resolve) => {
          if (mine !== generation) return resolve();
          loop = make(session.userName, resolve);
          release = () => {
            loop?.stop();
            loop = null;
            resolve();
          };
        });
      const locks = (self.navigator as { locks?: LockManager }).locks;
      // Not awaited: a second tab's worker waits here until the first one lets go.
      if (locks) void locks.request(lockName, run).catch(() => undefined);
      else void run();
    },
    kick() {
      loop?.kick();
    },
    stop() {
      generation++;
      release?.();
      release = null;
    },
  };
  return host;
}
