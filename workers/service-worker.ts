/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa injectManifest): keeps the app shell so the app opens with the
 * network off, and sends the outbox itself when the connection returns, with no window open too.
 *
 * - Precache: every file of the build (self.__WB_MANIFEST), old precaches cleaned up.
 * - Navigations to app routes (/select, /view, /results/...) answer the precached index.html; /api/
 *   and /languages/ are never answered with the app page.
 * - Runtime caches, named, with expiry: `languages` (stale-while-revalidate) and `config`
 *   (network first, so a deployment's change lands, the cached copy offline).
 * - `ocr` (cache first): the device's OCR engine and English data under /tesseract/ (~14 MB, not
 *   precached: put there when a document is kept offline, or when a device first reads a page itself).
 * - API answers are not cached here: the app keeps its data in IndexedDB (Dexie), where it knows
 *   what a page is and when it was fetched.
 * - Updates wait: a new worker is activated only when the page asks (SKIP_WAITING), after the user
 *   chose "reload" and the outbox holds no unsent work.
 * - The outbox: on Background Sync's `sync` event (tag 'outbox', fired when the connection returns)
 *   and on a DRAIN message, this worker runs the same drain as the page (src/sync/drain.ts) under the
 *   same Web Lock, with the token of the stored session, so a change queued in a tab that was closed
 *   since is sent all the same. Open windows are asked to drain too (they share the lock, so nothing
 *   goes twice, and their triggers then pick up what follows). No React and no i18next here: the
 *   imports below are the plain modules (eslint.config.js keeps it so).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { configureHttp } from '../src/api/http';
import { DEVICE_OCR_CACHE } from '../src/api/words';
import { db } from '../src/db/db';
import { getToken, loadSession } from '../src/session/session';
import { drain } from '../src/sync/drain';
import { DRAIN_MESSAGE, DRAIN_REQUEST, SYNC_TAG } from '../src/sync/sync-tags';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Background Sync events (not in TypeScript's webworker lib). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/languages\//, /\/[^/?]+\.[^/?]+$/],
  }),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/languages/'),
  new StaleWhileRevalidate({
    cacheName: 'languages',
    plugins: [new ExpirationPlugin({ maxEntries: 20, maxAgeSeconds: 30 * 24 * 60 * 60 })],
  }),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/config.json',
  new NetworkFirst({
    cacheName: 'config',
    networkTimeoutSeconds: 3,
    plugins: [new ExpirationPlugin({ maxEntries: 1, maxAgeSeconds: 365 * 24 * 60 * 60 })],
  }),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/tesseract/'),
  new CacheFirst({
    cacheName: DEVICE_OCR_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 10, maxAgeSeconds: 365 * 24 * 60 * 60 })],
  }),
);

self.addEventListener('install', () => {
  // No skipWaiting here: the page decides when an update may take over.
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** Asks every open window to drain the outbox too (they share the lock: nothing is sent twice). */
async function askClientsToDrain(): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: DRAIN_MESSAGE });
}

/**
 * The API's base URL as the app has it: config.json's `apiBaseUrl`, whose last good copy the app keeps
 * in Dexie settings ('config', src/app/config.ts); empty (this origin) when there is none.
 */
async function apiBaseUrl(): Promise<string> {
  const stored = (await db.settings.get('config').catch(() => undefined))?.value as { apiBaseUrl?: unknown } | undefined;
  return typeof stored?.apiBaseUrl === 'string' ? stored.apiBaseUrl : '';
}

/**
 * Sends the outbox from here. The session and the base URL are read again each time: the user may
 * have signed in, out or as someone else in a tab since this worker started. Throws while entries
 * still wait for the network or the server, so the browser fires `sync` again later (it backs off).
 */
async function drainHere(): Promise<void> {
  const [, base] = await Promise.all([loadSession(), apiBaseUrl()]);
  configureHttp({ baseUrl: () => base || self.location.origin, token: getToken });
  // A session error (expired licence, ...) is the page's to show: the entries stay queued until then.
  const r = await drain({ force: true, onSessionError: () => undefined });
  if (r.retry > 0) throw new Error(`outbox: ${r.retry} entries wait for the server`);
}

function drainAll(): Promise<unknown> {
  return Promise.all([drainHere(), askClientsToDrain()]);
}

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  else if (type === DRAIN_REQUEST) event.waitUntil(drainAll().catch((e: unknown) => console.warn('Outbox drain (service worker) failed', e)));
});

self.addEventListener('sync', (event) => {
  const e = event as SyncEvent;
  if (e.tag === SYNC_TAG) e.waitUntil(drainAll());
});
