import { waitForPersistedQuery, waitForServiceWorker, withServiceWorker } from './support';
import { A, F, S, apiDocs, expect, expectGrid, gridRow, gridRows, openDemo, resultsQuery, runSearch, test, val, waitForCachedPage, waitForPersistedSearch } from './grid-support';

// Every test here is about what the service worker does.
test.use(withServiceWorker);

const gridKey = `search|${S.allInvoices}|${A.invoices}`;

test.describe('results offline, from the page cache', () => {
  test('pages seen online open offline with a notice; a page never seen says it is not available; a search is re-run offline', async ({ page, context, request }) => {
    const token = await openDemo(page);
    await page.getByLabel('Title', { exact: true }).fill('o');
    const criteria = await runSearch(page);
    const p1 = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
    const p2 = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria, page: 2 });
    expect(p1.Count).toBeGreaterThan(30);
    await expectGrid(page, p1.Count, val(p1.Docs[0]!, F.title));
    await waitForCachedPage(page, { gridKey, page: 1, pageSize: 10 });
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(gridRow(page, 0)).toContainText(val(p2.Docs[0]!, F.title));
    await waitForCachedPage(page, { gridKey, page: 2, pageSize: 10 });
    await waitForServiceWorker(page);
    // The search screen's data (the list and the search with its prompts) is persisted too.
    await waitForPersistedQuery(page, 'search');
    await waitForPersistedSearch(page, S.allInvoices);
    const resultsUrl = page.url();

    await context.setOffline(true);
    try {
      await page.reload();
      const notice = page.getByRole('status').filter({ hasText: /^Offline — data from / });
      await expect(notice).toBeVisible();
      await expectGrid(page, p1.Count, val(p1.Docs[0]!, F.title));
      expect(await gridRows(page).count()).toBeGreaterThan(0);

      await page.getByRole('button', { name: 'Page 2', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(gridRow(page, 0)).toContainText(val(p2.Docs[0]!, F.title));
      await expect(notice).toBeVisible();

      await page.getByRole('button', { name: 'Page 3', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'This page is not available offline.' })).toBeVisible();
      await expect(gridRows(page)).toHaveCount(0);

      // Back to page 1: from the cache again.
      await page.getByRole('button', { name: 'Page 1', exact: true }).click();
      await expect(gridRow(page, 0)).toContainText(val(p1.Docs[0]!, F.title));

      // Refine search, then run it again from the search screen, still offline.
      await page.getByRole('link', { name: 'Refine search' }).click();
      await expect(page).toHaveURL(/\/view\?/);
      await expect(page.getByTestId('search-list').getByRole('button', { name: 'All Invoices' })).toBeVisible();
      await expect(page.getByLabel('Title', { exact: true })).toHaveValue('o');
      expect(JSON.parse(await runSearch(page))).toEqual(JSON.parse(criteria));
      await expect(page.getByRole('status').filter({ hasText: /^Offline — data from / })).toBeVisible();
      await expectGrid(page, p1.Count, val(p1.Docs[0]!, F.title));

      // A fresh load of the search screen (not a client-side move) works offline as well.
      await page.goto('/view?db=1');
      await expect(page.getByTestId('search-offline-from')).toBeVisible();
      await page.getByLabel('Title', { exact: true }).fill('o');
      await runSearch(page);
      await expectGrid(page, p1.Count, val(p1.Docs[0]!, F.title));
      expect(resultsQuery(page).get('criteria')).toBe(criteria);
      expect(new URL(resultsUrl).pathname).toBe(new URL(page.url()).pathname);
    } finally {
      await context.setOffline(false);
    }
  });

  test('a search whose results were never opened says so offline', async ({ page, context }) => {
    await openDemo(page);
    await page.getByTestId('search-list').getByRole('button', { name: 'Contracts' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Contracts' })).toBeVisible();
    await waitForServiceWorker(page);
    await waitForPersistedSearch(page, S.contracts);
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByRole('heading', { level: 2, name: 'Contracts' })).toBeVisible();
      await runSearch(page);
      await expect(page.getByRole('status').filter({ hasText: 'This page is not available offline.' })).toBeVisible();
      await expect(gridRows(page)).toHaveCount(0);
    } finally {
      await context.setOffline(false);
    }
  });
});
