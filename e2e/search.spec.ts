import { test, expect } from '@playwright/test';
import { signIn } from './support';

test('smoke', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  await signIn(page, 'admin');
  await page.getByRole('button', { name: 'Demo Archive' }).click();
  await expect(page).toHaveURL(/\/view\?db=1/);
  await expect(page.getByTestId('search-list')).toBeVisible();
  await page.screenshot({ path: '.tmp/s1.png', fullPage: true });
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/results\//);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: '.tmp/s2.png', fullPage: true });
  console.log(page.url());
  console.log(errors.join('\n'));
});
