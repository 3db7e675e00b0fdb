import { test, expect } from '@playwright/test';
import { signIn, waitForPersistedQuery, waitForServiceWorker } from './support';

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
  });
});
