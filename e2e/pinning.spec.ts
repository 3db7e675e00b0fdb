/**
 * Keep offline (issue 12 item 7) against the built app, its service worker and the real server: a PDF
 * kept from a row's menu and the rest of the page from the header are fetched in the background (the
 * tray says how far, the grid marks the rows); with the connection cut, a reload of the viewer opens
 * the PDF (drawn from the stored file) and a TIFF (its stored page images) with their thumbnails, and
 * says they come from the device; the indexer beside the TIFF reads its kept index data and an edit
 * made offline arrives once when back online; a document not kept says there is no connection. Removing a document
 * removes its stored parts. A @touch case at tablet size keeps a page with a tap and reads a kept TIFF
 * offline in portrait.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, apiDocs, expect, gridRows, openDemo, runSearch, test, val, type Doc } from './grid-support';
import { apiToken, mustPut, updatedCount } from './editing-support';
import { waitForServiceWorker, withServiceWorker } from './support';
import { describeDocs, ink, type SessionDoc } from './viewer-support';

/** The pins and their parts as stored in IndexedDB (Dexie `pins`, `pinParts`). */
function stored(page: Page): Promise<{ pins: { key: string; state: string; done: number; total: number }[]; parts: { pin: string; kind: string; page: number; size: number }[] }> {
  return page.evaluate(async () => {
    const open = indexedDB.open('archive-app');
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = <T,>(name: string) =>
      new Promise<T[]>((resolve, reject) => {
        const r = idb.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result as T[]);
        r.onerror = () => reject(r.error);
      });
    const pins = await all<{ key: string; state: string; done: number; total: number }>('pins');
    const parts = (await all<{ pin: string; kind: string; page: number; blob?: Blob }>('pinParts')).map((p) => ({ pin: p.pin, kind: p.kind, page: p.page, size: p.blob?.size ?? 0 }));
    idb.close();
    return { pins: pins.map((p) => ({ key: p.key, state: p.state, done: p.done, total: p.total })), parts };
  });
}

/** The document's index data on the server now (GET .../documents/{id}/fields). */
async function serverDoc(request: APIRequestContext, token: string, d: Doc): Promise<Doc> {
  const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/fields`, { headers: { 'Auth-Token': token }, params: { SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Docs: Doc[] }).Docs[0]!;
}

/** The key of a document kept by `user` (each user's kept documents are their own). */
const keyOf = (d: SessionDoc, owner = 'user') => `${owner}|1|${d.Archive}|${d.Id}`;
const viewerUrl = (d: SessionDoc) => `/viewer/${d.Hash}?archive=${d.Archive}&Id=${d.Id}&db=1`;
const pdfCanvas = (page: Page) => page.locator('.viewer-pdf-page[data-page="1"][data-rendered] canvas');
const tiffImage = (page: Page) => page.locator('.viewer-image-page[data-page="1"][data-rendered] img');

async function expectAllKept(page: Page, docs: SessionDoc[], owner = 'user') {
  await expect
    .poll(async () => {
      const s = await stored(page);
      return docs.map((d) => s.pins.find((p) => p.key === keyOf(d, owner))?.state ?? 'none');
    }, { timeout: 180_000, message: 'every document of the page kept' })
    .toEqual(docs.map(() => 'done'))
    .catch(async (e: unknown) => {
      console.log('PINS', JSON.stringify((await stored(page)).pins), 'WANTED', JSON.stringify(docs.map((d) => keyOf(d, owner))));
      throw e;
    });
}

async function expectThumbnail(page: Page, n: number) {
  const img = page.getByRole('navigation', { name: 'Thumbnails' }).getByRole('button', { name: `Page ${n}`, exact: true }).locator('img');
  await expect(img).toHaveJSProperty('complete', true, { timeout: 30_000 });
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  expect(await img.getAttribute('src')).toMatch(/^blob:/);
}

test.describe('keep offline', () => {
  test.use(withServiceWorker);

  test('a PDF and a TIFF kept from the grid open offline after a reload, with thumbnails; a document not kept says there is no connection', async ({ page, context, request }) => {
    test.setTimeout(360_000);
    const token = await openDemo(page, 'user');
    const criteria = await runSearch(page);
    await expect(page.getByTestId('results-count')).toBeVisible();
    // The first page of ten rows that holds a TIFF and, near its top, a PDF of two pages or more.
    const allDocs = (await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, criteria, rpp: 100 })).Docs;
    const all = await describeDocs(request, token, allDocs);
    const pageNo = Array.from({ length: 10 }, (_, i) => i + 1).find((p) => {
      const on = all.slice((p - 1) * 10, p * 10);
      return on.some((d) => d.FileType === 'TIF') && on.some((d, i) => i < 8 && d.FileType === 'PDF' && (d.Pages ?? 0) >= 2);
    });
    expect(pageNo, `a page with a TIFF and a PDF: ${JSON.stringify(all.map((d) => d.FileType))}`).toBeTruthy();
    for (let p = 1; p < pageNo!; p++) await page.getByRole('navigation', { name: /pages/i }).getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('button', { name: `Page ${pageNo}`, exact: true })).toHaveAttribute('aria-current', 'page');
    const resultsUrl = page.url();
    const info = all.slice((pageNo! - 1) * 10, pageNo! * 10);
    // The page's rows, not the last page's kept on screen while it loads.
    await expect(gridRows(page).first()).toContainText(val(allDocs[(pageNo! - 1) * 10]!, F.title));
    const pdfAt = info.findIndex((d, i) => i < 8 && d.FileType === 'PDF' && (d.Pages ?? 0) >= 2);
    const tiff = info.find((d) => d.FileType === 'TIF');
    const other = all[pageNo! * 10] ?? all[0]!;
    const pdf = info[pdfAt]!;

    // The PDF from its row's menu.
    const row = gridRows(page).nth(pdfAt);
    await row.locator('td').nth(3).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: /^Actions for / });
    await expect(menu.getByRole('menuitem').first()).toHaveText('Open document');
    await menu.getByRole('menuitem', { name: 'Keep offline', exact: true }).click();
    await expect(row.locator('.results-row-badge')).toHaveText(/Offline|Saving/, { timeout: 30_000 });
    await expectAllKept(page, [pdf]);
    await expect(row.locator('.results-row-badge')).toHaveText('Offline', { timeout: 30_000 });
    // The rest of the page from the header.
    await page.getByRole('button', { name: 'Keep page offline' }).click();
    await expect(page.getByRole('button', { name: 'Keep page offline' })).toBeDisabled({ timeout: 30_000 });
    await expectAllKept(page, info);
    await expect(gridRows(page).locator('.results-row-badge').filter({ hasText: 'Offline' })).toHaveCount(Math.min(info.length, await gridRows(page).count()));

    const s = await stored(page);
    const partsOf = (d: SessionDoc) => s.parts.filter((p) => p.pin === keyOf(d));
    expect(partsOf(pdf).filter((p) => p.kind === 'file').length).toBe(1);
    expect(partsOf(pdf).filter((p) => p.kind === 'thumb').length).toBe(pdf.Pages);
    expect(partsOf(tiff!).filter((p) => p.kind === 'page').length).toBe(tiff!.Pages);
    expect(partsOf(tiff!).filter((p) => p.kind === 'thumb').length).toBe(tiff!.Pages);
    expect(partsOf(tiff!).every((p) => p.kind === 'words' || p.size > 0)).toBe(true);

    // The tray: what is kept, and the space it takes.
    await page.getByTestId('header-notifications').click();
    await expect(page.getByTestId('pin-summary')).toContainText(`Kept on this device: ${info.length} documents`);
    await page.getByTestId('header-notifications').click();

    // A document of the next page is not kept.
    expect(s.pins.some((p) => p.key === keyOf(other))).toBe(false);

    // Open the PDF online once (the viewer's chunks and pdf.js are then in hand), then cut the network.
    await page.goto(viewerUrl(pdf));
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('viewer-pinned')).toContainText('Kept on this device');
    await waitForServiceWorker(page);
    const pdfAddress = page.url();

    const tiffDoc = allDocs.find((d) => d.Id === tiff!.Id)!;
    const editsBefore = await updatedCount(request, token, tiffDoc);
    const mark = `Kept ${Date.now().toString(36)}`;
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(pdfCanvas(page)).toBeVisible({ timeout: 30_000 });
      expect(await ink(pdfCanvas(page))).toBeGreaterThan(0.001);
      await expect(page.getByTestId('viewer-pinned')).toContainText('No connection: shown from this device');
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect(page.locator('.viewer-pdf-page[data-page="2"][data-rendered] canvas')).toBeVisible();
      await page.getByRole('button', { name: 'Thumbnails' }).click();
      await expectThumbnail(page, 1);
      await expectThumbnail(page, 2);
      expect(page.url()).toBe(pdfAddress);

      // The TIFF, opened offline by its address: its stored pages and thumbnails.
      await page.goto(viewerUrl(tiff!));
      await expect(tiffImage(page)).toBeVisible({ timeout: 30_000 });
      expect(await tiffImage(page).getAttribute('src')).toMatch(/^blob:/);
      expect(await ink(tiffImage(page))).toBeGreaterThan(0.001);
      await page.getByRole('button', { name: 'Thumbnails' }).click();
      await expectThumbnail(page, 1);
      if ((tiff!.Pages ?? 1) > 1) {
        await page.getByRole('button', { name: 'Next page' }).click();
        await expect(page.locator('.viewer-image-page[data-page="2"][data-rendered] img')).toBeVisible();
      }
      // Never opened online in the viewer: its notes and stamps follow the rights kept with it.
      await expect(page.getByRole('button', { name: 'Add note', exact: true })).toBeEnabled({ timeout: 30_000 });
      await expect(page.getByText('Your rights on this archive are not known yet.')).toHaveCount(0);

      // The indexer beside it reads the kept index data; an edit waits in the outbox.
      const panel = page.getByRole('complementary', { name: 'Index fields' });
      const title = panel.getByLabel('Title', { exact: true });
      await expect(title).toHaveValue(val(tiffDoc, F.title), { timeout: 20_000 });
      await title.fill(mark);
      await title.press('Tab');
      await panel.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(title).toHaveAttribute('aria-description', 'Saved on this device, waiting to be sent');

      // Not kept: no connection, as before.
      await page.goto(viewerUrl(other));
      await expect(page.getByRole('alert')).toContainText('there is no connection to the server');
      await expect(page.getByTestId('viewer-pinned')).toHaveCount(0);
    } finally {
      await context.setOffline(false);
    }
    // Back online the edit arrives, once.
    try {
      await expect.poll(async () => val(await serverDoc(request, token, tiffDoc), F.title), { timeout: 30_000 }).toBe(mark);
      expect(await updatedCount(request, token, tiffDoc)).toBe(editsBefore + 1);
      await page.reload();
      await expect(page.getByRole('complementary', { name: 'Index fields' }).getByLabel('Title', { exact: true })).toHaveValue(/./, { timeout: 20_000 });
      expect(await updatedCount(request, token, tiffDoc)).toBe(editsBefore + 1);
    } finally {
      await mustPut(request, token, tiffDoc, [{ ID: F.title, VAL: val(tiffDoc, F.title) }]);
    }

    // Remove from device: the record and every stored part go.
    await page.goto(resultsUrl);
    await expect(gridRows(page).first()).toBeVisible({ timeout: 20_000 });
    for (let p = 1; p < pageNo!; p++) await page.getByRole('navigation', { name: /pages/i }).getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('button', { name: `Page ${pageNo}`, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(gridRows(page).first()).toContainText(val(allDocs[(pageNo! - 1) * 10]!, F.title));
    await gridRows(page).nth(pdfAt).locator('td').nth(3).click({ button: 'right' });
    await page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'Remove from device', exact: true }).click();
    await expect.poll(async () => (await stored(page)).parts.filter((p) => p.pin === keyOf(pdf)).length).toBe(0);
    expect((await stored(page)).pins.some((p) => p.key === keyOf(pdf))).toBe(false);
    await expect(gridRows(page).nth(pdfAt).locator('.results-row-badge')).toHaveCount(0);
  });
});

test.describe('keep offline on a shared device', () => {
  test("the next user signing in on the same browser finds none of the last one's kept documents, and keeps their own apart", async ({ page, request }) => {
    test.setTimeout(240_000);
    const keepFirstRow = async () => {
      await gridRows(page).first().locator('td').nth(3).click({ button: 'right' });
      await page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'Keep offline', exact: true }).click();
    };
    const token = await openDemo(page, 'user');
    const criteria = await runSearch(page);
    const first = (await describeDocs(request, token, (await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, criteria, rpp: 10 })).Docs.slice(0, 1)))[0]!;
    await expect(gridRows(page).first()).toBeVisible({ timeout: 20_000 });
    await keepFirstRow();
    await expectAllKept(page, [first]);
    expect((await stored(page)).parts.filter((p) => p.pin === keyOf(first)).length).toBeGreaterThan(0);

    // user signs out; clerk signs in on the same browser: nothing user kept is on the device any more.
    await page.goto('/logout');
    await expect(page.getByLabel('User name')).toBeVisible();
    await openDemo(page, 'clerk');
    await expect.poll(async () => (await stored(page)).pins.map((p) => p.key)).toEqual([]);
    expect((await stored(page)).parts).toEqual([]);
    await runSearch(page);
    await expect(gridRows(page).first()).toBeVisible({ timeout: 20_000 });
    await expect(gridRows(page).first().locator('.results-row-badge')).toHaveCount(0);
    await page.getByTestId('header-notifications').click();
    await expect(page.getByTestId('pin-summary')).toHaveCount(0);
    await page.getByTestId('header-notifications').click();

    // clerk's own copy of the same document is kept under clerk's name.
    await keepFirstRow();
    await expectAllKept(page, [first], 'clerk');
    expect((await stored(page)).pins.map((p) => p.key)).toEqual([keyOf(first, 'clerk')]);
    await expect(gridRows(page).first().locator('.results-row-badge')).toHaveText('Offline', { timeout: 30_000 });
  });
});

test.describe('keep offline on a tablet @touch', () => {
  test.use(withServiceWorker);

  test('keep a page with a tap; a kept TIFF opens offline in portrait with its thumbnails', async ({ page, context, request }) => {
    test.setTimeout(360_000);
    const token = await apiToken(request, 'user');
    await openDemo(page, 'user');
    const criteria = await runSearch(page);
    const allDocs = (await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, criteria, rpp: 100 })).Docs;
    const all = await describeDocs(request, token, allDocs);
    const pageNo = Math.floor(all.findIndex((d) => d.FileType === 'TIF') / 10) + 1;
    expect(pageNo, 'a TIFF among the first 100').toBeGreaterThan(0);
    for (let p = 1; p < pageNo; p++) await page.getByRole('navigation', { name: /pages/i }).getByRole('button', { name: 'Next page' }).tap();
    await expect(page.getByRole('button', { name: `Page ${pageNo}`, exact: true })).toHaveAttribute('aria-current', 'page');
    const info = all.slice((pageNo - 1) * 10, pageNo * 10);
    const tiff = info.find((d) => d.FileType === 'TIF');
    await expect(gridRows(page).first()).toContainText(val(allDocs[(pageNo - 1) * 10]!, F.title));
    const keep = page.getByRole('button', { name: 'Keep page offline' });
    const box = (await keep.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await keep.tap();
    await expectAllKept(page, info);
    await page.goto(viewerUrl(tiff!));
    await expect(tiffImage(page)).toBeVisible({ timeout: 30_000 });
    await waitForServiceWorker(page);
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(tiffImage(page)).toBeVisible({ timeout: 30_000 });
      expect(await ink(tiffImage(page))).toBeGreaterThan(0.001);
      await expect(page.getByTestId('viewer-pinned')).toContainText('No connection: shown from this device');
      await page.getByRole('button', { name: 'Thumbnails' }).tap();
      await expectThumbnail(page, 1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } finally {
      await context.setOffline(false);
    }
  });
});
