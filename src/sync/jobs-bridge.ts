/**
 * The page's one way into the jobs worker (workers/jobs.worker.ts; STYLE.md: one Comlink bridge per
 * worker). The page starts it when a user is signed in and ends it at sign-out or when the token
 * changes (use-jobs-worker.ts); the worker reads the session from Dexie itself. A session error the
 * worker meets comes back as plain data (an ApiError does not survive structured cloning) and is
 * handed to the page's error handler as an ApiError again.
 */
import { proxy, releaseProxy, wrap, type Endpoint } from 'comlink';
import { ApiError, type ApiErrorInit } from '../api/api-error';

/** What workers/jobs.worker.ts exposes. */
export interface JobsWorkerApi {
  /** Reads the session and starts polling (again); `baseUrl` is the app's API base (config.json apiBaseUrl). */
  start(baseUrl: string, onStopped: (error: ApiErrorInit | null) => void): Promise<void>;
  /** Polls what is due now. */
  kick(): void;
  stop(): void;
}

/** The plain data of an ApiError, to cross from the worker (null for anything else). */
export function errorInit(e: unknown): ApiErrorInit | null {
  if (!(e instanceof ApiError)) return null;
  return {
    kind: e.kind,
    method: e.method,
    url: e.url,
    status: e.status,
    statusText: e.statusText,
    serverMessage: e.serverMessage,
    key: e.key,
    loginRedirect: e.loginRedirect,
  };
}

export interface JobsWorkerOptions {
  baseUrl: string;
  onSessionError: (error: ApiError) => void;
  /** Tests: another endpoint than a real Worker. */
  start?: () => { endpoint: Endpoint; terminate(): void };
}

function startWorker() {
  const worker = new Worker(new URL('../../workers/jobs.worker.ts', import.meta.url), { type: 'module', name: 'jobs' });
  return { endpoint: worker, terminate: () => worker.terminate() };
}

/** Starts the jobs worker; the returned function ends it. */
export function startJobsWorker(opts: JobsWorkerOptions): () => void {
  const handle = (opts.start ?? startWorker)();
  const api = wrap<JobsWorkerApi>(handle.endpoint);
  void api
    .start(
      opts.baseUrl,
      proxy((init: ApiErrorInit | null) => {
        if (init) opts.onSessionError(new ApiError(init));
      }),
    )
    .catch((e: unknown) => console.warn('Jobs worker did not start', e));
  return () => {
    api[releaseProxy]();
    handle.terminate();
  };
}
