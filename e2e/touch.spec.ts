import { test, expect } from '@playwright/test';

// Runs in the tablet-touch project (768x1024, hasTouch) as well as on the desktop.
test.describe('tablet with touch @touch', () => {
  test('sign in and choose a database by tapping; controls are at least 44 px', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('User name').fill('user');
    await page.getByLabel('Password', { exact: true }).fill('user');
    await page.getByRole('button', { name: 'Sign in' }).tap();
    await expect(page).toHaveURL(/\/select/);
    const choice = page.getByRole('button', { name: 'Demo Archive' });
    await expect(choice).toBeVisible();
    for (const name of ['Settings', 'Switch database', 'Log out', 'Demo Archive']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.height, name).toBeGreaterThanOrEqual(44);
      expect(box!.width, name).toBeGreaterThanOrEqual(44);
    }
    await choice.tap();
    await expect(page).toHaveURL(/\/view\?db=\d+/);
  });

  test('the layout fits the tablet in landscape without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto('/login');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
