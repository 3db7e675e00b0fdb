/**
 * A user signs in on this device (the sign-in page, or a link's token once its user is known): what
 * the device kept for someone else goes, so the next person on a shared tablet sees none of it: the
 * cached answers and grid pages of another user, and the documents other users kept offline (kept per
 * user: src/sync/pins.ts). Their unsent changes, jobs and uploads stay: those are sent only under
 * their own name when they sign in again. Dexie settings 'deviceUser' holds who signed in last, so a
 * sign-out in between (no session left to compare with) does not let the last user's pages through.
 */
import type { QueryClient } from '@tanstack/react-query';
import { db } from '../db/db';
import { adminRightsQueryOptions, getAdminRights } from '../features/admin-rights/api/get-admin-rights';
import { getSession, getToken, sessionScope, updateSession, type Session } from '../session/session';

const DEVICE_USER = 'deviceUser';

export async function forgetOtherUsers(queryClient: QueryClient, previous: Session | null, userName: string): Promise<void> {
  const last = (await db.settings.get(DEVICE_USER).catch(() => undefined))?.value;
  const someoneElse = (previous !== null && previous.userName !== userName) || (typeof last === 'string' && last !== userName);
  if (someoneElse) {
    queryClient.clear();
    // The grid's pages are not keyed by user (src/features/results/page-cache.ts).
    await db.pages.clear().catch(() => undefined);
  }
  await db.settings.put({ key: DEVICE_USER, value: userName }).catch(() => undefined);
  // The kept documents say whose they are, and are keyed by user (none shows meanwhile): dropped in
  // the background, loaded here rather than with the sign-in page (its first screen stays small).
  void import('../sync/pins').then((p) => p.dropOtherUsersPins(userName)).catch(() => 0);
}

/**
 * A session taken from a token (in the address at start, or arriving in the app) is named after the
 * token's user as a sign-in names it: another user's data goes first (forgetOtherUsers), then the
 * name, and the rights that said it are kept under it for the header, so the first screen asks
 * nothing twice. Unanswered (offline, a refused token): the header names it later, or the error
 * handler acts.
 */
export async function nameTokenSession(queryClient: QueryClient, previous: Session | null): Promise<void> {
  const rights = await getAdminRights().catch(() => null);
  if (!rights || getToken() === null) return;
  await forgetOtherUsers(queryClient, previous, rights.user.Name);
  await updateSession({ userName: rights.user.Name });
  queryClient.setQueryData(adminRightsQueryOptions(sessionScope(getSession())).queryKey, rights);
}
