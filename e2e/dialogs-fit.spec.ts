/**
 * Every dialog fits a tablet in portrait in German (the longest words of the seven languages): each
 * dialog the results grid and the inbox open (copy, move, delete, merge, e-mail, export, export to
 * Excel, bulk update, the question before Close editing drops a change, send to archive), opened at
 * 768x1024 in de-DE, has no sideways scrolling and lies inside the viewport; the burst's archive choice is docked beside (landscape) or below
 * (portrait) the pages being indexed, never over them. Nothing is sent: each dialog is closed with
 * Escape. Screenshots of each go to test-results/dialogs-fit (looked at by hand).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, S, checkCell, expect, gridRow, test } from './grid-support';
import { apiToken, getSearch, openResults, searchDocs, signInAs, texts, uniqueMark } from './editing-support';

const t = texts('de');
const shots = (name: string) => `test-results/dialogs-fit/${name}.png`;

/** The open dialog has no sideways scrolling (nor any part of it) and lies inside the viewport. */
async function expectFits(page: Page, what: string): Promise<void> {
  const dialog = page.locator('dialog[open]');
  await expect(dialog, what).toHaveCount(1);
  await expect(dialog).toBeVisible();
  await dialog.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: shots(what) });
  const m = await dialog.evaluate((el) => {
    const r = el.getBoundingClientRect();
    // Any part that scrolls sideways (a scroll box whose content is wider than it).
    const wide = [el, ...Array.from(el.querySelectorAll('*'))]
      .filter((c) => c.scrollWidth > c.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(c).overflowX))
      .map((c) => `${c.tagName.toLowerCase()}.${c.className}: ${c.scrollWidth} > ${c.clientWidth}`);
    // Any control that sticks out of the dialog's box.
    const out = Array.from(el.querySelectorAll('button, input, select, textarea, label'))
      .filter((c) => {
        const b = c.getBoundingClientRect();
        return b.width > 0 && (b.left < r.left - 1 || b.right > r.right + 1);
      })
      .map((c) => `${c.tagName.toLowerCase()} "${(c.textContent ?? '').trim().slice(0, 30)}"`);
    return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, left: r.left, right: r.right, top: r.top, bottom: r.bottom, vw: innerWidth, vh: innerHeight, wide, out };
  });
  expect(m.scrollWidth, `${what}: the dialog's content is no wider than its box`).toBeLessThanOrEqual(m.clientWidth);
  expect(m.wide, `${what}: nothing in it scrolls sideways`).toEqual([]);
  expect(m.out, `${what}: no control sticks out of it`).toEqual([]);
  expect(m.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(m.top, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(m.right, `${what}: right edge`).toBeLessThanOrEqual(m.vw);
  expect(m.bottom, `${what}: bottom edge`).toBeLessThanOrEqual(m.vh);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}


/** A file of the user's own in Scans (a copy of an Outgoing document), named with a mark: its name. */
async function scansFile(request: APIRequestContext, token: string): Promise<string> {
  const d = (await searchDocs(request, token, { searchId: S.correspondence, archiveId: A.outgoing, rpp: 50, sort: `${F.title}:asc` })).Docs.find((x) => x.ArchiveId === A.outgoing)!;
  const put = await request.put('/api/inboxes/1', { params: { token }, data: { DatabaseId: 1, ArchiveId: A.outgoing, DocId: d.Id, SecureId: d.Hash, DeleteOriginal: false } });
  expect(put.status(), await put.text()).toBe(200);
  const { FileName } = (await put.json()) as { FileName: string };
  // A long name, as scanners make them: it must wrap in the dialog's title, not widen it.
  const name = `${uniqueMark('dialogs-fit')}-Eingangsrechnung-Lieferantenbuchhaltung${FileName.slice(FileName.lastIndexOf('.'))}`;
  const rename = await request.post('/api/inboxes/1', { params: { token, FilePath: FileName, newFileName: name } });
  expect(rename.status(), await rename.text()).toBe(200);
  return name;
}

test.describe('dialogs fit a portrait tablet in German', () => {
  test.use({ viewport: { width: 768, height: 1024 }, locale: 'de-DE' });

  test('the results and inbox dialogs: no sideways scrolling, inside the viewport', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request, 'user');
    await signInAs(page, 'user', t);
    const search = await getSearch(request, token, 1, S.allInvoices);
    await openResults(page, { searchId: S.allInvoices, hash: search.Hash, archiveId: A.invoices, criteria: [] });
    await checkCell(page, 0).click();
    await checkCell(page, 1).click();
    const actions = page.getByRole('group', { name: t('DOCUMENTS_ACTIONS'), exact: true });
    for (const key of ['DOCUMENTS_COPY', 'DOCUMENTS_MOVE', 'DOCUMENTS_DELETE', 'DOCUMENTS_MERGE']) {
      await actions.getByRole('button', { name: t(key), exact: true }).click();
      await expectFits(page, key);
    }
    const exports = page.getByRole('group', { name: t('EXPORT_ACTIONS'), exact: true });
    for (const key of ['EXPORT_BUTTON', 'EXPORT_EXCEL_BUTTON']) {
      await exports.getByRole('button', { name: t(key), exact: true }).click();
      await expectFits(page, key);
    }
    await page.getByRole('button', { name: t('BULK_UPDATE_BUTTON'), exact: true }).click();
    await expectFits(page, 'BULK_UPDATE_BUTTON');
    // Not the e-mail form: these servers have no mail set up, so E-mail says so instead of opening it.
    // Close editing with an unsaved change asks first.
    await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).click();
    await gridRow(page, 0).locator('td').nth(3).click();
    await page.getByRole('button', { name: t('EDIT_ROW'), exact: true }).click();
    const panel = page.locator('#edit-panel');
    await panel.getByRole('textbox', { name: 'Status', exact: true }).fill('Nicht gespeichert');
    await panel.getByRole('button', { name: t('EDIT_PANEL_CLOSE'), exact: true }).click();
    await expectFits(page, 'EDIT_CLOSE_UNSAVED');

    const file = await scansFile(request, token);
    try {
      await page.goto('/results/Inbox?db=1&inboxId=1&rpp=1000');
      const row = page.locator('.results-grid .ht_master tbody tr').filter({ hasText: file });
      await expect(row).toHaveCount(1, { timeout: 20_000 });
      await row.locator('td').filter({ has: page.locator('input.results-check') }).click();
      await page.getByRole('toolbar', { name: t('INBOX_ACTIONS'), exact: true }).getByRole('button', { name: t('INBOX_SEND'), exact: true }).click();
      // With its fields (the archive's fields load after the dialog opens).
      await expect(page.locator('dialog[open]').getByRole('group', { name: t('INBOX_INDEX_VALUES') }).getByRole('textbox').first()).toBeVisible();
      await expectFits(page, 'INBOX_SEND');
    } finally {
      await request.delete('/api/inboxes/1', { params: { token, FilePath: file } });
    }
  });

  for (const size of [
    { width: 768, height: 1024, name: 'portrait' },
    { width: 1024, height: 768, name: 'landscape' },
  ]) {
    test(`burst (${size.name}): the archive choice is docked, the pages being indexed stay in view; nothing scrolls sideways`, async ({ page, request }) => {
      await page.setViewportSize(size);
      const token = await apiToken(request, 'user');
      const d = (await searchDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, rpp: 5 })).Docs.find((x) => x.ArchiveId === A.invoices)!;
      const made = await request.get('/api/files', { params: { token, action: 'burst', db: 1, archive: A.invoices, Id: d.Id, SecureId: d.Hash, RequestedPages: 1 } });
      expect(made.status(), await made.text()).toBe(200);
      const { ImportDoc } = (await made.json()) as { ImportDoc: string };
      try {
        await signInAs(page, 'user', t);
        await page.goto(`/view?db=1&ImportDoc=${ImportDoc}&RequestedPages=1&deleteBurstedPages=false&ogArchive=${A.invoices}&ogDoc=${d.Id}`);
        const choice = page.getByRole('region', { name: t('BURST_ARCHIVE_CHOICE'), exact: true });
        await expect(choice.getByRole('group', { name: t('INBOX_INDEX_VALUES') }).getByRole('textbox').first()).toBeVisible({ timeout: 20_000 });
        await expect(page.locator('dialog[open]')).toHaveCount(0);
        const pageImage = page.getByRole('list', { name: t('BURST_INDEX_PAGES') }).getByRole('img').first();
        await expect(pageImage).toBeVisible();
        await expect.poll(() => pageImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        await page.screenshot({ path: shots(`burst-${size.name}`) });
        const c = (await choice.boundingBox())!;
        const p = (await pageImage.boundingBox())!;
        expect(c.x + c.width, 'the choice inside the viewport').toBeLessThanOrEqual(size.width);
        expect(c.y + c.height, 'the choice inside the viewport').toBeLessThanOrEqual(size.height + 1);
        if (size.name === 'landscape') {
          // Beside the page: no overlap.
          expect(c.x, 'the choice is right of the page').toBeGreaterThanOrEqual(p.x + p.width);
        } else {
          // A sheet at the bottom over which the pages scroll: the top of the page is in view above it.
          expect(c.y, 'the top of the page stays in view above the choice').toBeGreaterThan(p.y + 100);
          expect(c.height, 'the choice leaves room for the page').toBeLessThanOrEqual(size.height * 0.6);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').toBeLessThanOrEqual(size.width);
        expect(await choice.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        // Its Cancel puts it away; the page brings it back.
        await choice.getByRole('button', { name: t('RESULTS_CANCEL'), exact: true }).click();
        await expect(choice).toBeHidden();
        await page.getByRole('button', { name: t('BURST_CHOOSE_ARCHIVE'), exact: true }).click();
        await expect(choice).toBeVisible();
      } finally {
        await request.delete('/api/files', { params: { token, fileName: ImportDoc } });
      }
    });
  }
});
