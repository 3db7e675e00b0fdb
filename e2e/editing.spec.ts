/**
 * Index editing in the results grid (issue 4 item 3), against the real server: edit mode, cell
 * editing with validation, Save through the outbox (pending, then the server's value and one
 * 'updated' history entry), Cancel, the viewer without edit rights, and an offline edit that
 * survives a reload and arrives once.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { waitForServiceWorker, withServiceWorker } from './support';
import { cell, editCell, uniqueMark, updatedCount } from './editing-support';
import { A, F, S, apiDocs, expect, gridRow, openDemo, resultsQuery, runSearch, test, val, waitForCachedPage, type Doc } from './grid-support';

const gridKey = `search|${S.allInvoices}|${A.invoices}`;
// The values typed here carry a mark of this test run: a document that already holds one (a second
// run on the same server, another test's edit) still gets a real change, a history entry to count.
let run = '';
const typed = (text: string) => `${text} ${run}`;

async function openAllInvoices(page: Page, who: 'user' | 'viewer' = 'user'): Promise<{ token: string; criteria: string }> {
  const token = await openDemo(page, who);
  await runSearch(page);
  await expect(page.getByTestId('results-count')).toBeVisible();
  return { token, criteria: resultsQuery(page).get('criteria') ?? '' };
}

async function docById(request: APIRequestContext, token: string, criteria: string, id: number): Promise<Doc> {
  const p = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
  const d = p.Docs.find((x) => x.Id === id);
  expect(d, `document ${id} on page 1`).toBeDefined();
  return d!;
}

const editToggle = (page: Page) => page.getByRole('button', { name: 'Edit', exact: true });

test.describe('index editing in the results grid', () => {
  test.beforeEach(() => {
    run = uniqueMark('grid');
  });

  test('edit a character and a number field, Save: pending at once, then on the server with one history entry', async ({ page, request, context }) => {
    const { token, criteria } = await openAllInvoices(page);
    const first = (await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria })).Docs[0]!;
    await expect(gridRow(page, 0)).toContainText(val(first, F.title));
    const before = await updatedCount(request, token, first);

    await expect(editToggle(page)).toHaveAttribute('aria-pressed', 'false');
    await editToggle(page).click();
    await expect(editToggle(page)).toHaveAttribute('aria-pressed', 'true');
    // System fields stay read-only in edit mode.
    await expect(await cell(page, 0, 'Title')).not.toHaveAttribute('aria-readonly', 'true');

    // Hold the PUT until the pending mark has been seen.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await context.route('**/FieldData**', async (route) => {
      await gate;
      await route.continue();
    });

    await editCell(page, 0, 'Title', typed('Edited in the grid'));
    await editCell(page, 0, 'Invoice Number', '-4711');
    await expect(await cell(page, 0, 'Title')).toHaveAttribute('data-edit', 'dirty');
    await expect(page.getByTestId('edit-status')).toHaveText('Unsaved rows: 1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const title = await cell(page, 0, 'Title');
    await expect(title).toContainText(typed('Edited in the grid'));
    await expect(title).toHaveAttribute('data-edit', 'pending');
    await expect(title).toHaveAttribute('aria-description', /waiting to be sent/);
    await expect(await cell(page, 0, 'Invoice Number')).toContainText('-4711');
    release();

    await expect.poll(async () => val(await docById(request, token, criteria, first.Id), F.title), { timeout: 30_000 }).toBe(typed('Edited in the grid'));
    expect(val(await docById(request, token, criteria, first.Id), F.invoiceNumber)).toBe('-4711');
    // The page is revalidated: no pending mark, the server's values.
    await expect(await cell(page, 0, 'Title')).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
    await expect(await cell(page, 0, 'Title')).toContainText(typed('Edited in the grid'));
    expect(await updatedCount(request, token, first)).toBe(before + 1);

    // A second edit of the same field does not conflict with the first.
    await editCell(page, 0, 'Title', typed('Edited twice'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => val(await docById(request, token, criteria, first.Id), F.title), { timeout: 30_000 }).toBe(typed('Edited twice'));
    expect(await updatedCount(request, token, first)).toBe(before + 2);
  });

  test('an invalid number shows its message and is not saved; Cancel discards after a warning', async ({ page, request }) => {
    const { token, criteria } = await openAllInvoices(page);
    const second = (await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria })).Docs[1]!;
    const before = await updatedCount(request, token, second);
    await editToggle(page).click();

    await editCell(page, 1, 'Invoice Number', '12-3');
    const num = await cell(page, 1, 'Invoice Number');
    await expect(num).toHaveAttribute('aria-invalid', 'true');
    await expect(num).toContainText('Invalid integer or decimal value');

    // Save refuses: the alert, nothing sent, still in edit mode.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not all rows could be saved.' });
    await expect(alert).toBeVisible();
    await alert.getByRole('button', { name: 'Keep editing' }).click();
    // Turning edit off with the invalid row: the same alert, edit mode stays on.
    await editToggle(page).click();
    await expect(alert).toBeVisible();
    await expect(editToggle(page)).toHaveAttribute('aria-pressed', 'true');
    await alert.getByRole('button', { name: 'Keep editing' }).click();

    // A valid edit next to it, then Cancel: warned about the invalid entry, then everything discarded.
    await editCell(page, 1, 'Title', 'Never saved');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard changes?' });
    await expect(dialog).toContainText('invalid entries (1)');
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByText('Changes were not saved.')).toBeVisible();
    await expect(await cell(page, 1, 'Title')).toContainText(val(second, F.title));
    await expect(await cell(page, 1, 'Invoice Number')).not.toHaveAttribute('aria-invalid', 'true');

    await editToggle(page).click();
    await expect(editToggle(page)).toHaveAttribute('aria-pressed', 'false');
    const after = await docById(request, token, criteria, second.Id);
    expect(val(after, F.title)).toBe(val(second, F.title));
    expect(val(after, F.invoiceNumber)).toBe(val(second, F.invoiceNumber));
    expect(await updatedCount(request, token, second)).toBe(before);
  });

  test('turning edit off saves the dirty rows', async ({ page, request }) => {
    const { token, criteria } = await openAllInvoices(page);
    const doc = (await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria })).Docs[3]!;
    await editToggle(page).click();
    await editCell(page, 3, 'Title', typed('Saved by leaving edit mode'));
    await editToggle(page).click();
    await expect(editToggle(page)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => val(await docById(request, token, criteria, doc.Id), F.title), { timeout: 30_000 }).toBe(typed('Saved by leaving edit mode'));
  });

  test('the viewer (no edit right) has no Edit toggle', async ({ page }) => {
    await openAllInvoices(page, 'viewer');
    await expect(gridRow(page, 0)).toBeVisible();
    await expect(page.getByRole('button', { name: 'History', exact: true })).toBeVisible();
    await expect(editToggle(page)).toHaveCount(0);
  });

  test.describe('with the service worker', () => {
    test.use(withServiceWorker);

    test('offline: edit and Save, reload (still pending from the outbox), online: the value arrives once', async ({ page, context, request }) => {
      const { token, criteria } = await openAllInvoices(page);
      const doc = (await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria })).Docs[2]!;
      await expect(gridRow(page, 2)).toContainText(val(doc, F.title));
      const before = await updatedCount(request, token, doc);
      await waitForCachedPage(page, { gridKey, page: 1 });
      await waitForServiceWorker(page);

      await context.setOffline(true);
      try {
        await editToggle(page).click();
        await editCell(page, 2, 'Title', typed('Edited offline'));
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect(await cell(page, 2, 'Title')).toHaveAttribute('data-edit', 'pending');

        await page.reload();
        await expect(gridRow(page, 2)).toContainText(typed('Edited offline'));
        await expect(await cell(page, 2, 'Title')).toHaveAttribute('data-edit', 'pending');
      } finally {
        await context.setOffline(false);
      }
      await expect.poll(async () => val(await docById(request, token, criteria, doc.Id), F.title), { timeout: 20_000 }).toBe(typed('Edited offline'));
      await expect(await cell(page, 2, 'Title')).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
      expect(await updatedCount(request, token, doc)).toBe(before + 1);
      // Nothing is sent twice later (another online event, a reload).
      await page.reload();
      await expect(gridRow(page, 2)).toContainText(typed('Edited offline'));
      expect(await updatedCount(request, token, doc)).toBe(before + 1);
    });
  });
});
