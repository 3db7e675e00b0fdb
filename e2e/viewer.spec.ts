/**
 * The document viewer (issue 12 item 1) against the built app and the real server: a PDF opened from
 * the grid's row menu is drawn by pdf.js (a canvas with ink on it), pages turn by button, page box and
 * PageDown, zoom and fit change its size, the thumbnails load and jump, the next document of the
 * result page opens from the viewer session; a TIFF shows its server-rendered page; content-search
 * terms are marked in the text layer; a document the user may not view says so. All under the CSP
 * with no violation. A @touch case at iPad size: tapping, 44 px targets, no sideways scrolling.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { A, F, apiDocs, expect, gridRows, openDemo, runSearch, test, val } from './grid-support';
import { apiToken } from './editing-support';
import { describeDocs, ink } from './viewer-support';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
}
const cspViolations = (page: Page) => page.evaluate(() => window.__cspViolations ?? []);

const pdfCanvas = (page: Page, n: number) => page.locator(`.viewer-pdf-page[data-page="${n}"][data-rendered] canvas`);

test.describe('document viewer', () => {
  test('open a PDF from the row menu; pages, zoom, thumbnails, the next document; no CSP violation', async ({ page, request }) => {
    await watchCsp(page);
    const token = await openDemo(page, 'user');
    const criteria = await runSearch(page);
    await expect(page.getByTestId('results-count')).toBeVisible();
    const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, criteria, rpp: 10 });
    const info = await describeDocs(request, token, listed.Docs);
    // A PDF of two pages or more among the first rows (the grid renders the rows near its top).
    const at = info.findIndex((d, i) => i < 8 && d.FileType === 'PDF' && (d.Pages ?? 0) >= 2 && i < listed.Docs.length - 1);
    expect(at, `a PDF of 2+ pages in ${JSON.stringify(info.map((d) => [d.FileType, d.Pages]))}`).toBeGreaterThanOrEqual(0);
    const doc = listed.Docs[at]!;
    const pages = info[at]!.Pages!;

    const row = gridRows(page).filter({ hasText: val(doc, F.title) }).first();
    await row.locator('td').nth(3).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: /^Actions for / });
    await expect(menu.getByRole('menuitem').first()).toHaveText('Open document');
    await menu.getByRole('menuitem', { name: 'Open document', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/viewer/${doc.Hash}\\?.*Id=${doc.Id}.*session=`));
    await expect(page.getByTestId('viewer-document-of')).toHaveText(`Document ${at + 1} of ${listed.Docs.length}`);
    // The header and the tab name the document by its title, as the grid's row does, not by its file name.
    await expect(page.getByRole('heading', { level: 1, name: val(doc, F.title), exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`${val(doc, F.title)} – Document viewer`);
    await expect(pdfCanvas(page, 1)).toBeVisible({ timeout: 20_000 });
    expect(await ink(pdfCanvas(page, 1))).toBeGreaterThan(0.001);
    await expect(page.getByRole('img', { name: `Page 1 of ${pages}` })).toBeVisible();

    // Page 2 by the button, back by PageUp, again by the page box.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pdfCanvas(page, 2)).toBeVisible();
    await expect(page.getByLabel('Page number')).toHaveValue('2');
    await page.getByRole('button', { name: 'Next page' }).blur();
    await page.keyboard.press('PageUp');
    await expect(pdfCanvas(page, 1)).toBeVisible();
    await page.getByLabel('Page number').fill('2');
    await page.getByLabel('Page number').press('Enter');
    await expect(pdfCanvas(page, 2)).toBeVisible();
    expect(await ink(pdfCanvas(page, 2))).toBeGreaterThan(0.001);

    // Zoom: in makes the page wider than the width fit, fit page makes it fit the height.
    const fitWidth = (await pdfCanvas(page, 2).boundingBox())!.width;
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(page.getByTestId('viewer-zoom')).toHaveText('125 %');
    await expect.poll(async () => (await pdfCanvas(page, 2).boundingBox())?.width ?? 0).toBeGreaterThan(fitWidth * 1.2);
    await page.getByRole('button', { name: 'Fit page' }).click();
    await expect(page.getByRole('button', { name: 'Fit page' })).toHaveAttribute('aria-pressed', 'true');
    const area = (await page.locator('.viewer-area').boundingBox())!;
    await expect.poll(async () => (await pdfCanvas(page, 2).boundingBox())?.height ?? 9999).toBeLessThanOrEqual(area.height);
    await page.getByRole('button', { name: 'Fit width' }).click();

    // Thumbnails: each loads once in view for 0.5 s; a tap on one goes to its page.
    await page.getByRole('button', { name: 'Thumbnails' }).click();
    const strip = page.getByRole('navigation', { name: 'Thumbnails' });
    await expect(strip.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(strip.getByRole('button', { name: 'Page 1', exact: true }).locator('img')).toHaveJSProperty('complete', true, { timeout: 30_000 });
    expect(await strip.getByRole('button', { name: 'Page 1', exact: true }).locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
    await strip.getByRole('button', { name: 'Page 1', exact: true }).click();
    await expect(pdfCanvas(page, 1)).toBeVisible();

    // The next document of the result page.
    const next = listed.Docs[at + 1]!;
    await page.getByRole('button', { name: 'Next document' }).click();
    await expect(page).toHaveURL(new RegExp(`/viewer/${next.Hash}\\?.*Id=${next.Id}`));
    await expect(page.getByTestId('viewer-document-of')).toHaveText(`Document ${at + 2} of ${listed.Docs.length}`);
    await expect(page.getByRole('heading', { level: 1, name: val(next, F.title), exact: true })).toBeVisible();
    await expect(page.locator('.viewer-page[data-page="1"][data-rendered]')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Previous document' }).click();
    await expect(page.getByTestId('viewer-document-of')).toHaveText(`Document ${at + 1} of ${listed.Docs.length}`);

    // Back returns to the results (next/previous replaced the address), and Enter on a row opens it.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/results\//);
    await row.locator('td').nth(3).click();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/viewer/${doc.Hash}\\?`));
    await expect(pdfCanvas(page, 1)).toBeVisible({ timeout: 20_000 });

    expect(await cspViolations(page), 'CSP violations').toEqual([]);
  });

  test('a TIFF shows its server-rendered page; search terms are marked on a PDF page', async ({ page, request }) => {
    await watchCsp(page);
    const token = await apiToken(request, 'user');
    const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, rpp: 100 });
    const info = await describeDocs(request, token, listed.Docs);
    const tiff = info.find((d) => d.FileType === 'TIF' || d.FileType === 'TIFF');
    const pdf = info.find((d) => d.FileType === 'PDF');
    expect(tiff, 'a TIFF among the invoices').toBeTruthy();
    expect(pdf, 'a PDF among the invoices').toBeTruthy();
    await openDemo(page, 'user');

    // A session id the server does not know: the viewer makes one of this document alone.
    await page.goto(`/viewer/${tiff!.Hash}?archive=${tiff!.Archive}&Id=${tiff!.Id}&db=1&session=no-such-session`);
    const img = page.locator('.viewer-image-page[data-rendered] img');
    await expect(img).toBeVisible({ timeout: 20_000 });
    expect(await ink(img)).toBeGreaterThan(0.001);
    await expect(page.getByRole('img', { name: `Page 1 of ${tiff!.Pages}` })).toBeVisible();
    // Made a session of its own, in the address for a reload.
    await expect(page).toHaveURL(/session=(?!no-such-session)[0-9a-f-]{36}/);
    if ((tiff!.Pages ?? 1) > 1) {
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect(page.locator('.viewer-image-page[data-page="2"][data-rendered] img')).toBeVisible();
    }

    // Every seeded PDF page says "Page n of m" at its foot: the term "page" is marked there.
    await page.goto(`/viewer/${pdf!.Hash}?archive=${pdf!.Archive}&Id=${pdf!.Id}&db=1&terms=page`);
    await expect(page.locator('.viewer-pdf-page[data-rendered] .textLayer .viewer-hit').first()).toBeAttached({ timeout: 20_000 });
    await expect(page.getByRole('status').filter({ hasText: /with the search terms on this page/ })).toBeVisible();
    // pdf.js's data for the standard fonts without a system substitute is served by the app itself.
    for (const name of ['FoxitSymbol.pfb', 'FoxitDingbats.pfb']) {
      const font = await request.get(`/pdfjs/standard_fonts/${name}`);
      expect(font.status(), name).toBe(200);
      // pdfjs-dist's file itself, not the app's index.html fallback.
      expect((await font.body()).equals(readFileSync(`node_modules/pdfjs-dist/standard_fonts/${name}`)), name).toBe(true);
    }
    expect(await cspViolations(page), 'CSP violations').toEqual([]);
  });

  test('without a connection the file cannot be fetched: the viewer says so, and Try again shows it once back', async ({ page, context, request }) => {
    const token = await apiToken(request, 'user');
    const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, rpp: 10 });
    const info = await describeDocs(request, token, listed.Docs);
    const i = info.findIndex((d, k) => d.FileType === 'PDF' && info[k + 1]?.FileType === 'PDF');
    expect(i, 'two PDFs in a row').toBeGreaterThanOrEqual(0);
    const made = await request.post('/api/session', {
      headers: { 'Auth-Token': token },
      data: { Database: 1, Documents: info.map((d) => ({ Archive: d.Archive, Id: d.Id, Hash: d.Hash })) },
    });
    const { Id: session } = (await made.json()) as { Id: string };
    const first = info[i]!;
    await openDemo(page, 'user');
    await page.goto(`/viewer/${first.Hash}?archive=${first.Archive}&Id=${first.Id}&db=1&session=${session}`);
    await expect(pdfCanvas(page, 1)).toBeVisible({ timeout: 20_000 });

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Next document' }).click();
    // The viewer's own message (the indexer beside it says it has no fields too).
    const alert = page.getByRole('alert').and(page.locator('.viewer-problem'));
    await expect(alert).toContainText('there is no connection to the server');
    await context.setOffline(false);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(pdfCanvas(page, 1)).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(new RegExp(`Id=${info[i + 1]!.Id}`));
  });

  test('a document the user may not view, and a wrong address, say so', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin');
    const contracts = await apiDocs(request, admin, { searchId: 4, archiveId: A.contracts, rpp: 1 });
    const c = contracts.Docs[0]!;
    await openDemo(page, 'viewer');
    await page.goto(`/viewer/${c.Hash}?archive=${A.contracts}&Id=${c.Id}&db=1`);
    await expect(page.getByRole('alert')).toContainText('You do not have permission to view this document.');
    await page.goto(`/viewer/${c.Hash}?archive=${A.contracts}&db=1`);
    await expect(page.getByRole('alert')).toContainText('This address does not name a document');
  });

  test('the settings open documents in a new tab, or not at all', async ({ page, context }) => {
    await openDemo(page, 'user');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Open documents in a new tab').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await page.goto('/view?db=1');
    await expect(page.getByTestId('search-list')).toBeVisible();
    await runSearch(page);
    await expect(gridRows(page).first()).toBeVisible();
    const opened = context.waitForEvent('page');
    await gridRows(page).first().locator('td').nth(3).dblclick();
    const tab = await opened;
    await expect(tab).toHaveURL(/\/viewer\/.+session=/, { timeout: 20_000 });
    await expect(tab.locator('.viewer-page[data-rendered]')).toBeVisible({ timeout: 20_000 });
    await tab.close();
    await expect(page).toHaveURL(/\/results\//);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Open documents in a new tab').uncheck();
    await page.getByLabel('Do not open documents from the results').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await page.goBack();
    await expect(gridRows(page).first()).toBeVisible();
    await gridRows(page).first().locator('td').nth(3).click({ button: 'right' });
    const item = page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: /^Open document/ });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).toContainText('Opening documents is turned off in Settings.');
  });
});

test.describe('document viewer on a tablet @touch', () => {
  test('tap through pages and thumbnails; 44 px controls; fits portrait and landscape', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, rpp: 50 });
    const info = await describeDocs(request, token, listed.Docs);
    const pdf = info.find((d) => d.FileType === 'PDF' && (d.Pages ?? 0) >= 2)!;
    await openDemo(page, 'user');
    await page.goto(`/viewer/${pdf.Hash}?archive=${pdf.Archive}&Id=${pdf.Id}&db=1`);
    await expect(pdfCanvas(page, 1)).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Next page' }).tap();
    await expect(pdfCanvas(page, 2)).toBeVisible();
    await page.getByRole('button', { name: 'Thumbnails' }).tap();
    // In portrait the strip is a row under the page; its thumbnails load there too.
    const thumb1 = page.getByRole('navigation', { name: 'Thumbnails' }).getByRole('button', { name: 'Page 1', exact: true });
    await expect(thumb1.locator('img')).toHaveJSProperty('complete', true, { timeout: 30_000 });
    expect(await thumb1.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
    await thumb1.tap();
    await expect(pdfCanvas(page, 1)).toBeVisible();
    for (const name of ['Previous page', 'Next page', 'Zoom in', 'Zoom out', 'Fit width', 'Fit page', 'Thumbnails', 'Page 1']) {
      const box = await page.getByRole('button', { name, exact: true }).first().boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.height, name).toBeGreaterThanOrEqual(44);
      expect(box!.width, name).toBeGreaterThanOrEqual(44);
    }
    for (const size of [{ width: 768, height: 1024 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await expect(pdfCanvas(page, 1)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `overflow at ${size.width}`).toBeLessThanOrEqual(0);
      const canvas = (await pdfCanvas(page, 1).boundingBox())!;
      expect(canvas.x + canvas.width).toBeLessThanOrEqual(size.width);
    }
  });
});
