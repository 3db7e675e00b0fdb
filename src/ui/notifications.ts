/**
 * Toast notifications (in memory): added by the error handler and screens, each fading out after
 * NOTIFICATION_FADE_MS (the user-app spec §9). Lasting alerts and job notes live in Dexie `alerts`/`jobs`.
 */
import { useSyncExternalStore } from 'react';
import { NOTIFICATION_FADE_MS } from '../api/constants';

export interface Toast {
  id: number;
  kind: 'error' | 'info' | 'success';
  text: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function notify(kind: Toast['kind'], text: string, fadeMs = NOTIFICATION_FADE_MS): number {
  // The same text twice in a row (e.g. parallel calls failing alike) is shown once.
  const existing = toasts.find((t) => t.text === text && t.kind === kind);
  if (existing) return existing.id;
  const id = nextId++;
  toasts = [...toasts, { id, kind, text }];
  emit();
  if (fadeMs > 0) setTimeout(() => dismiss(id), fadeMs);
  return id;
}

export function dismiss(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/**
 * Forgets every toast: they belong to the signed-in session ("Settings saved." must not follow the
 * user onto the signed-out page). Called when the user signs out.
 */
export function clearToasts(): void {
  if (toasts.length === 0) return;
  toasts = [];
  emit();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}
const snapshot = () => toasts;

export function useToasts(): Toast[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
