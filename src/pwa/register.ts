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
  const register = async () => {
    const { Workbox } = await import('workbox-window');
    wb = new Workbox('/service-worker.js', { type: 'module', scope: '/' });
    wb.addEventListener('waiting', () => setState({ updateAvailable: true }));
    await wb.register();
  };
  register().catch((err: unknown) => console.warn('Service worker registration failed', err));
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
