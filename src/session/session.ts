/**
 * The signed-in session: token, licence type and user name. Stored in Dexie settings (key
 * 'session') so it survives reloads and works offline, with an in-memory mirror so the HTTP
 * wrapper and route guards can read it synchronously; React reads it through useSession() (use-session.ts); this module has no React, so workers and
 * the service worker use it too.
 * A token arriving in the address (`token` query parameter on any route, e.g. from /direct) is
 * stored and then removed from the visible address.
 */
import * as z from 'zod/mini';
import { db } from '../db/db';

export const Session = z.object({
  token: z.string().check(z.minLength(1)),
  /** Licence type (1 full, 4 web-only read-only); null until known (token taken from the address). */
  licenceType: z.nullable(z.int()),
  userName: z.nullable(z.string()),
  /** Set by the licence validation: restricted licences are sent back to /select. */
  restricted: z.optional(z.boolean()),
});
export type Session = z.infer<typeof Session>;

const SESSION_KEY = 'session';
let current: Session | null = null;
/** Where the user was sent when the session last ended (licence expired, ...), for route guards. */
let endedTo: string | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function getSession(): Session | null {
  return current;
}

export function getToken(): string | null {
  return current?.token ?? null;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}


/** Reads the stored session into memory (once, at start). */
export async function loadSession(): Promise<Session | null> {
  const rec = await db.settings.get(SESSION_KEY).catch(() => undefined);
  const parsed = Session.safeParse(rec?.value);
  current = parsed.success ? parsed.data : null;
  emit();
  return current;
}

export function getSessionEndTarget(): string | null {
  return endedTo;
}

export async function setSession(s: Session): Promise<void> {
  current = s;
  endedTo = null;
  emit();
  await db.settings.put({ key: SESSION_KEY, value: s }).catch(() => undefined);
}

export async function updateSession(patch: Partial<Session>): Promise<void> {
  if (!current) return;
  await setSession({ ...current, ...patch });
}

export async function clearSession(nextUrl?: string): Promise<void> {
  current = null;
  endedTo = nextUrl ?? null;
  emit();
  await db.settings.delete(SESSION_KEY).catch(() => undefined);
}

/** Splits a token query parameter off an address. `cleanUrl` is path + remaining search + hash. */
export function extractToken(url: string): { token: string | null; cleanUrl: string } {
  const u = new URL(url, 'http://local');
  const token = u.searchParams.get('token');
  if (token === null) return { token: null, cleanUrl: u.pathname + u.search + u.hash };
  u.searchParams.delete('token');
  return { token: token || null, cleanUrl: u.pathname + u.search + u.hash };
}

/**
 * Takes the token from the visible address: stores it as the session (keeping what is known of the
 * licence when it is the same token) and replaces the address without it. Returns the token found.
 */
/** The parts of a window captureTokenFromAddress uses, typed without the DOM lib so workers compile this module. */
export interface AddressWindow {
  location: { href: string; search: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url?: string | null): void };
}

export async function captureTokenFromAddress(win: AddressWindow = (globalThis as unknown as { window: AddressWindow }).window): Promise<string | null> {
  const { token, cleanUrl } = extractToken(win.location.href);
  if (!win.location.search.includes('token=')) return null;
  win.history.replaceState(win.history.state, '', cleanUrl);
  if (!token) return null;
  if (current?.token !== token) await setSession({ token, licenceType: null, userName: null });
  return token;
}

/**
 * What cached server data is keyed by: the user, never the token. A token changes at every sign-in
 * (and must not be persisted in the query cache); the user's data stays readable offline across
 * sign-ins. Null when nobody is signed in.
 */
export function sessionScope(s: Session | null): string | null {
  if (!s) return null;
  return s.userName ?? 'session';
}

/** For tests. */
export function resetSessionForTests(): void {
  current = null;
  endedTo = null;
  listeners.clear();
}
