/**
 * Runs a loop worker (upload, pin) while a user is signed in: started when a token is there, ended at
 * sign-out, restarted for a new token; woken when the connection comes back and through the kick its
 * module's enqueue calls (`setKick`). A session error goes to the app's one error handler. The bridge
 * loads after the first paint (docs/development.md "Budgets").
 */
import { useEffect } from 'react';
import type { ApiError } from '../../api/api-error';
import { handleError } from '../../api/error-handler';
import { onBackOnline } from '../../api/connectivity';
import { httpContext } from '../../api/http';
import { useSession } from '../../session/use-session';

export interface LoopWorkerModule {
  start(opts: { baseUrl: string; onSessionError: (error: ApiError) => void }): { kick(): void; stop(): void };
  setKick(fn: (() => void) | null): void;
}

export function useLoopWorker(load: () => Promise<LoopWorkerModule>): void {
  const token = useSession()?.token ?? null;
  useEffect(() => {
    // No Worker in unit tests' DOM (happy-dom): the tray still shows the records.
    if (!token || typeof Worker === 'undefined') return;
    let handle: { kick(): void; stop(): void } | null = null;
    let setKick: ((fn: (() => void) | null) => void) | null = null;
    let live = true;
    const online = () => handle?.kick();
    void load().then((m) => {
      if (!live) return;
      handle = m.start({ baseUrl: httpContext().baseUrl, onSessionError: (e) => void handleError(e) });
      setKick = m.setKick;
      m.setKick(() => handle?.kick());
    });
    const offOnline = onBackOnline(online);
    return () => {
      live = false;
      offOnline();
      setKick?.(null);
      handle?.stop();
    };
    // `load` is a module-level import function: the worker follows the token only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
}
