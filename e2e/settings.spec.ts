import { A, expect, gridRow, openDemo, runSearch, test } from './grid-support';

test.describe('Settings', () => {
  test('the archive history page size chosen in Settings pages the archive history panel', async ({ page, request }) => {
    const token = await openDemo(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    const size = page.getByLabel('Archive history: entries per page');
    await expect(size).toHaveValue('25');
    await size.selectOption('50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    // The choice is kept on the device.
    await page.reload();
    await expect(page.getByLabel('Archive history: entries per page')).toHaveValue('50');

    const res = await request.get(`/api/dbs/1/archives/${A.invoices}/audit`, { params: { Token: token, Page: 1, DocLimit: 50 } });
    expect(res.status()).toBe(200);
    const h1 = (await res.json()) as { Total: number; Items: { Message: string }[] };
    expect(h1.Total).toBeGreaterThan(50);

    await page.goto('/view?db=1');
    await expect(page.getByTestId('search-list')).toBeVisible();
    await runSearch(page);
    await gridRow(page, 0).locator('td').nth(2).click();
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const sidebar = page.getByRole('complementary', { name: 'History' });
    await sidebar.getByRole('button', { name: 'Archive history' }).click();
    const list = sidebar.getByRole('list', { name: 'Archive history' });
    await expect(list.getByRole('listitem')).toHaveCount(50);
    await expect(list.getByRole('listitem').first()).toContainText(h1.Items[0]!.Message);
    await expect(sidebar.getByText(`Page 1 of ${Math.ceil(h1.Total / 50)}`)).toBeVisible();
  });
});
