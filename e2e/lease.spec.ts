import { test, expect } from '@playwright/test';
import { LEASE_BASE_URL, signIn } from './support';

// Against the server whose licences lapse after 3 idle seconds.
test.use({ baseURL: LEASE_BASE_URL });

test('an idle lease that ran out shows the lease-expired modal once, and signing in again carries on', async ({ page }) => {
  await signIn(page, 'user');
  await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
  // The user leaves the tablet idle longer than the lease.
  await page.waitForTimeout(4_500);
  await page.getByRole('button', { name: 'Demo Archive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Session lease expired' });
  await expect(dialog).toBeVisible();
  // Every call the screen had in flight got the same answer: one modal, not a licence-expired page.
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: /licen[cs]e expired/i })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, 'user', '');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Search', exact: true })).toBeVisible();
});
