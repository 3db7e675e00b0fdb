/**
 * Burst (issue 12 item 4) against the built app and the real server: pages ticked in the viewer's
 * thumbnail strip become an import document, opened through the view route (ImportDoc,
 * RequestedPages, deleteBurstedPages) where the archive choice for bursting indexes it; the new
 * document is found in the grid with its 2 pages. With "Remove the burst pages" the source lost them.
 * The refusals of the archive-ops spec §5 are said in words. A @touch case at tablet size: long-press
 * selects, 44 px targets.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, S, cellText, expect, gridRow, gridRows, openDemo, test, type Doc } from './grid-support';
import { expectTapTarget, getSearch, openResults, promptId, uniqueMark } from './editing-support';
import { describeDocs, type SessionDoc } from './viewer-support';

/** Every invoice with its type and pages (through the viewer session call). */
async function invoices(request: APIRequestContext, token: string): Promise<SessionDoc[]> {
  const res = await request.get(`/api/dbs/1/searches/${S.allInvoices}/archive/${A.invoices}/documents`, { params: { token, page: 1, RecordsPerPage: 200, Count: 'true' } });
  expect(res.status()).toBe(200);
  const docs = ((await res.json()) as { Docs: Doc[] }).Docs.filter((d) => d.ArchiveId === A.invoices);
  return describeDocs(request, token, docs);
}

/** A document of the type with 3+ pages, from the end of the list (the other specs use the first rows). */
function pick(all: SessionDoc[], type: 'PDF' | 'TIF', skip = 0): SessionDoc {
  const found = all.filter((d) => (d.FileType ?? '').toUpperCase().startsWith(type) && (d.Pages ?? 0) >= 3).reverse()[skip];
  expect(found, `a ${type} of 3+ pages`).toBeTruthy();
  return found!;
}

async function pagesOf(request: APIRequestContext, token: string, d: SessionDoc): Promise<number> {
  const made = await request.post('/api/session', { headers: { 'Auth-Token': token }, data: { Database: 1, Documents: [{ Archive: d.Archive, Id: d.Id, Hash: d.Hash }] } });
  const { Id } = (await made.json()) as { Id: string };
  const got = await request.get(`/api/session/${Id}`, { headers: { 'Auth-Token': token } });
  return ((await got.json()) as { Documents: SessionDoc[] }).Documents[0]!.Pages!;
}

const openViewer = (page: Page, d: SessionDoc) => page.goto(`/viewer/${d.Hash}?archive=${d.Archive}&Id=${d.Id}&db=1`);
const strip = (page: Page) => page.getByRole('navigation', { name: 'Thumbnails' });

/** Thumbnails open, selection on, the given pages ticked. */
async function selectPages(page: Page, pages: number[]) {
  await page.getByRole('button', { name: 'Thumbnails' }).click();
  await strip(page).getByRole('button', { name: 'Select pages' }).click();
  for (const n of pages) await strip(page).getByRole('checkbox', { name: `Select page ${n}`, exact: true }).check();
}

/** The archive choice for bursting: Contracts, a unique title, saved. */
async function indexInto(page: Page, title: string) {
  const modal = page.getByRole('region', { name: 'Archive choice for bursting' });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await modal.getByLabel('Archive', { exact: true }).selectOption({ label: 'Contracts' });
  await modal.getByLabel('Title (required)').fill(title);
  await modal.getByRole('button', { name: 'Save to archive' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Document \d+ was created in Contracts with 2 pages\./ })).toBeVisible({ timeout: 20_000 });
}

/** The new document in the Contracts grid, by its title: one row, 2 pages. */
async function expectInGrid(page: Page, request: APIRequestContext, token: string, title: string, touch = false) {
  const search = await getSearch(request, token, 1, S.contracts);
  const criteria = [{ ID: promptId(search, 'Title'), VAL: title }];
  await openResults(page, { searchId: S.contracts, hash: search.Hash, archiveId: A.contracts, criteria });
  await expect(gridRows(page)).toHaveCount(1);
  await expect(gridRow(page, 0)).toContainText(title);
  // At tablet width the Page Count column is scrolled out of the grid's DOM: read from the same call then.
  if (!touch) await expect.poll(() => cellText(page, 0, 'Page Count')).toBe('2');
  else {
    const res = await request.get(`/api/dbs/1/searches/${S.contracts}/archive/${A.contracts}/documents`, { params: { token, page: 1, RecordsPerPage: 5, SearchCriteria: JSON.stringify(criteria) } });
    const docs = ((await res.json()) as { Docs: (Doc & { PageCount: number })[] }).Docs;
    expect(docs.map((d) => d.PageCount)).toEqual([2]);
  }
}

test.describe('burst', () => {
  test('two pages of a PDF into a new document of Contracts; the source keeps its pages', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const src = pick(await invoices(request, token), 'PDF');
    await openViewer(page, src);
    await selectPages(page, [1, 3]);
    await expect(strip(page).getByRole('status')).toHaveText('2 pages selected');
    await strip(page).getByRole('button', { name: 'Burst', exact: true }).click();
    await expect(page).toHaveURL(/\/view\?db=1&ImportDoc=[0-9a-f-]{36}&RequestedPages=1&RequestedPages=3&deleteBurstedPages=false&ogArchive=1&ogDoc=\d+/);
    await expect(page.getByText(`Pages 1, 3 of document ${src.Id} become a new document of 2 pages.`)).toBeVisible();
    await expect(page.getByRole('img', { name: 'Page 2 of 2 (page 3 of the original)' })).toBeVisible();
    const title = uniqueMark('burst-pdf');
    await indexInto(page, title);
    await expectInGrid(page, request, token, title);
    expect(await pagesOf(request, token, src)).toBe(src.Pages);
  });

  test('two pages of a TIFF, removed from the source', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const src = pick(await invoices(request, token), 'TIF');
    await openViewer(page, src);
    await selectPages(page, [1, 2]);
    await strip(page).getByLabel('Remove the burst pages from this document').check();
    await strip(page).getByRole('button', { name: 'Burst', exact: true }).click();
    await expect(page).toHaveURL(/ImportDoc=.*deleteBurstedPages=true/);
    await expect(page.getByText(`When the new document is saved, these pages are removed from document ${src.Id}.`)).toBeVisible();
    const title = uniqueMark('burst-tif');
    await indexInto(page, title);
    expect(await pagesOf(request, token, src)).toBe(src.Pages! - 2);
    await expectInGrid(page, request, token, title);
  });

  test('the refusals are said in words', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const src = pick(await invoices(request, token), 'PDF', 1);
    await openViewer(page, src);
    await selectPages(page, []);
    const burst = strip(page).getByRole('button', { name: 'Burst', exact: true });
    await burst.click();
    await expect(strip(page).getByRole('alert')).toHaveText('Select at least one page to burst.');
    for (let n = 1; n <= src.Pages!; n++) await strip(page).getByRole('checkbox', { name: `Select page ${n}`, exact: true }).check();
    await strip(page).getByLabel('Remove the burst pages from this document').check();
    await burst.click();
    await expect(strip(page).getByRole('alert')).toHaveText(/^Removing the burst pages would leave the document with no pages\./);
    await expect(page).toHaveURL(/\/viewer\//);

    // The grid: two documents checked, then Burst from a row's menu; and disabled from the indexer.
    const search = await getSearch(request, token, 1, S.allInvoices);
    await openResults(page, { searchId: S.allInvoices, hash: search.Hash, archiveId: A.invoices, criteria: [] });
    for (const i of [0, 1]) await gridRow(page, i).locator('td').filter({ has: page.locator('input.results-check') }).click();
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    await page.getByRole('menu').getByRole('menuitem', { name: 'Burst…' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Only one document can be burst at a time. Select just one document.' })).toBeVisible();

    await page.goto(`${page.url()}&fromIndexer=true`);
    await expect(gridRow(page, 0)).toBeVisible();
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    const item = page.getByRole('menu').getByRole('menuitem', { name: /^Burst…/ });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('menu')).toContainText('Burst is not available when the document was opened from the indexer or the viewer.');
  });

  test('a read-only licence is told why it cannot burst', async ({ page, request }) => {
    const token = await openDemo(page, 'viewer');
    const src = pick(await invoices(request, token), 'PDF');
    await openViewer(page, src);
    await selectPages(page, [1]);
    const burst = strip(page).getByRole('button', { name: 'Burst', exact: true });
    await expect(burst).toHaveAttribute('aria-disabled', 'true');
    await expect(strip(page)).toContainText('Your licence is read-only.');
    // Described by its reason, for a screen reader.
    const why = await burst.getAttribute('aria-describedby');
    await expect(page.locator(`[id="${why}"]`)).toHaveText('Your licence is read-only.');
  });

  test('the grid thumbnail menu opens the document for bursting', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const search = await getSearch(request, token, 1, S.allInvoices);
    await openResults(page, { searchId: S.allInvoices, hash: search.Hash, archiveId: A.invoices, criteria: [] });
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    await page.getByRole('menu').getByRole('menuitem', { name: 'Open preview' }).click();
    const preview = page.getByRole('dialog');
    await preview.locator('.results-thumb-preview img').click({ button: 'right' });
    await page.getByRole('menu', { name: /^Thumbnail menu for / }).getByRole('menuitem', { name: 'Burst…' }).click();
    await expect(page).toHaveURL(/\/viewer\/.*burst=1/);
    await expect(strip(page).getByRole('button', { name: 'Select pages' })).toHaveAttribute('aria-pressed', 'true');
    await expect(strip(page).getByRole('checkbox', { name: 'Select page 1', exact: true })).toBeVisible();
  });

  test('@touch a long-press selects a page; 44 px targets; burst and index at tablet size', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const src = pick(await invoices(request, token), 'PDF', 2);
    await openViewer(page, src);
    await page.getByRole('button', { name: 'Thumbnails' }).tap();
    const thumb2 = strip(page).getByRole('button', { name: 'Page 2', exact: true });
    await expect(thumb2).toBeVisible();
    // A long-press: touch down, wait, lift (Playwright's tap is too short).
    const box = (await thumb2.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(800);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(strip(page).getByRole('checkbox', { name: 'Select page 2', exact: true })).toBeChecked();
    await expectTapTarget(strip(page).locator('li[data-page="1"] .viewer-thumb-check'), 'page check box');
    await expectTapTarget(strip(page).getByRole('button', { name: 'Burst', exact: true }), 'Burst');
    await expectTapTarget(strip(page).locator('.burst-option'), 'remove option');
    await strip(page).locator('li[data-page="1"] .viewer-thumb-check').tap();
    await expect(strip(page).getByRole('status')).toHaveText('2 pages selected');
    await strip(page).getByRole('button', { name: 'Burst', exact: true }).tap();
    const title = uniqueMark('burst-touch');
    await indexInto(page, title);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectInGrid(page, request, token, title, true);
  });
});
