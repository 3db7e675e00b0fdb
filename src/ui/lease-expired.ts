/**
 * The lease-expired modal's state (the user-app spec §4: status 402 shows it once). Once shown, further
 * 402 answers do nothing until the user dismisses it or signs in again (resetLeaseExpired).
 */
import { useSyncExternalStore } from 'react';

let state: 'hidden' | 'shown' | 'dismissed' = 'hidden';
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function showLeaseExpired(): void {
  if (state !== 'hidden') return;
  state = 'shown';
  emit();
}
export function dismissLeaseExpired(): void {
  state = 'dismissed';
  emit();
}
/** After signing in again: the next 402 shows the modal again. */
export function resetLeaseExpired(): void {
  state = 'hidden';
  emit();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => state === 'shown';
export function useLeaseExpiredShown(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
