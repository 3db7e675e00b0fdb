/**
 * Whether the server can be reached, as the app acts on it: the browser says it is online AND the
 * last call did not fail for want of a connection. `navigator.onLine` alone says yes on a network
 * that goes nowhere (a captive portal, a dead Wi-Fi, a tunnel; also Chromium after a reload with
 * its network emulated off), so every call through apiRequest reports here: a network failure
 * makes the app offline (the indicator shows, TanStack Query pauses, screens use what is kept),
 * any answer at all makes it online again. While offline with the browser claiming a network, a
 * probe (configured at start) asks the server now and then, so the app notices the way back
 * without the user doing anything; the 'online' event counts as a way back too.
 *
 * Listeners: subscribeOnline on every change (React's useSyncExternalStore, TanStack's
 * onlineManager), onBackOnline when offline turns online (the outbox and the upload loop go at once).
 */
let reachable = true;
let last = true;
const changed = new Set<() => void>();
const back = new Set<() => void>();
let probe: (() => Promise<boolean>) | null = null;
let probeTimer: ReturnType<typeof setTimeout> | undefined;
let probeDelay = 0;
const PROBE_FIRST_MS = 2_000;
const PROBE_MAX_MS = 15_000;

/** The page's (or a worker's) navigator and window, typed here: src/api is also compiled without the DOM. */
type EventHost = { addEventListener(type: string, listener: () => void): void };
const host = globalThis as { navigator?: { onLine?: boolean }; window?: EventHost };
const browserOnline = (): boolean => host.navigator?.onLine !== false;

export function isOnline(): boolean {
  return browserOnline() && reachable;
}

function settle(): void {
  const now = isOnline();
  if (now !== last) {
    last = now;
    for (const l of [...changed]) l();
    if (now) for (const l of [...back]) l();
  }
  scheduleProbe();
}

function scheduleProbe(): void {
  if (reachable || !probe || !browserOnline()) {
    clearTimeout(probeTimer);
    probeTimer = undefined;
    probeDelay = 0;
    return;
  }
  if (probeTimer !== undefined) return;
  probeDelay = probeDelay === 0 ? PROBE_FIRST_MS : Math.min(PROBE_MAX_MS, probeDelay * 2);
  probeTimer = setTimeout(() => {
    probeTimer = undefined;
    const ask = probe;
    if (!ask || reachable) return;
    void ask().then(
      (ok) => (ok ? noteReachable(true) : scheduleProbe()),
      () => scheduleProbe(),
    );
  }, probeDelay);
}

/** A call's outcome: false when it failed for want of a connection, true when any answer came. */
export function noteReachable(ok: boolean): void {
  if (ok === reachable) return;
  reachable = ok;
  settle();
}

export function subscribeOnline(listener: () => void): () => void {
  changed.add(listener);
  return () => void changed.delete(listener);
}

export function onBackOnline(listener: () => void): () => void {
  back.add(listener);
  return () => void back.delete(listener);
}

/** At start, in the page: how to ask the server whether it answers (any answer counts). */
export function configureConnectivity(c: { probe: () => Promise<boolean> }): void {
  probe = c.probe;
  scheduleProbe();
}

const win = host.window;
if (win && typeof win.addEventListener === 'function') {
  // The browser's word: going offline is believed at once; coming back is tried (a call that
  // fails makes it offline again).
  win.addEventListener('online', () => {
    reachable = true;
    settle();
  });
  win.addEventListener('offline', () => settle());
}

/** For tests: back to the start (reachable, nothing listening, no probe). */
export function resetConnectivity(): void {
  reachable = true;
  last = isOnline();
  changed.clear();
  back.clear();
  probe = null;
  clearTimeout(probeTimer);
  probeTimer = undefined;
  probeDelay = 0;
}
