import { test, expect } from '@playwright/test';
import { signIn } from './support';

test.describe('/direct and the token in the address', () => {
  test('op=1 without a session signs in, obtains a licence and opens /view without the token in the address', async ({ page }) => {
    await page.goto('/direct?op=1&db=1');
    await expect(page).toHaveURL(/\/login/);
    const token = await signIn(page, 'user', '');
    await expect(page).toHaveURL(/\/view\?db=1/);
    await page.waitForLoadState('networkidle');
    expect(page.url()).not.toContain('token=');
    expect(page.url()).not.toContain(token);
  });

  test('a token given in the address is used, then removed from it', async ({ page, request }) => {
    const res = await request.get('/api/licenses', { headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
    const { Token } = await res.json();
    await page.goto(`/select?token=${encodeURIComponent(Token)}`);
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    expect(page.url()).not.toContain('token=');
    const history = await page.evaluate(() => window.location.href);
    expect(history).not.toContain(Token);
  });

  test('op=2 shows the licence-expired page with a way to sign in again', async ({ page }) => {
    await page.goto('/direct?op=2');
    await expect(page.getByRole('heading', { name: /licen[cs]e expired/i })).toBeVisible();
    await page.getByRole('button', { name: /sign in again/i }).click();
    await expect(page).toHaveURL(/\/login/);
  });

  test('a licence that ends while the app is in use leads to the licence-expired page', async ({ page, request }) => {
    const token = await signIn(page, 'admin');
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    // The licence is released elsewhere (another tab logging out, or the licence manager).
    const r = await request.delete(`/api/licenses/${encodeURIComponent(token)}?token=${encodeURIComponent(token)}`);
    expect(r.status()).toBe(204);
    // The next thing the user does finds the licence gone, unless one of the app's own calls in the
    // background found it first and the page has already moved on: either way it ends there.
    const choice = page.getByRole('button', { name: 'Demo Archive' });
    const expired = page.getByRole('heading', { name: /licen[cs]e expired/i });
    await expect(choice.or(expired)).toBeVisible();
    await choice.click({ timeout: 5_000 }).catch(() => undefined);
    await expect(expired).toBeVisible();
  });
});
