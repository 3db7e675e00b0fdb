/**
 * A user signs in on this device (the sign-in page, or a link's token once its user is known): what
 * the device kept for someone else goes, so the next person on a shared tablet sees none of it: the
 * cached answers of the session before when it was another user's, and the documents other users
 * kept offline (kept per user: src/sync/pins.ts). Their unsent changes, jobs and uploads stay: those
 * are sent only under their own name when they sign in again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Session } from '../session/session';

export function forgetOtherUsers(queryClient: QueryClient, previous: Session | null, userName: string): void {
  if (previous && previous.userName !== userName) queryClient.clear();
  // A sign-out in between left no session to compare with: the kept documents say whose they are.
  // In the background: they are keyed by user, so none of them shows meanwhile; loaded here, not
  // with the sign-in page (its first screen stays small), and the sign-in does not wait for it.
  void import('../sync/pins').then((p) => p.dropOtherUsersPins(userName)).catch(() => 0);
}
