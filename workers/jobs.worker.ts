/**
 * The jobs worker: polls the signed-in user's server jobs (workers/jobs.ts, src/sync/jobs.ts) off the
 * main thread, exposed over Comlink and started and ended by src/sync/jobs-bridge.ts. It reads the
 * session from Dexie (no window here) and sends the token with its own copy of the fetch wrapper.
 * With several tabs open, one worker polls at a time: each holds the Web Lock JOBS_LOCK while it
 * polls, and the next takes over when that tab closes (the others' trays read the same records).
 */
import { expose } from 'comlink';
import { configureHttp } from '../src/api/http';
import { db } from '../src/db/db';
import { getToken, loadSession } from '../src/session/session';
import { errorInit, type JobsWorkerApi } from '../src/sync/jobs-bridge';
import { fetchJob, fetchJobList } from '../src/sync/jobs-api';
import { startJobsLoop, type JobsLoop } from './jobs';

export const JOBS_LOCK = 'jobs-poll';

let loop: JobsLoop | null = null;
/** Ends the current run: stops its loop and gives up its lock. */
let release: (() => void) | null = null;
/** Which start() is current: a run that gets the lock after a newer start() or a stop() does nothing. */
let generation = 0;

const api: JobsWorkerApi = {
  async start(baseUrl, onEnded, onStopped) {
    api.stop();
    const mine = generation;
    const session = await loadSession();
    if (!session || mine !== generation) return;
    configureHttp({ baseUrl: () => baseUrl, token: getToken });
    const run = () =>
      new Promise<void>((resolve) => {
        if (mine !== generation) return resolve();
        loop = startJobsLoop({
          database: db,
          fetchJob: (id) => fetchJob(id),
          fetchJobList: () => fetchJobList(),
          owner: session.userName,
          onEnded: (records) => onEnded(records),
          onStopped: (e) => {
            onStopped(errorInit(e));
            resolve();
          },
        });
        release = () => {
          loop?.stop();
          loop = null;
          resolve();
        };
      });
    const locks = (self.navigator as { locks?: LockManager }).locks;
    // Not awaited: a second tab's worker waits here until the first one lets go.
    if (locks) void locks.request(JOBS_LOCK, run).catch(() => undefined);
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

expose(api);
