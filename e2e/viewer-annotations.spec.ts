/**
 * Rotation, notes and stamps in the viewer (issue 12 item 3) against the built app and the real
 * server: a TIFF page and a PDF page turned by Rotate right/left are drawn turned (landscape) and
 * stay so after a reload; stamps with @Today and @User are placed by a click on the page, read
 * 'RECEIVED <date> <h:mm AM|PM>' and 'Reviewed by user', reach the server through the outbox and are
 * still there after a reload (one placed by the keyboard: Enter on the page); a note is added, moved with the arrow keys and removed; a user without
 * the annotation right (clerk, 2048) and the read-only licence (viewer) see the tools disabled with
 * the reason. The grid's thumbnail of a document whose first page was turned shows it turned (its
 * address carries the page's ThumbVersion, so the browser's cached picture is not reused). A @touch
 * case at iPad size: the stamp placed by tapping, 44 px tools, no overflow.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, S, apiDocs, expect, gridRows, openDemo, test, val } from './grid-support';
import { apiToken } from './editing-support';

interface Info {
  Id: number;
  Archive: number;
  Hash: string;
  FileType?: string | null;
  Pages?: number;
}

/** The invoices the user sees, with their type and pages (from the viewer session call), newest last. */
async function invoices(request: APIRequestContext, token: string): Promise<Info[]> {
  const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, rpp: 100 });
  const made = await request.post('/api/session', { headers: { 'Auth-Token': token }, data: { Database: 1, Documents: listed.Docs.map((d) => ({ Archive: d.ArchiveId ?? A.invoices, Id: d.Id, Hash: d.Hash })) } });
  expect(made.status()).toBe(200);
  const got = await request.get(`/api/session/${((await made.json()) as { Id: string }).Id}`, { headers: { 'Auth-Token': token } });
  return ((await got.json()) as { Documents: Info[] }).Documents;
}

/** Documents far down the list, so no other browser test uses them (they are turned and stamped here). */
const pick = (all: Info[], type: 'PDF' | 'TIF', nth: number) => all.filter((d) => (d.FileType ?? '').toUpperCase().startsWith(type) && (d.Pages ?? 0) >= 2).reverse()[nth]!;
const open = (page: Page, d: Info) => page.goto(`/viewer/${d.Hash}?archive=${d.Archive}&Id=${d.Id}&db=1`);
const pdfCanvas = (page: Page, n = 1) => page.locator(`.viewer-pdf-page[data-page="${n}"][data-rendered] canvas`);
const tiffImage = (page: Page, n = 1) => page.locator(`.viewer-image-page[data-page="${n}"][data-rendered] img`);
const layer = (page: Page) => page.getByTestId('annotation-layer');

async function serverAnnotations(request: APIRequestContext, token: string, d: Info) {
  const r = await request.get(`/api/dbs/1/archives/${d.Archive}/documents/${d.Id}/annotations?SecureId=${d.Hash}`, { headers: { 'Auth-Token': token } });
  expect(r.status()).toBe(200);
  return ((await r.json()) as { Annotations: { Id: string; Kind: string; Text: string; X: number; Y: number; Page: number }[] }).Annotations;
}

test.describe('viewer: rotate, notes and stamps', () => {
  test('Rotate right turns a TIFF page and Rotate left a PDF page; both stay turned after a reload', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const all = await invoices(request, token);
    const tiff = pick(all, 'TIF', 0);
    const pdf = pick(all, 'PDF', 0);
    await openDemo(page, 'user');

    await open(page, tiff);
    await expect(tiffImage(page)).toBeVisible({ timeout: 20_000 });
    const before = await tiffImage(page).evaluate((i: HTMLImageElement) => ({ w: i.naturalWidth, h: i.naturalHeight }));
    expect(before.h).toBeGreaterThan(before.w);
    await page.getByRole('button', { name: 'Rotate right' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Page 1 turned.' })).toBeVisible({ timeout: 20_000 });
    await expect.poll(async () => tiffImage(page).evaluate((i: HTMLImageElement) => i.naturalWidth > i.naturalHeight), { timeout: 20_000 }).toBe(true);
    await page.reload();
    await expect(tiffImage(page)).toBeVisible({ timeout: 20_000 });
    expect(await tiffImage(page).evaluate((i: HTMLImageElement) => i.naturalWidth > i.naturalHeight)).toBe(true);

    await open(page, pdf);
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    const portrait = (await pdfCanvas(page).boundingBox())!;
    expect(portrait.height).toBeGreaterThan(portrait.width);
    await page.getByRole('button', { name: 'Rotate left' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Page 1 turned.' })).toBeVisible({ timeout: 20_000 });
    await expect.poll(async () => {
      const b = await pdfCanvas(page).boundingBox();
      return b !== null && b.width > b.height;
    }, { timeout: 20_000 }).toBe(true);
    await page.reload();
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    const after = (await pdfCanvas(page).boundingBox())!;
    expect(after.width).toBeGreaterThan(after.height);
  });

  test("the grid's thumbnail of a document whose first page was turned shows it turned, not the browser's cached picture", async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    // One whose page's writing is clearly taller than wide on the thumbnail (the demo's pages each
    // show their own fields, so how much is written differs), so that a turn shows.
    const tiff = pick(await invoices(request, token), 'TIF', 5);
    const listed = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, rpp: 100 });
    const number = val(listed.Docs.find((d) => d.Id === tiff.Id)!, F.invoiceNumber);
    const search = (await (await request.get(`/api/dbs/1/searches/${S.allInvoices}`, { params: { token } })).json()) as { Hash: string; Detail: { ID: number; Prompt: string }[] };
    const prompt = search.Detail.find((d) => d.Prompt === 'Invoice Number')!;
    await openDemo(page, 'user');
    await page.goto(`/results/${search.Hash}?Id=${S.allInvoices}&db=1&archive=${A.invoices}&criteria=${encodeURIComponent(JSON.stringify([{ ID: prompt.ID, VAL: number }]))}`);
    const thumb = gridRows(page).filter({ hasText: number }).first().locator('img.results-thumb');
    // The size of what is drawn on the thumbnail (its non-white pixels): a turned page swaps it.
    const drawn = () =>
      thumb.evaluate((i: HTMLImageElement) => {
        if (!i.complete || i.naturalWidth === 0) return null;
        const c = document.createElement('canvas');
        c.width = i.naturalWidth;
        c.height = i.naturalHeight;
        const g = c.getContext('2d')!;
        g.drawImage(i, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let [x0, y0, x1, y1] = [c.width, c.height, -1, -1];
        for (let y = 0; y < c.height; y++)
          for (let x = 0; x < c.width; x++) {
            const k = (y * c.width + x) * 4;
            if (d[k]! < 200 || d[k + 1]! < 200 || d[k + 2]! < 200) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
          }
        return { w: x1 - x0 + 1, h: y1 - y0 + 1 };
      });
    await expect.poll(drawn, { timeout: 20_000 }).not.toBeNull();
    const before = (await drawn())!;
    expect(Math.abs(before.w - before.h), 'a page whose turn shows on the thumbnail').toBeGreaterThan(6);
    const turned = await request.post('/api/Processing', { headers: { 'Auth-Token': token }, data: { db: 1, archive: tiff.Archive, doc: tiff.Id, secureId: tiff.Hash, angle: 90, page: 1 } });
    expect(turned.status(), await turned.text()).toBe(200);
    await page.reload();
    await expect
      .poll(async () => {
        const now = await drawn();
        return now !== null && Math.abs(now.w - before.h) <= 3 && Math.abs(now.h - before.w) <= 3;
      }, { timeout: 20_000, message: 'the thumbnail drawn turned' })
      .toBe(true);
  });

  test('stamps with @Today and @User, and a note: placed, saved, still there after a reload; moved and removed', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const pdf = pick(await invoices(request, token), 'PDF', 1);
    await openDemo(page, 'user');
    await open(page, pdf);
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });

    const stampMenu = page.getByRole('button', { name: 'Stamp', exact: true });
    await stampMenu.click();
    const menu = page.getByRole('menu', { name: 'Stamps' });
    // Alphabetical, as the server lists them.
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items).toEqual([...items].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    await menu.getByRole('menuitem', { name: 'RECEIVED @Today' }).click();
    await expect(page.getByText('Tap the page where the stamp goes.')).toBeVisible();
    await layer(page).click({ position: { x: 60, y: 80 } });
    const received = page.locator('.annotation-stamp').filter({ hasText: /^RECEIVED \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (AM|PM)$/ });
    await expect(received).toBeVisible();

    await stampMenu.click();
    await menu.getByRole('menuitem', { name: 'Reviewed by @User' }).click();
    await layer(page).click({ position: { x: 60, y: 220 } });
    const reviewed = page.locator('.annotation-stamp').filter({ hasText: 'Reviewed by user' });
    await expect(reviewed).toBeVisible();
    // Red outline, Arial, and bigger on a bigger page (its size is a share of the page's width).
    expect(await reviewed.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(211, 47, 47)');
    expect(await reviewed.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^Arial/);
    const small = await reviewed.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => reviewed.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThan(small * 1.2);
    await page.getByRole('button', { name: 'Fit width' }).click();

    // By keyboard: Enter on the page places the chosen stamp at its top left.
    await stampMenu.click();
    await menu.getByRole('menuitem', { name: 'PAID', exact: true }).click();
    await layer(page).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.annotation-stamp').filter({ hasText: /^PAID$/ })).toBeVisible();

    // A note: Add note, click, type, Save.
    await page.getByRole('button', { name: 'Add note' }).click();
    await layer(page).click({ position: { x: 200, y: 400 } });
    await page.getByRole('textbox', { name: 'Note text' }).fill('Ask Jane about the total');
    await page.getByRole('button', { name: 'Save note' }).click();
    const note = page.getByRole('button', { name: /^Note: Ask Jane about the total/ });
    await expect(note).toBeVisible();

    // Through the outbox to the server.
    await expect.poll(async () => (await serverAnnotations(request, token, pdf)).map((a) => a.Text).sort(), { timeout: 20_000 }).toEqual(
      expect.arrayContaining(['Ask Jane about the total', 'PAID', 'Reviewed by user', expect.stringMatching(/^RECEIVED /)]),
    );
    await page.reload();
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.annotation-stamp').filter({ hasText: 'Reviewed by user' })).toBeVisible();
    await expect(page.locator('.annotation-stamp').filter({ hasText: /^RECEIVED / })).toBeVisible();

    // Move the note with the keyboard, then remove it.
    const x0 = (await serverAnnotations(request, token, pdf)).find((a) => a.Kind === 'text')!.X;
    await note.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => (await serverAnnotations(request, token, pdf)).find((a) => a.Kind === 'text')!.X, { timeout: 20_000 }).toBeCloseTo(x0 + 0.05, 3);
    await note.click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(note).toHaveCount(0);
    await expect.poll(async () => (await serverAnnotations(request, token, pdf)).some((a) => a.Kind === 'text'), { timeout: 20_000 }).toBe(false);
  });

  test('without the annotation right (clerk) the note and stamp tools are disabled with the reason', async ({ page, request }) => {
    const token = await apiToken(request, 'clerk');
    const pdf = pick(await invoices(request, token), 'PDF', 2);
    await openDemo(page, 'clerk');
    await open(page, pdf);
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Add note' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Stamp', exact: true })).toBeDisabled();
    await expect(page.getByText('You do not have permission to annotate documents of this archive.')).toBeVisible();
    // clerk may edit: turning pages stays possible.
    await expect(page.getByRole('button', { name: 'Rotate right' })).toBeEnabled();
  });

  test('the read-only licence (viewer): every tool disabled with the reason', async ({ page, request }) => {
    // A TIFF: its pages come as images (view right); a PDF's file call also asks for export (128), which the viewer lacks.
    const tiff = pick(await invoices(request, await apiToken(request, 'user')), 'TIF', 2);
    await openDemo(page, 'viewer');
    await open(page, tiff);
    await expect(tiffImage(page)).toBeVisible({ timeout: 20_000 });
    for (const name of ['Add note', 'Stamp', 'Rotate left', 'Rotate right']) await expect(page.getByRole('button', { name, exact: true })).toBeDisabled();
    await expect(page.getByText('Your licence is read-only.').first()).toBeVisible();
  });
});

test.describe('viewer annotations offline', () => {
  test('offline: rotating says it needs the server; a stamp is kept in the outbox and reaches the server once back online', async ({ page, context, request }) => {
    const token = await apiToken(request, 'user');
    const pdf = pick(await invoices(request, token), 'PDF', 4);
    await openDemo(page, 'user');
    await open(page, pdf);
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    await context.setOffline(true);
    try {
      await expect(page.getByRole('button', { name: 'Rotate right' })).toBeDisabled();
      await expect(page.getByText('Turning a page needs a connection to the server.')).toBeVisible();
      await page.getByRole('button', { name: 'Stamp', exact: true }).click();
      await page.getByRole('menuitem', { name: 'CONFIDENTIAL' }).click();
      await layer(page).click({ position: { x: 80, y: 120 } });
      await expect(page.locator('.annotation-stamp').filter({ hasText: 'CONFIDENTIAL' })).toBeVisible();
      // Not sent: the server has none yet, the outbox holds it.
      await page.waitForTimeout(1000);
      expect((await serverAnnotations(request, token, pdf)).map((a) => a.Text)).not.toContain('CONFIDENTIAL');
      expect(await page.evaluate(() => new Promise<number>((resolve) => {
        const open = indexedDB.open('archive-app');
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readonly');
          const all = tx.objectStore('outbox').getAll();
          all.onsuccess = () => resolve((all.result as { kind: string; state: string }[]).filter((e) => e.kind === 'annotation' && e.state !== 'done').length);
        };
      }))).toBe(1);
    } finally {
      await context.setOffline(false);
    }
    await expect.poll(async () => (await serverAnnotations(request, token, pdf)).filter((a) => a.Text === 'CONFIDENTIAL').length, { timeout: 30_000 }).toBe(1);
    await expect(page.locator('.annotation-stamp').filter({ hasText: 'CONFIDENTIAL' })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Rotate right' })).toBeEnabled();
  });
});

test.describe('viewer annotations on a tablet @touch', () => {
  test('tap a stamp onto the page; 44 px tools; fits portrait', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const pdf = pick(await invoices(request, token), 'PDF', 3);
    await openDemo(page, 'user');
    await open(page, pdf);
    await expect(pdfCanvas(page)).toBeVisible({ timeout: 20_000 });
    for (const name of ['Rotate left', 'Rotate right', 'Add note', 'Stamp']) {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.height, name).toBeGreaterThanOrEqual(44);
      expect(box.width, name).toBeGreaterThanOrEqual(44);
    }
    await page.getByRole('button', { name: 'Stamp', exact: true }).tap();
    await page.getByRole('menuitem', { name: 'APPROVED' }).tap();
    await layer(page).tap({ position: { x: 40, y: 60 } });
    await expect(page.locator('.annotation-stamp').filter({ hasText: 'APPROVED' })).toBeVisible();
    await expect.poll(async () => (await serverAnnotations(request, token, pdf)).map((a) => a.Text), { timeout: 20_000 }).toContain('APPROVED');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
