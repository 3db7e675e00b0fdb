/**
 * Runs the jobs worker while a user is signed in (mounted once, by the notifications tray in the
 * signed-in header): started when a token is there, ended at sign-out, restarted for a new token
 * (another sign-in reads its own session). A session error from the worker goes to the app's one
 * error handler, which signs the user in again. The bridge (and Comlink) load after the first
 * screen, like the outbox triggers (docs/development.md "Budgets").
 */
import { useEffect } from 'react';
import { handleError } from '../../api/error-handler';
import { httpContext } from '../../api/http';
import { useSession } from '../../session/use-session';

export function useJobsWorker(): void {
  const token = useSession()?.token ?? null;
  useEffect(() => {
    // No Worker in unit tests' DOM (happy-dom): the tray still shows the records.
    if (!token || typeof Worker === 'undefined') return;
    let stop: (() => void) | null = null;
    let live = true;
    void import('../jobs-bridge').then(({ startJobsWorker }) => {
      if (!live) return;
      stop = startJobsWorker({
        baseUrl: httpContext().baseUrl,
        onSessionError: (e) => void handleError(e),
      });
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [token]);
}
