/**
 * The viewer's indexer panel and advanced links (issue 12 items 2 and 6), against the built app and the
 * real server: a document opened from the grid shows its fields beside the pages; a changed field is
 * saved through the outbox (on the server with one history entry, still there after a reload, and in
 * the grid); an invalid value is refused with its message and not saved; an edit made offline waits in
 * the outbox and arrives once when back online; a user without the edit right reads only; an
 * advanced link opens its filled address in a new tab with no opener. @touch: at tablet portrait
 * size the panel is under the pages, closed at first, opened by its button, with 44 px controls.
 */
import type { Page } from '@playwright/test';
import { signIn, waitForServiceWorker, withServiceWorker } from './support';
import { apiToken, expectTapTarget, mustPut, openResults, prepareInvoice, updatedCount } from './editing-support';
import { A, F, expect, gridRows, test, val } from './grid-support';

const panel = (page: Page) => page.getByRole('complementary', { name: 'Index fields' });
const field = (page: Page, name: string) => panel(page).getByLabel(name, { exact: true });

/** Opens the document from its grid row (the row menu's Open document) and waits for its fields. */
async function openFromGrid(page: Page, title: string): Promise<void> {
  const row = gridRows(page).filter({ hasText: title }).first();
  await row.locator('td').nth(3).click({ button: 'right' });
  await page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'Open document', exact: true }).click();
  await expect(page).toHaveURL(/\/viewer\//);
  await expect(field(page, 'Title')).toHaveValue(title, { timeout: 20_000 });
}

test.describe('indexer panel in the viewer', () => {
  test('change a field beside the pages: saved through the outbox, kept after a reload, seen in the grid; an invalid value is refused', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 11, 'h1idx');
    try {
      await signIn(page, 'user');
      await openResults(page, { searchId: 1, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await openFromGrid(page, inv.mark);
      const before = await updatedCount(request, token, inv.doc);

      // Beside the pages, every field of the archive; the current field (the first editable) is marked.
      await expect(panel(page)).toBeVisible();
      await expect(page.getByTestId('indexer-current')).toHaveText('Filling: Title');
      await expect(panel(page).locator('[data-current]')).toContainText('Title');
      for (const name of ['Invoice Number', 'Document Date', 'Amount', 'Department', 'Customer', 'Status', 'Account Code']) await expect(field(page, name)).toBeVisible();
      // System fields are read-only; a table field shows its rows.
      await expect(field(page, 'Indexed By')).toHaveAttribute('readonly', '');
      await expect(panel(page).getByRole('group', { name: 'Item, Quantity, Unit Price' })).toBeVisible();
      // Focus makes a field the current one.
      await field(page, 'Status').click();
      await expect(page.getByTestId('indexer-current')).toHaveText('Filling: Status');

      // A number field refuses letters: its message, and Save keeps it from the server.
      await field(page, 'Invoice Number').fill('12ab');
      await field(page, 'Invoice Number').press('Tab');
      await expect(panel(page).getByText('Invalid integer or decimal value')).toBeVisible();
      await expect(field(page, 'Invoice Number')).toHaveAttribute('aria-invalid', 'true');
      await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
      await expect(panel(page).getByRole('alert')).toContainText('Not all rows could be saved.');
      await panel(page).getByRole('button', { name: 'Discard invalid entries' }).click();
      await expect(field(page, 'Invoice Number')).toHaveValue(val(inv.doc, F.invoiceNumber));

      // A valid change: pending at once, then on the server, the mark gone.
      const status = `Seen ${Date.now().toString(36)}`;
      await field(page, 'Status').fill(status);
      await field(page, 'Status').press('Tab');
      await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
      await expect(panel(page).locator('.edit-panel-field[data-pending]')).toHaveCount(0, { timeout: 20_000 });
      await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 20_000 }).toBe(status);
      expect(val(await inv.fetch(), F.invoiceNumber)).toBe(val(inv.doc, F.invoiceNumber));
      expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);

      // A reload fetches the document's values again: the saved one is there.
      await page.reload();
      await expect(field(page, 'Status')).toHaveValue(status, { timeout: 20_000 });
      // And the grid shows it.
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(page).toHaveURL(/\/results\//);
      await expect(gridRows(page).filter({ hasText: inv.mark }).first()).toContainText(status);
    } finally {
      await inv.restore();
    }
  });

  test.describe('with the service worker', () => {
    test.use(withServiceWorker);

    test('offline: the edit waits in the outbox, survives a reload and arrives once when back online', async ({ page, request, context }) => {
      const token = await apiToken(request, 'user');
      const inv = await prepareInvoice(request, token, 12, 'h1off');
      try {
        await signIn(page, 'user');
        await openResults(page, { searchId: 1, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
        await openFromGrid(page, inv.mark);
        await waitForServiceWorker(page);
        const before = await updatedCount(request, token, inv.doc);
        const status = `Off ${Date.now().toString(36)}`;

        await context.setOffline(true);
        try {
          await field(page, 'Status').fill(status);
          await field(page, 'Status').press('Tab');
          await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
          const pending = panel(page).locator('.edit-panel-field[data-pending]').filter({ has: page.getByLabel('Status', { exact: true }) });
          await expect(pending).toHaveAttribute('data-pending', /queued|sending/);
          await expect(field(page, 'Status')).toHaveAttribute('aria-description', 'Saved on this device, waiting to be sent');
          // The document's values were kept on the device: after a reload offline the edit still waits.
          await page.reload();
          await expect(field(page, 'Status')).toHaveValue(status, { timeout: 20_000 });
          await expect(pending).toHaveAttribute('data-pending', /queued|sending/);
        } finally {
          await context.setOffline(false);
        }
        // The server has it (the panel may be drawn anew as the page comes back online, and a panel not
        // drawn has no field waiting either, so the marker's absence alone says nothing).
        await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 30_000 }).toBe(status);
        await expect(field(page, 'Status')).not.toHaveAttribute('aria-description', 'Saved on this device, waiting to be sent', { timeout: 30_000 });
        await expect(panel(page).locator('.edit-panel-field[data-pending]')).toHaveCount(0);
        expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
        // Nothing is sent twice later.
        await page.reload();
        await expect(field(page, 'Status')).toHaveValue(status, { timeout: 20_000 });
        expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
      } finally {
        await inv.restore();
      }
    });
  });

  test('a value that arrives without keystrokes (filled in, pasted) enables Save at once, the input still focused; Cancel restores it, Save writes it', async ({ page, request, context }) => {
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 21, 'h1paste');
    try {
      await signIn(page, 'user');
      await page.goto(`/viewer/${inv.doc.Hash}?archive=${A.invoices}&Id=${inv.doc.Id}&db=1`);
      await expect(field(page, 'Title')).toHaveValue(inv.mark, { timeout: 20_000 });
      const before = await updatedCount(request, token, inv.doc);
      const stored = val(inv.doc, F.status);
      const save = panel(page).getByRole('button', { name: 'Save', exact: true });
      const cancel = panel(page).getByRole('button', { name: 'Cancel', exact: true });
      await expect(save).toBeDisabled();

      // fill(): one input event, no key events (as autofill).
      await field(page, 'Status').fill('Filled in');
      await expect(field(page, 'Status')).toBeFocused();
      await expect(save).toBeEnabled();
      await expect(cancel).toBeEnabled();
      await expect(page.getByTestId('indexer-status')).toHaveText('Unsaved changes');
      await cancel.click();
      await expect(field(page, 'Status')).toHaveValue(stored);
      await expect(save).toBeDisabled();

      // Pasted from the clipboard, the input still focused.
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const status = `Pasted ${Date.now().toString(36)}`;
      await field(page, 'Status').click();
      await field(page, 'Status').selectText();
      await page.evaluate((text) => navigator.clipboard.writeText(text), status);
      await page.keyboard.press('ControlOrMeta+v');
      await expect(field(page, 'Status')).toHaveValue(status);
      await expect(save).toBeEnabled();
      // Put in by a script or an input method: an input event only, no paste or key events.
      const typed = `${status} more`;
      await field(page, 'Status').evaluate((el, v) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, typed);
      await expect(save).toBeEnabled();
      await expect(field(page, 'Status')).toBeFocused();
      await save.click();
      await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 20_000 }).toBe(typed);
      expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
      await expect(save).toBeDisabled();
    } finally {
      await inv.restore();
    }
  });

  test('a user without the edit right reads the fields only', async ({ page, request }) => {
    const userToken = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, userToken, 13, 'h1ro');
    try {
      await signIn(page, 'viewer');
      await page.goto(`/viewer/${inv.doc.Hash}?archive=${A.invoices}&Id=${inv.doc.Id}&db=1`);
      await expect(field(page, 'Title')).toHaveValue(inv.mark, { timeout: 20_000 });
      await expect(panel(page).getByText('Read only: you may not change the index fields of this document.')).toBeVisible();
      await expect(field(page, 'Status')).toHaveAttribute('readonly', '');
      await expect(panel(page).getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    } finally {
      await inv.restore();
    }
  });

  test("an advanced link opens the archive's template filled with the document's values, in a new tab without an opener", async ({ page, request, context }) => {
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 14, 'h1link');
    const customer = 'Wayne Enterprises';
    await mustPut(request, token, inv.doc, [{ ID: F.customer, VAL: customer }]);
    // The CRM is not ours: its page is answered here.
    await context.route('https://crm.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>CRM</title><p>CRM</p>' }));
    try {
      await signIn(page, 'user');
      await openResults(page, { searchId: 1, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await openFromGrid(page, inv.mark);

      await panel(page).getByRole('button', { name: 'Links (1)' }).click();
      const link = page.getByRole('link', { name: 'Customer in CRM' });
      const expected = `https://crm.example.com/search?q=${encodeURIComponent(customer)}&doc=${inv.doc.Id}&archive=${A.invoices}`;
      await expect(link).toHaveAttribute('href', expected);
      await expect(link).toHaveAttribute('rel', /noopener/);
      const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await tab.waitForLoadState();
      expect(tab.url()).toBe(expected);
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    } finally {
      await context.unroute('https://crm.example.com/**');
      await inv.restore();
    }
  });

  test('@touch at tablet portrait size: the panel is under the pages, opened and closed by its button', async ({ page, request }) => {
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 15, 'h1tab');
    try {
      await page.setViewportSize({ width: 768, height: 1024 });
      await signIn(page, 'user');
      // In a tab of its own (no grid row): the fields are fetched for the document.
      await page.goto(`/viewer/${inv.doc.Hash}?archive=${A.invoices}&Id=${inv.doc.Id}&db=1`);
      const show = page.getByRole('button', { name: 'Show index fields' });
      await expect(show).toBeVisible({ timeout: 20_000 });
      await expect(show).toHaveAttribute('aria-expanded', 'false');
      await expect(field(page, 'Title')).toBeHidden();
      await expectTapTarget(show, 'Show index fields');
      await show.tap();
      await expect(field(page, 'Title')).toHaveValue(inv.mark, { timeout: 20_000 });
      const area = (await page.locator('.viewer-area').boundingBox())!;
      const box = (await panel(page).boundingBox())!;
      expect(box.y, 'the panel is under the pages').toBeGreaterThanOrEqual(area.y + area.height - 1);
      expect(box.y + box.height).toBeLessThanOrEqual(1024 + 1);
      expect(area.height, 'the pages keep room').toBeGreaterThan(200);
      // No sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);

      await field(page, 'Status').tap();
      await expect(page.getByTestId('indexer-current')).toHaveText('Filling: Status');
      await expectTapTarget(field(page, 'Status'), 'Status');
      const status = `Tablet ${Date.now().toString(36)}`;
      await field(page, 'Status').fill(status);
      // Leaving the field judges it (as in the grid's edit panel); then Save.
      await field(page, 'Title').tap();
      await panel(page).getByRole('button', { name: 'Save', exact: true }).tap();
      await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 20_000 }).toBe(status);

      await page.getByRole('button', { name: 'Hide index fields' }).tap();
      await expect(field(page, 'Title')).toBeHidden();
    } finally {
      await inv.restore();
    }
  });
});
