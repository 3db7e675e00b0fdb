/**
 * The jobs worker: polls the signed-in user's server jobs (workers/jobs.ts, src/sync/jobs.ts) off the
 * main thread, exposed over Comlink and started and ended by src/sync/jobs-bridge.ts. It reads the
 * session from Dexie (no window here) and sends the token with its own copy of the fetch wrapper.
 */
import { expose } from 'comlink';
import { configureHttp } from '../src/api/http';
import { db } from '../src/db/db';
import { getToken, loadSession } from '../src/session/session';
import { errorInit, type JobsWorkerApi } from '../src/sync/jobs-bridge';
import { fetchJob, fetchJobList } from '../src/sync/jobs-api';
import { startJobsLoop, type JobsLoop } from './jobs';

let loop: JobsLoop | null = null;

const api: JobsWorkerApi = {
  async start(baseUrl, onEnded, onStopped) {
    loop?.stop();
    loop = null;
    const session = await loadSession();
    if (!session) return;
    configureHttp({ baseUrl: () => baseUrl, token: getToken });
    loop = startJobsLoop({
      database: db,
      fetchJob: (id) => fetchJob(id),
      fetchJobList: () => fetchJobList(),
      owner: session.userName,
      onEnded: (records) => onEnded(records),
      onStopped: (e) => onStopped(errorInit(e)),
    });
    await loop.started;
  },
  kick() {
    loop?.kick();
  },
  stop() {
    loop?.stop();
    loop = null;
  },
};

expose(api);
