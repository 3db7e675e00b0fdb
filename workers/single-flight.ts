/**
 * One run at a time, and one more after it when asked while it ran: the core of the workers' loops
 * (record-loop.ts for uploads and pins, jobs.ts for the jobs poll). run() while a run is going marks
 * it to go again and returns the running promise; a failed run (Dexie itself failing: storage gone,
 * quota) goes to onFail, which schedules the next try.
 */
export interface SingleFlight {
  run(): Promise<void>;
  /** The run going now, or null. */
  readonly current: Promise<void> | null;
  /** Run once more when the current run ends (nothing when none is going). */
  again(): void;
}

export function singleFlight(work: () => Promise<void>, opts: { stopped: () => boolean; before?: () => void; onFail: (e: unknown) => void }): SingleFlight {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    if (opts.stopped()) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    opts.before?.();
    running = work()
      .catch(opts.onFail)
      .finally(() => {
        running = null;
        if (again && !opts.stopped()) {
          again = false;
          void run();
        }
      });
    return running;
  };
  return {
    run,
    get current() {
      return running;
    },
    again: () => {
      if (running) again = true;
    },
  };
}
