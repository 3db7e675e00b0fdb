/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa injectManifest): keeps the app shell so the app opens with the
 * network off, and nudges the page to send the outbox when the connection returns.
 *
 * - Precache: every file of the build (self.__WB_MANIFEST), old precaches cleaned up.
 * - Navigations to app routes (/select, /view, /results/...) answer the precached index.html; /api/
 *   and /languages/ are never answered with the app page.
 * - Runtime caches, named, with expiry: `languages` (stale-while-revalidate) and `config`
 *   (network first, so a deployment's change lands, the cached copy offline).
 * - API answers are not cached here: the app keeps its data in IndexedDB (Dexie), where it knows
 *   what a page is and when it was fetched.
 * - Updates wait: a new worker is activated only when the page asks (SKIP_WAITING), after the user
 *   chose "reload" and the outbox holds no unsent work.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';

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

self.addEventListener('install', () => {
  // No skipWaiting here: the page decides when an update may take over.
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** Asks every open window to drain the outbox (the drain itself runs in the page, under a Web Lock). */
async function askClientsToDrain(): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: 'DRAIN_OUTBOX' });
}

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  else if (type === 'DRAIN') event.waitUntil(askClientsToDrain());
});

self.addEventListener('sync', (event) => {
  const e = event as SyncEvent;
  if (e.tag === 'outbox') e.waitUntil(askClientsToDrain());
});
