/**
 * E-mail of a document from a row's menu (issue 10 item 3), against the real server. The browser
 * tests' server has no e-mail settings, so the row's E-mail says up front that e-mail is not set up,
 * before anything is written; the sending itself is tested with a real SMTP server in
 * tests/server/document-email.test.ts. Nothing is sent and no data changes, so no data of its own.
 */
import { expect, gridRow, openDemo, test } from './grid-support';

test.describe('e-mail a document', () => {
  test("with no e-mail settings on the server, a row's E-mail says so before anything is written, in words without settings' names", async ({ page }) => {
    await openDemo(page, 'user');
    await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    const item = page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'E-mail', exact: true });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).toContainText('E-mail is not set up on this server. Ask your administrator.');
    await expect(item).not.toContainText('SMTP');
    // Chosen anyway: no form to fill in for nothing.
    await item.dispatchEvent('click');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('the read-only licence (viewer): e-mail is unavailable in the row menu', async ({ page }) => {
    await openDemo(page, 'viewer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    const item = page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'E-mail', exact: true });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    // Chosen anyway (a click on a disabled item): no form opens.
    await item.dispatchEvent('click');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
