/**
 * The jobs worker: polls the signed-in user's server jobs (workers/jobs.ts, src/sync/jobs.ts) off the
 * main thread, exposed over Comlink and started and ended by src/sync/jobs-bridge.ts. With several
 * tabs open, one worker polls at a time under the Web Lock JOBS_LOCK (workers/locked-loop.ts), and
 * the next takes over when that tab closes (the others' trays read the same records).
 */
import { expose } from 'comlink';
import { db } from '../src/db/db';
import { errorInit, type JobsWorkerApi } from '../src/sync/jobs-bridge';
import { fetchJob, fetchJobList } from '../src/sync/jobs-api';
import { startJobsLoop } from './jobs';
import { lockedLoopHost } from './locked-loop';

export const JOBS_LOCK = 'jobs-poll';

const host = lockedLoopHost(JOBS_LOCK);

const api: JobsWorkerApi = {
  start: (baseUrl, onStopped) =>
    host.start(baseUrl, (owner, done) =>
      startJobsLoop({
        database: db,
        fetchJob: (id) => fetchJob(id),
        fetchJobList: () => fetchJobList(),
        owner,
        onStopped: (e) => {
          onStopped(errorInit(e));
          done();
        },
      }),
    ),
  kick: () => host.kick(),
  stop: () => host.stop(),
};

expose(api);
