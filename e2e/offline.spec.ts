import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { signIn, waitForPersistedQuery, waitForServiceWorker, withServiceWorker } from './support';

// Every test here is about what the service worker does.
test.use(withServiceWorker);

/** Once the service worker controls the page and the databases are kept: the app opens offline. */
async function expectOpensOffline(page: Page, context: BrowserContext): Promise<void> {
  await waitForServiceWorker(page);
  await waitForPersistedQuery(page, 'databases');
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await expect(page.getByText(/offline/i).first()).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
}

test.describe('installable offline shell', () => {
  test('the manifest is installable: name, standalone, 192 and 512 icons incl. maskable', async ({ request }) => {
    const m = await (await request.get('/manifest.webmanifest')).json();
    expect(m.name).toBeTruthy();
    expect(m.display).toBe('standalone');
    const sizes = m.icons.map((i: { sizes: string }) => i.sizes);
    expect(sizes).toContain('192x192');
    expect(sizes).toContain('512x512');
    expect(m.icons.some((i: { purpose?: string }) => i.purpose?.includes('maskable'))).toBe(true);
    for (const icon of m.icons) expect((await request.get(icon.src)).status()).toBe(200);
  });

  test('after one visit the app opens with the network off', async ({ page, context }) => {
    await signIn(page, 'admin');
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await expectOpensOffline(page, context);
  });

  test('offline after one visit: the English texts (their own chunk, out of the shell) and the lazily loaded notifications panel come from the precache', async ({ page, context }) => {
    await signIn(page, 'user');
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await waitForServiceWorker(page);
    await waitForPersistedQuery(page, 'databases');
    // Every chunk is in the service worker's precache, the English texts' too.
    const precached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    expect(precached.some((u) => /^\/assets\/en-[\w-]{8}\.js$/.test(u))).toBe(true);
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
      await page.getByTestId('header-notifications').click();
      await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('heading', { name: 'Notifications' })).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
  });
});

test.describe('installing the offline shell on a flaky network', () => {
  test('a first install that loses one fetch is tried again, and the app then opens offline', async ({ page, context }) => {
    // The network drops the first fetch of one file of the build (the notifications panel's chunk,
    // which the sign-in page does not load itself): the worker's install fails on it, as it would
    // on a flaky connection, and the browser drops the registration.
    let dropped = 0;
    await context.route(/\/assets\/notifications-panel-[\w-]+\.js/, async (route) => {
      if (dropped === 0) {
        dropped += 1;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await signIn(page, 'admin');
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await expect.poll(() => dropped, { message: 'the install fetched the chunk and lost it' }).toBe(1);
    // The app tries again by itself; no reload, no second visit.
    await expectOpensOffline(page, context);
  });
});
