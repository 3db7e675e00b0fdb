/**
 * Registers the service worker (production builds only) and tracks whether an update is waiting.
 * The update is applied only when the user asks ("Update available - reload") and only while the
 * outbox holds no unsent work: a reload mid-send must not strand a change (STYLE.md).
 * The first screen does not need the service worker: the app calls registerServiceWorker after its
 * first paint, and workbox-window is loaded then (docs/development.md "Budgets").
 */
import { useSyncExternalStore } from 'react';
import { liveQuery, type Subscription } from 'dexie';
import type { Workbox } from 'workbox-window';
import { db } from '../db/db';

interface UpdateState {
  updateAvailable: boolean;
  /** The user asked to reload but the outbox still holds unsent work. */
  blockedByOutbox: boolean;
}

let state: UpdateState = { updateAvailable: false, blockedByOutbox: false };
let wb: Workbox | null = null;
let registering = false;
const listeners = new Set<() => void>();

function setState(patch: Partial<UpdateState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator) || registering) return;
  registering = true;
  installWithRetry({
    register: async () => {
      const { Workbox } = await import('workbox-window');
      const next = new Workbox('/service-worker.js', { type: 'module', scope: '/' });
      next.addEventListener('waiting', () => setState({ updateAvailable: true }));
      wb = next;
      const registration = await next.register();
      if (!registration) throw new Error('The service worker was not registered');
      return registration;
    },
    onOnline: (fn) => {
      window.addEventListener('online', fn);
      return () => window.removeEventListener('online', fn);
    },
    onFailure: (err) => console.warn('Service worker installation failed; trying again later', err),
  });
}

/** Waits between tries after the first install failed; the last is repeated. */
export const INSTALL_RETRY_DELAYS_MS = [2_000, 10_000, 30_000, 60_000] as const;

export interface InstallDeps {
  /** Registers the worker (a new registration, or the one already there). */
  register: () => Promise<ServiceWorkerRegistration>;
  /** Calls fn whenever the device comes back online; returns the unsubscribe. */
  onOnline: (fn: () => void) => () => void;
  onFailure?: (err: unknown) => void;
  delays?: readonly number[];
}

/**
 * Installs the service worker, and tries again until one is active. The first install fetches the
 * whole build (about 100 files): on a flaky network one failed fetch fails the install, the browser
 * drops the registration, and without another try the app would not open offline until some later
 * visit. So a failed register or install is tried again after a growing wait, and at once when the
 * device comes back online. Returns a stop function (for tests).
 */
export function installWithRetry(deps: InstallDeps): () => void {
  const delays = deps.delays ?? INSTALL_RETRY_DELAYS_MS;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let done = false;
  const stop = () => {
    done = true;
    clearTimeout(timer);
    unsubscribe();
  };
  const attempt = async () => {
    clearTimeout(timer);
    if (running || done) return;
    running = true;
    try {
      if ((await installOutcome(await deps.register())) === 'active') return stop();
      throw new Error('The service worker failed to install');
    } catch (err) {
      deps.onFailure?.(err);
      failures += 1;
      if (!done) timer = setTimeout(() => void attempt(), delays[Math.min(failures, delays.length) - 1]);
    } finally {
      running = false;
    }
  };
  const unsubscribe = deps.onOnline(() => void attempt());
  void attempt();
  return stop;
}

/**
 * Resolves 'active' once the registration has a worker that is (or is becoming) active, 'failed' when
 * the one installing turns redundant with none to take its place.
 */
export function installOutcome(registration: ServiceWorkerRegistration): Promise<'active' | 'failed'> {
  return new Promise((resolve) => {
    const track = (): void => {
      if (registration.active) return resolve('active');
      const worker = registration.installing ?? registration.waiting;
      if (!worker || worker.state === 'redundant') return resolve('failed');
      const onChange = () => {
        if (worker.state === 'activating' || worker.state === 'activated') {
          worker.removeEventListener('statechange', onChange);
          resolve('active');
        } else if (worker.state === 'redundant') {
          worker.removeEventListener('statechange', onChange);
          // A newer worker may have replaced this one: follow it.
          track();
        }
      };
      worker.addEventListener('statechange', onChange);
      onChange();
    };
    track();
  });
}

/** Unsent outbox entries: queued, or left "sending" by a drain that may not have finished. */
export function countUnsent(): Promise<number> {
  return db.outbox.where('state').anyOf('queued', 'sending').count();
}

type UpdateTarget = Pick<Workbox, 'addEventListener' | 'messageSkipWaiting'>;
let waitingForOutbox: Subscription | null = null;

/**
 * Activates the waiting service worker and reloads once it controls the page. While the outbox holds
 * unsent work the update waits (blockedByOutbox) and goes ahead by itself once the outbox is empty:
 * the user already asked for it.
 */
export async function applyUpdate(target: UpdateTarget | null = wb): Promise<boolean> {
  if (!target) return false;
  if ((await countUnsent()) > 0) {
    setState({ blockedByOutbox: true });
    if (!waitingForOutbox) {
      waitingForOutbox = liveQuery(countUnsent).subscribe({
        next: (n) => {
          if (n > 0) return;
          waitingForOutbox?.unsubscribe();
          waitingForOutbox = null;
          void applyUpdate(target);
        },
        error: () => {
          waitingForOutbox = null;
        },
      });
    }
    return false;
  }
  setState({ blockedByOutbox: false });
  target.addEventListener('controlling', () => window.location.reload());
  target.messageSkipWaiting();
  return true;
}

/** The current state, for tests. */
export const getUpdateState = (): Readonly<UpdateState> => state;

export function useUpdateAvailable(): { updateAvailable: boolean; blockedByOutbox: boolean; reload: () => void } {
  const s = useSyncExternalStore(subscribe, () => state, () => state);
  return { ...s, reload: () => void applyUpdate() };
}
