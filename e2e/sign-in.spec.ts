import { test, expect } from '@playwright/test';
import { signIn } from './support';

test.describe('sign-in and the database list', () => {
  test('admin signs in, sees both databases and the administrator buttons', async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page).toHaveURL(/\/select/);
    await expect(page.getByRole('button', { name: 'Demo Archive' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Records' })).toBeVisible();
    const menu = page.getByRole('button', { name: 'Administration' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(page.getByRole('button', { name: 'Full administration' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Licence manager' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Full administration' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeEnabled();
  });

  test('an ordinary user has no administrator buttons', async ({ page }) => {
    await signIn(page, 'user');
    await expect(page).toHaveURL(/\/select/);
    await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Administration' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Full administration' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Licence manager' })).toHaveCount(0);
  });

  test('the read-only viewer, with one database, has it opened for them', async ({ page }) => {
    await signIn(page, 'viewer');
    // One database: selected automatically (the user-app spec §3), straight to its search screen.
    await expect(page).toHaveURL(/\/view\?db=1$/);
    await expect(page.getByText('Database: Demo Archive')).toBeVisible();
    await expect(page.getByText('Read-only licence')).toBeVisible();
  });

  test('a wrong password says so and stays on the login page', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText(/invalid user name or password/i);
    await expect(page).toHaveURL(/\/login/);
  });

  test('kiosk signed in elsewhere: all licences in use is shown', async ({ page, request }) => {
    const held = await request.get('/api/licenses', { headers: { Authorization: `Basic ${Buffer.from('kiosk:kiosk').toString('base64')}` } });
    expect(held.status()).toBe(200);
    const { Token } = await held.json();
    try {
      await page.goto('/login');
      await page.getByLabel('User name').fill('kiosk');
      await page.getByLabel('Password', { exact: true }).fill('kiosk');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toContainText(/all licenses are in use/i);
    } finally {
      await request.delete(`/api/licenses/${encodeURIComponent(Token)}?token=${encodeURIComponent(Token)}`);
    }
  });

  test('the chosen database is remembered and restored; unknown routes land on /select', async ({ page }) => {
    await signIn(page, 'admin');
    await page.getByRole('button', { name: 'Records' }).click();
    await expect(page).toHaveURL(/\/view\?db=\d+/);
    const db = new URL(page.url()).searchParams.get('db');
    await page.goto('/no-such-screen');
    await expect(page).toHaveURL(/\/select/);
    await expect(page.getByRole('button', { name: 'Records' })).toHaveAttribute('aria-current', 'true');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Records' })).toHaveAttribute('aria-current', 'true');
    expect(db).toBeTruthy();
  });

  test('logging out releases the licence and thanks the user', async ({ page, request }) => {
    const token = await signIn(page, 'user');
    await expect(page).toHaveURL(/\/select/);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByText(/thank you/i)).toBeVisible();
    const after = await request.get(`/api/dbs?token=${encodeURIComponent(token)}`);
    expect(after.status()).toBe(401);
  });
});
