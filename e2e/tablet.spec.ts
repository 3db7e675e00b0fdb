/**
 * The results grid as a new user meets it on a tablet and on the desktop (issue 8, items 8, 10, 11):
 * the 600x800 preview drawn sharp for the screen, the row menu on right-click and long-press (not the
 * preview again), finger-sized row selection on touch with 30 px rows kept on the desktop, and the
 * edit panel as a sheet over the grid in portrait, beside it in landscape. The tests only read the
 * default page of All Invoices (the edit panel is opened, nothing is changed).
 */
import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect, grid, gridRow, openDemo, runSearch, test } from './grid-support';
import { cell, texts } from './editing-support';

const t = texts('en');

/** The row menu of an invoice for the user; these servers have no mail set up, so E-mail says so under its name. */
const ROW_MENU_ITEMS = [t('RESULTS_MENU_OPEN_DOCUMENT'), t('RESULTS_THUMB_OPEN'), t('RESULTS_MENU_HISTORY'), t('EDIT_ROW'), t('DOCUMENTS_COPY'), t('DOCUMENTS_MOVE'), t('DOCUMENTS_DELETE'), t('DOCUMENTS_EMAIL') + t('DOCUMENTS_EMAIL_NOT_SET_UP'), t('DOCUMENTS_SEND_TO_INBOX'), t('DOCUMENTS_DOWNLOAD'), t('RESULTS_MENU_BURST'), t('PIN_KEEP')];

/** All Invoices as the user; 25 rows a page (the search screen's default is 10) so that the grid scrolls. */
async function openInvoices(page: Page): Promise<void> {
  await openDemo(page, 'user');
  await runSearch(page);
  const url = new URL(page.url());
  url.searchParams.set('rpp', '25');
  await page.goto(url.toString());
  await expect(gridRow(page, 0)).toBeVisible();
  await expect(page.getByRole('combobox', { name: t('RESULTS_PAGE_SIZE') })).toHaveValue('25');
}

async function box(l: Locator, what: string) {
  const b = await l.boundingBox();
  expect(b, what).not.toBeNull();
  return b!;
}

/** The preview dialog of row 0: its image at 600x800 CSS px (or smaller to fit the viewport), drawn from an image of at least 600 device px per 600 CSS px. */
async function expectSharpPreview(page: Page) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const img = dialog.getByRole('img');
  // A fresh server renders each page once, in one worker thread, behind the grid's own thumbnails.
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { timeout: 30_000 }).toBeGreaterThan(0);
  const { natural, shown, dpr, vw, vh } = await img.evaluate(async (el: HTMLImageElement) => {
    const r = el.getBoundingClientRect();
    // The pixels of the image the browser chose (naturalWidth divides a srcset 2x candidate by 2).
    const probe = new Image();
    probe.src = el.currentSrc;
    await probe.decode();
    return { natural: { w: probe.naturalWidth, h: probe.naturalHeight }, shown: { w: r.width, h: r.height, x: r.x, y: r.y }, dpr: devicePixelRatio, vw: innerWidth, vh: innerHeight };
  });
  // Drawn for the screen: one image pixel (at least) per device pixel, in the 3:4 of 600x800.
  expect(natural.w).toBeGreaterThanOrEqual(600 * dpr);
  expect(natural.h * 3).toBe(natural.w * 4);
  expect(Math.abs(shown.h * 3 - shown.w * 4)).toBeLessThanOrEqual(4);
  if (vh >= 1000) expect([Math.round(shown.w), Math.round(shown.h)]).toEqual([600, 800]);
  else expect(shown.w).toBeLessThanOrEqual(600);
  // Fits the viewport, with the dialog's Close button on screen too.
  expect(shown.x).toBeGreaterThanOrEqual(0);
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.x + shown.w).toBeLessThanOrEqual(vw);
  expect(shown.y + shown.h).toBeLessThanOrEqual(vh);
  await expect(dialog.getByRole('button', { name: t('CLOSE') })).toBeInViewport();
  return dialog;
}

/** A finger held on the element's centre until `until` holds, then lifted (Chromium's touch input over CDP). */
async function longPress(cdp: CDPSession, target: Locator, until: () => Promise<void>) {
  const b = await box(target, 'long-press target');
  const point = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  try {
    await until();
  } finally {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
}

/** The distance between two rows' tops: the row height, borders included once. */
async function rowPitch(page: Page): Promise<number> {
  const [a, b] = [await box(gridRow(page, 1), 'row 1'), await box(gridRow(page, 2), 'row 2')];
  return Math.round(b.y - a.y);
}

const rowMenu = (page: Page) => page.getByRole('menu', { name: /^Actions for / });

test.describe('results grid on the desktop', () => {
  test('rows stay 30 px; right-click opens the row menu (not the preview), keyboard-operable, Escape gives focus back', async ({ page }) => {
    await openInvoices(page);
    expect(await rowPitch(page)).toBe(30);
    const check = gridRow(page, 0).locator('td').filter({ has: page.locator('input.results-check') });
    await check.click();
    await expect(check.getByRole('checkbox')).toBeChecked();
    await check.getByRole('checkbox').click({ force: true });
    await expect(check.getByRole('checkbox')).not.toBeChecked();

    await gridRow(page, 0).locator('td.results-thumb-cell').click({ button: 'right' });
    const menu = rowMenu(page);
    await expect(menu).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(menu.getByRole('menuitem')).toHaveText(ROW_MENU_ITEMS);
    const items = menu.getByRole('menuitem');
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(items.last()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.results-grid'))).toBe(true);

    // From the keyboard: Shift+F10 on the selected cell, ArrowDown past "Open document", Enter on "Open preview".
    await (await cell(page, 1, 'Title')).click();
    await page.keyboard.press('Shift+F10');
    await expect(menu).toBeVisible();
    await expect(items.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toHaveText(t('RESULTS_THUMB_OPEN'));
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    const dialog = await expectSharpPreview(page);
    await dialog.getByRole('button', { name: t('CLOSE') }).click();
    await expect(dialog).toBeHidden();

    // "Document history" shows the row's history; "Edit row" turns edit mode on with the row in the panel.
    await (await cell(page, 2, 'Title')).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: t('RESULTS_MENU_HISTORY') }).click();
    const sidebar = page.getByRole('complementary', { name: t('HISTORY_SIDEBAR') });
    await expect(sidebar.getByRole('list', { name: 'Document history' }).getByRole('listitem').first()).toBeVisible();
    const title = ((await (await cell(page, 2, 'Title')).textContent()) ?? '').trim();
    await (await cell(page, 2, 'Title')).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: t('EDIT_ROW') }).click();
    await expect(page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('complementary', { name: t('EDIT_PANEL', { title }) })).toBeVisible();
  });
});

test.describe('results grid on a touch tablet @touch', () => {
  test('44 px row selection targets; a tapped thumbnail opens the sharp 600x800 preview; a long-press opens the row menu @touch', async ({ page }) => {
    await openInvoices(page);
    const row = gridRow(page, 0);
    const check = row.locator('td').filter({ has: page.locator('input.results-check') });
    const target = await box(check, 'check cell');
    expect(target.width).toBeGreaterThanOrEqual(44);
    expect(target.height).toBeGreaterThanOrEqual(44);
    expect(await rowPitch(page)).toBe(44);
    await check.tap();
    await expect(check.getByRole('checkbox')).toBeChecked();
    await check.tap();
    await expect(check.getByRole('checkbox')).not.toBeChecked();

    await row.locator('td.results-thumb-cell').tap();
    const dialog = await expectSharpPreview(page);
    await dialog.getByRole('button', { name: t('CLOSE') }).tap();
    await expect(dialog).toBeHidden();

    // A long-press on the thumbnail: the menu, not the preview; lifting the finger chooses nothing.
    const cdp = await page.context().newCDPSession(page);
    const menu = rowMenu(page);
    await longPress(cdp, gridRow(page, 1).locator('td.results-thumb-cell'), () => expect(menu).toBeVisible());
    await expect(menu.getByRole('menuitem')).toHaveText(ROW_MENU_ITEMS);
    for (const item of await menu.getByRole('menuitem').all()) expect((await box(item, 'menu item')).height).toBeGreaterThanOrEqual(44);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitem', { name: t('RESULTS_THUMB_OPEN') }).tap();
    await expect(menu).toBeHidden();
    await (await expectSharpPreview(page)).getByRole('button', { name: t('CLOSE') }).tap();

    // On a row's check cell: the menu, and the row is not selected by it.
    await longPress(cdp, gridRow(page, 2).locator('td').filter({ has: page.locator('input.results-check') }), () => expect(menu).toBeVisible());
    await expect(gridRow(page, 2).getByRole('checkbox')).not.toBeChecked();
    // A tap outside closes it.
    await page.getByRole('heading', { level: 1 }).tap();
    await expect(menu).toBeHidden();
  });

  test('portrait: the edit panel is a sheet over the grid naming its row, previous/next move rows, closing gives the grid back @touch', async ({ page }) => {
    await openInvoices(page);
    await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
    // The grid scrolled down a few rows first: closing the sheet must leave it there.
    const holder = grid(page).locator('.ht_master .wtHolder');
    await holder.evaluate((el) => (el.scrollTop = 150));
    await expect.poll(() => holder.evaluate((el) => el.scrollTop)).toBe(150);
    // What the user sees: a row in the viewport, and where it is. (The first row Handsontable renders is
    // not it: how many rows it renders above the viewport depends on the moment it measured.)
    const rowIndex = await gridRow(page, 4).evaluate((tr) => Number(tr.getAttribute('aria-rowindex')));
    const seenRow = grid(page).locator(`.ht_master .htCore tbody tr[aria-rowindex="${rowIndex}"]`);
    // Where in the grid's viewport (not the page's: the toolbar above may wrap differently once a
    // transient status has gone, which moves the whole grid and says nothing about its scroll).
    const rowInGrid = () =>
      seenRow.evaluate((tr) => Math.round(tr.getBoundingClientRect().top - tr.closest('.wtHolder')!.getBoundingClientRect().top));
    const seenAt = await rowInGrid();
    const titleOf = async (i: number) => ((await (await cell(page, i, 'Title')).textContent()) ?? '').trim();
    const titles = [await titleOf(4), await titleOf(5), await titleOf(6)];

    await (await cell(page, 5, 'Title')).tap();
    const sheet = page.getByRole('complementary', { name: /^Edit / });
    await expect(sheet).toHaveAccessibleName(t('EDIT_PANEL', { title: titles[1]! }));
    const s = await box(sheet, 'sheet');
    expect([s.x, s.y, s.width, s.height]).toEqual([0, 0, 768, 1024]);
    await expect(sheet.getByRole('heading', { name: t('EDIT_PANEL', { title: titles[1]! }) })).toBeFocused();
    const position = sheet.getByTestId('edit-panel-position');
    const n = await position.textContent();
    // The grid and the toolbar are under the sheet; Save and Cancel are in it.
    await expect(sheet.getByRole('button', { name: t('EDIT_SAVE'), exact: true })).toBeInViewport();
    await expect(page.getByRole('button', { name: t('EDIT_SAVE'), exact: true })).toHaveCount(1);

    await sheet.getByRole('button', { name: t('EDIT_PANEL_NEXT') }).tap();
    await expect(sheet).toHaveAccessibleName(t('EDIT_PANEL', { title: titles[2]! }));
    await expect(sheet.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(titles[2]!);
    await expect(position).not.toHaveText(n ?? '');
    await sheet.getByRole('button', { name: t('EDIT_PANEL_PREVIOUS') }).tap();
    await sheet.getByRole('button', { name: t('EDIT_PANEL_PREVIOUS') }).tap();
    await expect(sheet).toHaveAccessibleName(t('EDIT_PANEL', { title: titles[0]! }));
    for (const name of [t('EDIT_PANEL_PREVIOUS'), t('EDIT_PANEL_NEXT'), t('EDIT_PANEL_CLOSE')]) {
      const b = await box(sheet.getByRole('button', { name, exact: true }), name);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }

    await sheet.getByRole('button', { name: t('EDIT_PANEL_CLOSE') }).tap();
    await expect(sheet).toBeHidden();
    await expect(grid(page)).toBeInViewport();
    // The grid may still be re-rendering after the sheet closes: wait for what the user sees.
    await expect.poll(() => holder.evaluate((el) => el.scrollTop)).toBe(150);
    // Within a pixel: the header's height may round differently after the re-render; a row that
    // moved would be off by a row (44 px).
    await expect.poll(async () => Math.abs((await rowInGrid()) - seenAt)).toBeLessThanOrEqual(1);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.results-grid'))).toBe(true);
    // The toolbar's edit controls are back.
    await expect(page.getByRole('button', { name: t('EDIT_SAVE'), exact: true })).toBeInViewport();
  });

  test('landscape (1024x768): the edit panel sits beside the grid, which stays in view @touch', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await openInvoices(page);
    await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
    const title = ((await (await cell(page, 1, 'Title')).textContent()) ?? '').trim();
    await (await cell(page, 1, 'Title')).tap();
    const panel = page.getByRole('complementary', { name: t('EDIT_PANEL', { title }) });
    await expect(panel).toBeVisible();
    await expect(panel).toBeInViewport();
    await expect(grid(page)).toBeInViewport();
    const g = await box(grid(page), 'grid');
    const p = await box(panel, 'panel');
    expect(p.x).toBeGreaterThanOrEqual(g.x + g.width);
    expect(g.width).toBeGreaterThan(500);
    expect(p.width).toBeLessThan(400);
    await expect(gridRow(page, 1)).toBeInViewport();
    await expect(panel.getByRole('button', { name: t('EDIT_PANEL_NEXT') })).toBeVisible();
  });
});
