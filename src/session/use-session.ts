/** The signed-in session for components: re-renders when it changes (session.ts is the store). */
import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from './session';

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
