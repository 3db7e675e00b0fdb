/**
 * When the page drains the outbox (docs/architecture.md): at start, when the server can be reached again
 * (src/api/connectivity.ts: the `online` event, or a probe after calls failed; retry times ignored), when
 * the page becomes visible, when the service worker asks (its `sync` event drains there and posts
 * DRAIN_OUTBOX), after each enqueue or user decision, when a token arrives (sign-in), and when the
 * earliest retry time is reached. Background Sync is registered where the browser has it, so the
 * service worker sends the outbox when the connection returns, also with no window open; the page
 * keeps its own triggers because a pending sync retry makes `sync.register()` a no-op for minutes
 * (ENVIRONMENT.md). This module is the page's (window, document); the drain itself is not.
 */
import { onBackOnline } from '../api/connectivity';
import { getToken, subscribeSession } from '../session/session';
import { drain, type DrainOptions, type DrainResult } from './drain';
import { onEnqueue } from './outbox';
import { DRAIN_MESSAGE, SYNC_TAG } from './sync-tags';

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

async function registerBackgroundSync(): Promise<void> {
  const sw = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!sw) return;
  const reg = (await sw.ready) as ServiceWorkerRegistration & SyncRegistration;
  await reg.sync?.register(SYNC_TAG);
}

let stopCurrent: (() => void) | null = null;

/** Starts the triggers (once; a second call returns the same stop function). */
export function startOutboxTriggers(opts: Omit<DrainOptions, 'force'> = {}): () => void {
  if (stopCurrent) return stopCurrent;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const run = (force = false) => {
    if (stopped) return;
    void drain({ ...opts, force })
      .then((r: DrainResult) => {
        if (stopped) return;
        if (timer) clearTimeout(timer);
        timer = undefined;
        if (r.nextAttemptAt !== null) timer = setTimeout(() => run(), Math.max(0, r.nextAttemptAt - Date.now()) + 50);
        if (r.retry > 0) void registerBackgroundSync().catch(() => undefined);
      })
      .catch((e: unknown) => console.warn('Outbox drain failed', e));
  };

  const onOnline = () => run(true);
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  const onMessage = (e: MessageEvent) => {
    if ((e.data as { type?: unknown } | null)?.type === DRAIN_MESSAGE) run();
  };
  let lastToken: string | null = (opts.token ?? getToken)();
  const offSession = subscribeSession(() => {
    const t = (opts.token ?? getToken)();
    if (t !== lastToken) {
      lastToken = t;
      run();
    }
  });
  const offEnqueue = onEnqueue(() => {
    run();
    void registerBackgroundSync().catch(() => undefined);
  });
  const offOnline = onBackOnline(onOnline);
  document.addEventListener('visibilitychange', onVisible);
  navigator.serviceWorker?.addEventListener('message', onMessage);
  run();

  stopCurrent = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    offSession();
    offEnqueue();
    offOnline();
    document.removeEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.removeEventListener('message', onMessage);
    stopCurrent = null;
  };
  return stopCurrent;
}
