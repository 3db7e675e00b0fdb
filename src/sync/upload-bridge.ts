/**
 * The page's one way into the upload worker (workers/upload.worker.ts; STYLE.md: one Comlink bridge
 * per worker), started while a user is signed in (react/use-uploads.ts). A session error the
 * worker meets comes back as plain data and is handed to the page's error handler as an ApiError.
 * The pin worker (workers/pin.worker.ts) has the same shape: startLoopWorker serves both.
 */
import { proxy, releaseProxy, wrap, type Endpoint } from 'comlink';
import { ApiError, type ApiErrorInit } from '../api/api-error';

/** What workers/upload.worker.ts and workers/pin.worker.ts expose. */
export interface LoopWorkerApi {
  start(baseUrl: string, onStopped: (error: ApiErrorInit | null) => void): Promise<void>;
  /** Work waiting uploads now (the connection is back, or a new upload was queued). */
  kick(): void;
  stop(): void;
}
export type UploadWorkerApi = LoopWorkerApi;

export interface UploadWorkerOptions {
  baseUrl: string;
  onSessionError: (error: ApiError) => void;
  /** Tests: another endpoint than a real Worker. */
  start?: () => { endpoint: Endpoint; terminate(): void };
}

function startWorker() {
  const worker = new Worker(new URL('../../workers/upload.worker.ts', import.meta.url), { type: 'module', name: 'upload' });
  return { endpoint: worker, terminate: () => worker.terminate() };
}

/** Starts the upload worker; `kick` wakes it, `stop` ends it. */
export function startUploadWorker(opts: UploadWorkerOptions): { kick(): void; stop(): void } {
  return startLoopWorker(opts.start ?? startWorker, opts);
}

/** Starts a loop worker (upload, pin) from `start`; `kick` wakes it, `stop` ends it. */
export function startLoopWorker(start: () => { endpoint: Endpoint; terminate(): void }, opts: Omit<UploadWorkerOptions, 'start'>): { kick(): void; stop(): void } {
  const handle = start();
  const api = wrap<LoopWorkerApi>(handle.endpoint);
  void api
    .start(
      opts.baseUrl,
      proxy((init: ApiErrorInit | null) => {
        if (init) opts.onSessionError(new ApiError(init));
      }),
    )
    .catch((e: unknown) => console.warn('A worker did not start', e));
  return {
    kick: () => void api.kick().catch(() => undefined),
    stop: () => {
      api[releaseProxy]();
      handle.terminate();
    },
  };
}
