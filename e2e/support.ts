import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export const DEMO = {
  admin: { user: 'admin', password: 'admin' },
  user: { user: 'user', password: 'user' },
  viewer: { user: 'viewer', password: 'viewer' },
  kiosk: { user: 'kiosk', password: 'kiosk' },
  /** Full licence; may copy documents but not move or delete them (no bits 8 and 131072). */
  clerk: { user: 'clerk', password: 'clerk' },
} as const;

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Obtains a licence through the API, as a second device of the same user would. */
export async function obtainLicence(request: APIRequestContext, user: string, password: string) {
  const res = await request.get('/api/licenses', { headers: { Authorization: basic(user, password) } });
  return res;
}

/** Signs in through the login page and returns the token the server issued (read off the network). */
export async function signIn(page: Page, who: keyof typeof DEMO, startAt = '/login'): Promise<string> {
  const { user, password } = DEMO[who];
  if (startAt) await page.goto(startAt);
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const licence = page.waitForResponse((r) => r.url().includes('/api/licenses') && r.request().method() === 'GET' && r.status() === 200);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const body = (await (await licence).json()) as { Token: string };
  expect(body.Token).toBeTruthy();
  // Signed in once the app has stored the session and left the sign-in page (it first drops what the
  // device kept for another user): a test that navigated as soon as the licence arrived could reach
  // a page before the session was stored, and be sent back to sign in.
  await page.waitForURL((u) => u.pathname !== '/login');
  return body.Token;
}

/** Whether a click at the centre of `el` lands on it (nothing drawn over it). */
export const onTop = (el: Locator): Promise<boolean> =>
  el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === node || node.contains(hit));
  });

/**
 * Browser contexts start without the app's service worker (playwright.config.ts): installing it
 * precaches the whole build (about 120 files) into a fresh profile in every test, and the tests whose
 * subject is not offline work paid that for nothing (a measured 14 % of a test's time). A test whose
 * subject needs the worker (opening offline, the outbox sent by Background Sync with no page open,
 * files kept on the device) opts in in its describe: `test.use(withServiceWorker)`.
 */
export const withServiceWorker = { serviceWorkers: 'allow' } as const;

/**
 * Waits until the service worker controls the page (the app then opens offline). Bounded: on a
 * fresh profile the worker first precaches the whole build, and an unbounded wait on a busy machine
 * ate a test's whole budget instead of failing here with its name.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  try {
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000, message: 'the service worker controls the page' })
      .toBe(true);
  } catch (err) {
    // Say where the worker got to (none registered, installing, waiting, active), so that a failure
    // names its cause rather than a timeout alone.
    const state = await page
      .evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        if (!r) return 'no registration';
        return JSON.stringify({ installing: r.installing?.state, waiting: r.waiting?.state, active: r.active?.state });
      })
      .catch((e: unknown) => `unreadable (${String(e)})`);
    throw new Error(`${(err as Error).message}\nService worker registration: ${state}`);
  }
}

/** Waits until the persisted query cache (Dexie `queryCache`) holds one query whose JSON has every `needle`. */
export async function waitForPersistedCache(page: Page, needles: string[]): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (all) => {
          const open = indexedDB.open('archive-app');
          const handle = await new Promise<IDBDatabase>((resolve, reject) => {
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          try {
            const rows = await new Promise<{ value: string }[]>((resolve) => {
              const q = handle.transaction('queryCache').objectStore('queryCache').getAll();
              q.onsuccess = () => resolve(q.result as { value: string }[]);
            });
            return rows.some((r) => all.every((n) => r.value.includes(n)));
          } finally {
            handle.close();
          }
        }, needles),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Waits until the persisted query cache holds a query whose key starts with `prefix`. */
export function waitForPersistedQuery(page: Page, prefix: string): Promise<void> {
  return waitForPersistedCache(page, [`"queryKey":["${prefix}"`]);
}

/** The second test server, whose licences have a 3-second idle lease (playwright.config.ts). */
export const LEASE_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 1}`;
