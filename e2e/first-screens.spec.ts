import { test, expect, type Page, type Request } from '@playwright/test';
import { DEMO, obtainLicence, signIn } from './support';

/**
 * A first screen asks for each thing once: the same call or file twice at start is time a phone on
 * a slow link waits for nothing (Lighthouse measured /select making its 7 calls twice). Counted from
 * the page's own requests (the service worker's precache is its own, and not counted), until the
 * screen is shown and the network has been quiet for a moment. The tab's icon is the browser's own
 * (Chromium asks for it again when the address changes, as it does when the token leaves it).
 */
function record(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('data:') || r.url().startsWith('blob:')) return;
    if (r.resourceType() === 'other' && new URL(r.url()).pathname.startsWith('/icons/')) return;
    seen.push(r);
  });
  return seen;
}

function twice(requests: readonly Request[]): string[] {
  const count = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.method()} ${r.url()}`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([k, n]) => `${k} (${n} times)`);
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Work an effect starts after the first paint (the drain, the service worker registration).
  await page.waitForTimeout(1_000);
  await page.waitForLoadState('networkidle');
}

test.describe('first screens ask for each thing once', () => {
  test('the sign-in screen, then the database list after signing in', async ({ page }) => {
    const requests = record(page);
    await page.goto('/login');
    await expect(page.getByLabel('User name')).toBeVisible();
    await settle(page);
    expect(twice(requests), 'requests made twice on /login').toEqual([]);

    requests.length = 0;
    await signIn(page, 'user', '');
    await expect(page).toHaveURL(/\/select/);
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await settle(page);
    expect(twice(requests), 'requests made twice on the way to /select').toEqual([]);
  });

  test('the database list opened with a token (a first visit, as Lighthouse opens it)', async ({ page, request }) => {
    const licence = await obtainLicence(request, DEMO.user.user, DEMO.user.password);
    const { Token } = (await licence.json()) as { Token: string };
    const requests = record(page);
    await page.goto(`/select?token=${encodeURIComponent(Token)}`);
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await settle(page);
    expect(twice(requests), 'requests made twice on /select').toEqual([]);
  });
});
