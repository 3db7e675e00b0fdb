/**
 * The page's one way into the pin worker (workers/pin.worker.ts), started while a user is signed in
 * (react/use-pins.ts); the same bridge as the upload worker's (upload-bridge.ts startLoopWorker).
 */
import type { ApiError } from '../api/api-error';
import { startLoopWorker } from './upload-bridge';

export function startPinWorker(opts: { baseUrl: string; onSessionError: (error: ApiError) => void }): { kick(): void; stop(): void } {
  return startLoopWorker(() => {
    const worker = new Worker(new URL('../../workers/pin.worker.ts', import.meta.url), { type: 'module', name: 'pin' });
    return { endpoint: worker, terminate: () => worker.terminate() };
  }, opts);
}
