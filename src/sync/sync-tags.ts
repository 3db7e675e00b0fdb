/** Names the page (triggers.ts) and the service worker agree on; no window here, the worker imports it. */

/** The Background Sync tag: the browser fires `sync` with it in the service worker when the connection returns. */
export const SYNC_TAG = 'outbox';
/** The service worker's message asking open windows to drain too. */
export const DRAIN_MESSAGE = 'DRAIN_OUTBOX';
/** A window's (or a test's) message asking the service worker to drain now. */
export const DRAIN_REQUEST = 'DRAIN';
