/**
 * E-mail of a document from a row's menu (issue 10 item 3), against the real server. The browser
 * tests' server has no e-mail settings (no SMTP_HOST), so a user who sends sees the server's clear
 * error in the form; the sending itself is tested with a real SMTP server in
 * tests/server/document-email.test.ts. Nothing is sent and no data changes, so no data of its own.
 */
import { expect, gridRow, openDemo, test } from './grid-support';

test.describe('e-mail a document', () => {
  test("a row's menu opens the e-mail form; with no e-mail settings on the server the user reads why it was not sent", async ({ page }) => {
    await openDemo(page, 'user');
    await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    await page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'E-mail', exact: true }).click();
    const modal = page.getByRole('dialog', { name: /^E-mail / });
    await modal.getByRole('textbox', { name: 'To (one e-mail address)' }).fill('finance@example.com');
    await modal.getByRole('textbox', { name: 'Subject' }).fill('For the audit');
    await modal.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(modal.getByRole('alert')).toContainText('E-mail is not set up on this server');
    // The form stays, with what was typed, for when the administrator has set it up.
    await expect(modal.getByRole('textbox', { name: 'To (one e-mail address)' })).toHaveValue('finance@example.com');
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
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
