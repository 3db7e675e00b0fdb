/**
 * Registers the service worker (production builds only) and tracks whether an update is waiting.
 * The update is applied only when the user asks ("Update available - reload") and only while the
 * outbox holds no unsent work: a reload mid-send must not strand a change (STYLE.md).
 */
import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';
import { db } from '../db/db';

interface UpdateState {
  updateAvailable: boolean;
  /** The user asked to reload but the outbox still holds unsent work. */
  blockedByOutbox: boolean;
}

let state: UpdateState = { updateAvailable: false, blockedByOutbox: false };
let wb: Workbox | null = null;
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
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  wb = new Workbox('/service-worker.js', { type: 'module', scope: '/' });
  wb.addEventListener('waiting', () => setState({ updateAvailable: true }));
  void wb.register().catch((err: unknown) => console.warn('Service worker registration failed', err));
}

/** Unsent outbox entries: queued, or left "sending" by a drain that may not have finished. */
export function countUnsent(): Promise<number> {
  return db.outbox.where('state').anyOf('queued', 'sending').count();
}

/** Activates the waiting service worker and reloads once it controls the page. */
export async function applyUpdate(): Promise<boolean> {
  if (!wb) return false;
  if ((await countUnsent()) > 0) {
    setState({ blockedByOutbox: true });
    return false;
  }
  wb.addEventListener('controlling', () => window.location.reload());
  wb.messageSkipWaiting();
  return true;
}

export function useUpdateAvailable(): { updateAvailable: boolean; blockedByOutbox: boolean; reload: () => void } {
  const s = useSyncExternalStore(subscribe, () => state, () => state);
  return { ...s, reload: () => void applyUpdate() };
}
