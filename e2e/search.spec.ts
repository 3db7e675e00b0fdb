import type { Page } from '@playwright/test';
import { A, F, S, apiDocs, expect, expectGrid, gridRow, gridRows, openDemo, runSearch, resultsQuery, test, val, cellText } from './grid-support';

/** The search form's inputs by their visible labels. */
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function chooseSearch(page: Page, name: string) {
  await page.getByTestId('search-list').getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
}

test.describe('the search screen (/view)', () => {
  test('lists the searches with Settings bit 4 (not the hidden one) and preselects the default', async ({ page, request }) => {
    const token = await openDemo(page);
    const res = await request.get('/api/dbs/1/searches', { params: { token } });
    const all = (await res.json()) as { Name: string; Settings: number }[];
    const shown = all.filter((s) => (s.Settings & 4) !== 0).map((s) => s.Name);
    expect(all.some((s) => s.Name === 'Maintenance (hidden)')).toBe(true);
    expect(shown).not.toContain('Maintenance (hidden)');

    const list = page.getByTestId('search-list').getByRole('button');
    await expect(list).toHaveText(shown);
    await expect(page.getByRole('button', { name: 'Maintenance (hidden)' })).toHaveCount(0);
    // Settings bit 8: "All Invoices" opens with its prompts, marked current and as the default.
    await expect(page.getByRole('button', { name: 'All Invoices', exact: true })).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('heading', { level: 2, name: 'All Invoices' })).toBeVisible();
    await expect(page.getByTestId('search-list').getByText('Default')).toBeVisible();
    await expect(field(page, 'Title')).toBeVisible();
  });

  test('All Invoices: text Contains and a fixed drop-down run with the criteria the server counts', async ({ page, request }) => {
    const token = await openDemo(page);
    await field(page, 'Title').fill('invoice');
    const department = field(page, 'Department');
    // Prop 64: a drop-down of the list's items (Departments).
    await expect(department.locator('option')).toHaveText(['(any)', 'Finance', 'HR', 'Legal', 'Sales', 'Operations', 'IT']);
    await department.selectOption('Finance');
    const criteria = await runSearch(page);
    expect(JSON.parse(criteria)).toEqual([
      { ID: 1, VAL: 'invoice' },
      { ID: 7, VAL: 'Finance' },
    ]);
    expect(resultsQuery(page).get('rpp')).toBe('10');
    const api = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
    expect(api.Count).toBeGreaterThan(0);
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    const rows = Math.min(api.Docs.length, 5);
    for (let i = 0; i < rows; i++) {
      expect(await cellText(page, i, 'Department')).toBe('Finance');
      expect((await cellText(page, i, 'Title')).toLowerCase()).toContain('invoice');
    }
  });

  test('All Invoices: number, date and decimal ranges; invalid values are marked and do not run', async ({ page, request }) => {
    const token = await openDemo(page);
    // Number boxes keep digits (and minus) only.
    await field(page, 'Invoice Number between: from').pressSequentially('1000x10');
    await expect(field(page, 'Invoice Number between: from')).toHaveValue('100010');
    await field(page, 'Invoice Number between: to').fill('100120');
    // Dates in the locale's order (en-US: MM/DD/YYYY); a wrong date stops the search.
    await field(page, 'Document Date: from').fill('13/45/2024');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('Enter a valid date as MM/DD/YYYY.')).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Correct the marked values');
    await expect(page).toHaveURL(/\/view\?/);
    await expect(field(page, 'Document Date: from')).toHaveAttribute('aria-invalid', 'true');
    await field(page, 'Document Date: from').fill('1/1/2024');
    await field(page, 'Document Date: to').fill('12/31/2025');
    await field(page, 'Document Date: to').blur();
    // A valid date is redrawn in the locale's format.
    await expect(field(page, 'Document Date: from')).toHaveValue('01/01/2024');
    await field(page, 'Amount between: from').fill('1000.50');
    await field(page, 'Amount between: to').fill('20000');
    const criteria = await runSearch(page);
    expect(JSON.parse(criteria)).toEqual([
      { ID: 3, MVAL: ['100010', '100120'] },
      { ID: 4, MVAL: ['2024-01-01', '2025-12-31'] },
      { ID: 5, MVAL: ['1000.50', '20000'] },
    ]);
    const api = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
    expect(api.Count).toBeGreaterThan(0);
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    for (const d of api.Docs) {
      expect(Number(val(d, F.invoiceNumber))).toBeGreaterThanOrEqual(100010);
      expect(Number(val(d, F.amount))).toBeGreaterThanOrEqual(1000.5);
      expect(val(d, F.documentDate) >= '2024-01-01' && val(d, F.documentDate) <= '2025-12-31').toBe(true);
    }
  });

  test('All Invoices: the type-ahead list suggests customers for what is typed', async ({ page, request }) => {
    const token = await openDemo(page);
    const customer = field(page, 'Customer');
    const listId = await customer.getAttribute('list');
    expect(listId).toBeTruthy();
    const suggestions = page.locator(`datalist[id="${listId}"] option`);
    await customer.click();
    await customer.pressSequentially('Star');
    await expect(suggestions).toHaveCount(1);
    await expect(suggestions.first()).toHaveAttribute('value', 'Stark Industries');
    await customer.fill('');
    await customer.pressSequentially('in');
    // Several customers hold "in"; never more than 100 suggestions.
    await expect.poll(() => suggestions.count()).toBeGreaterThan(1);
    expect(await suggestions.count()).toBeLessThanOrEqual(100);
    await customer.fill('Stark Industries');
    const criteria = await runSearch(page);
    expect(JSON.parse(criteria)).toEqual([{ ID: 6, VAL: 'Stark Industries' }]);
    const api = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
    expect(api.Count).toBeGreaterThan(0);
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    expect(await cellText(page, 0, 'Customer')).toBe('Stark Industries');
  });

  test('Correspondence: dynamic list filtered by two fields, multi-value prompt and IsEmpty', async ({ page, request }) => {
    const token = await openDemo(page);
    await chooseSearch(page, 'Correspondence');
    const city = field(page, 'City');
    await expect(city).toBeVisible();
    await field(page, 'Country').fill('France');
    await expect(city.locator('option')).toHaveText(['(any)', 'Lille', 'Marseille', 'Nice', 'Paris'], { useInnerText: true });
    await field(page, 'Region').fill('South');
    await expect(city.locator('option')).toHaveText(['(any)', 'Marseille', 'Nice'], { useInnerText: true });
    await city.selectOption('Marseille');
    // A value no longer in the refreshed list is cleared.
    await field(page, 'Region').fill('North');
    await expect(city.locator('option')).toHaveText(['(any)', 'Lille', 'Paris'], { useInnerText: true });
    await expect(city).toHaveValue('');
    await field(page, 'Region').fill('South');
    await expect(city.locator('option')).toHaveText(['(any)', 'Marseille', 'Nice'], { useInnerText: true });
    await city.selectOption('Marseille');
    await field(page, 'Region').fill('');
    await field(page, 'Country').fill('');
    await expect(city.locator('option')).toHaveCount(17);
    await expect(city).toHaveValue('Marseille');

    // Multi-value: typing into the last box adds another.
    await field(page, 'Tag').fill('urgent');
    await field(page, 'Tag (2)').fill('draft');
    await expect(field(page, 'Tag (3)')).toHaveValue('');
    // IsEmpty: ticked by default, as the server applies it without criteria.
    const withoutNotes = page.getByRole('checkbox', { name: 'Without notes' });
    await expect(withoutNotes).toBeChecked();
    const criteria = await runSearch(page);
    expect(JSON.parse(criteria)).toEqual([
      { ID: 17, VAL: 'Marseille' },
      { ID: 18, MVAL: ['urgent', 'draft'] },
      { ID: 19 },
    ]);
    const api = await apiDocs(request, token, { searchId: S.correspondence, archiveId: A.correspondence, criteria });
    expect(api.Count).toBeGreaterThan(0);
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    expect(await cellText(page, 0, 'City')).toBe('Marseille');
    expect(await cellText(page, 0, 'Tags')).toMatch(/urgent|draft/);
  });

  test('Content Search: the full-text prompt runs on the documents text', async ({ page, request }) => {
    const token = await openDemo(page);
    await chooseSearch(page, 'Content Search');
    await field(page, 'Search text').fill('warehouse');
    const criteria = await runSearch(page);
    expect(JSON.parse(criteria)).toEqual([{ ID: 9, VAL: 'warehouse' }]);
    const api = await apiDocs(request, token, { searchId: S.contentSearch, archiveId: A.invoices, criteria, sort: 'HITS:desc' });
    expect(api.Count).toBeGreaterThan(0);
    expect(api.Terms.length).toBeGreaterThan(0);
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
  });

  test('Customer Files: prompts sharing their text are one input feeding both', async ({ page, request }) => {
    const token = await openDemo(page);
    await chooseSearch(page, 'Customer Files');
    await expect(page.getByText('Customer', { exact: true })).toHaveCount(1);
    await field(page, 'Customer').fill('Globex');
    const criteria = await runSearch(page);
    const items = JSON.parse(criteria) as { ID: number; VAL: string }[];
    expect(items).toHaveLength(2);
    expect(items.every((i) => i.VAL === 'Globex')).toBe(true);
    const api = await apiDocs(request, token, { searchId: S.customerFiles, archiveId: A.invoices, criteria });
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
  });

  test('records per page: 1 to 10000, anything else becomes 10', async ({ page, request }) => {
    const token = await openDemo(page);
    const rpp = field(page, 'Records per page');
    await expect(rpp).toHaveValue('10');
    await rpp.fill('0');
    await rpp.blur();
    await expect(rpp).toHaveValue('10');
    await rpp.fill('20000');
    await runSearch(page);
    expect(resultsQuery(page).get('rpp')).toBe('10');
    const api = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria: '[]', rpp: 10 });
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('10');

    await page.goBack();
    await expect(rpp).toBeVisible();
    await rpp.fill('25');
    await runSearch(page);
    expect(resultsQuery(page).get('rpp')).toBe('25');
    await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('25');
    const api25 = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria: '[]', rpp: 25 });
    await page.getByRole('button', { name: 'Last page' }).click();
    await expect(page.getByRole('button', { name: `Page ${Math.ceil(api25.Count / 25)}`, exact: true })).toHaveAttribute('aria-current', 'page');
    expect(await gridRows(page).count()).toBeGreaterThan(0);
  });
});

test.describe('the search screen on a tablet @touch', () => {
  test('choose a search, run it and page the results by tapping', async ({ page, request, isMobile, hasTouch }) => {
    const token = await openDemo(page);
    const tap = async (l: ReturnType<Page['getByRole']>) => (hasTouch || isMobile ? l.tap() : l.click());
    await tap(page.getByTestId('search-list').getByRole('button', { name: 'Invoices by Status' }));
    await expect(page.getByRole('heading', { level: 2, name: 'Invoices by Status' })).toBeVisible();
    await tap(page.getByRole('button', { name: 'Search', exact: true }));
    await expect(page).toHaveURL(/\/results\/s1-3-invoices-by-status/);
    const criteria = resultsQuery(page).get('criteria') ?? '';
    const api = await apiDocs(request, token, { searchId: S.invoicesByStatus, archiveId: A.invoices, criteria, tabID: 1 });
    await expectGrid(page, api.Count, val(api.Docs[0]!, F.title));
    const api2 = await apiDocs(request, token, { searchId: S.invoicesByStatus, archiveId: A.invoices, criteria, tabID: 1, page: 2 });
    await tap(page.getByRole('button', { name: 'Next page' }));
    await expect(page.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(gridRow(page, 0)).toContainText(val(api2.Docs[0]!, F.title));
    // The grid fits the viewport's width (768 px portrait): no sideways scrolling of the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe('settings that change the search screen', () => {
  test('"run the default search when clicked": clicking the default search opens its results at once', async ({ page }) => {
    await openDemo(page);
    // Off (the default): clicking the default search only shows its prompts.
    await page.getByTestId('search-list').getByRole('button', { name: 'Contracts', exact: true }).click();
    await page.getByTestId('search-list').getByRole('button', { name: 'All Invoices', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'All Invoices', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/view\?/);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Run the default search when a search is clicked').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await page.getByRole('button', { name: 'Switch database' }).click();
    await page.getByRole('button', { name: 'Demo Archive' }).click();
    await page.getByTestId('search-list').getByRole('button', { name: 'All Invoices', exact: true }).click();
    await expect(page).toHaveURL(/\/results\/[^?]+\?Id=1&db=1&archive=1/);
    await expect(page.getByRole('heading', { level: 1, name: 'All Invoices' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Refine search' })).toBeVisible();
    // Another (not default) search is still only opened, not run.
    await page.goBack();
    await page.getByTestId('search-list').getByRole('button', { name: 'Contracts', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Contracts', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/view\?/);
  });
});
