/**
 * Index editing on a touch tablet (issue 4; the tablet-touch project: 768x1024 with touch, tests
 * whose title has @touch): in edit mode a tapped row opens the labelled edit panel (in-cell editors
 * fight the on-screen keyboard), its controls have names and 44 px targets, values typed there are
 * judged like cell edits, saved through the outbox and shown in the grid and on the server; Cancel
 * leaves nothing dirty. Each test edits its own invoice (editing-support.ts prepareInvoice).
 */
import type { Locator, Page } from '@playwright/test';
import { F, S, A, expect, gridRow, test, val } from './grid-support';
import { apiToken, cell, expectTapTarget, openResults, prepareInvoice, signInAs, texts, typeAndLeaveAtOnce, updatedCount, type Translate } from './editing-support';

/** Taps the row's Title cell in edit mode; returns the edit panel it opens. */
async function openPanel(page: Page, t: Translate, title: string): Promise<Locator> {
  await (await cell(page, 0, 'Title')).tap();
  const panel = page.getByRole('complementary', { name: t('EDIT_PANEL', { title }) });
  await expect(panel).toBeVisible();
  // Under the grid on a portrait tablet: the panel is brought into view, or the tap seems to do nothing.
  await expect(panel).toBeInViewport({ ratio: 0.3 });
  return panel;
}

test.describe('index editing on a touch tablet @touch', () => {
  test('tap a row in edit mode: the edit panel with named 44 px controls; typed values judged, saved, shown in the grid and on the server @touch', async ({ page, request }) => {
    test.setTimeout(120_000);
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 6, 'touch');
    try {
      const before = await updatedCount(request, token, inv.doc);
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await expect(gridRow(page, 0)).toContainText(inv.mark);

      const toggle = page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true });
      await toggle.tap();
      await expect(toggle).toHaveAttribute('aria-pressed', 'true');
      for (const key of ['EDIT_TOGGLE', 'EDIT_SAVE', 'EDIT_CANCEL', 'EDIT_ROW']) await expectTapTarget(page.getByRole('button', { name: t(key), exact: true }), t(key));

      const panel = await openPanel(page, t, inv.mark);
      const title = panel.getByRole('textbox', { name: 'Title', exact: true });
      const number = panel.getByRole('textbox', { name: 'Invoice Number', exact: true });
      const date = panel.getByRole('textbox', { name: 'Document Date', exact: true });
      const amount = panel.getByRole('textbox', { name: 'Amount', exact: true });
      const department = panel.getByRole('combobox', { name: 'Department', exact: true });
      const close = panel.getByRole('button', { name: t('EDIT_PANEL_CLOSE'), exact: true });
      for (const [what, control] of [['Title', title], ['Invoice Number', number], ['Document Date', date], ['Amount', amount], ['Department', department], ['Close', close]] as const) {
        await expectTapTarget(control, what);
      }
      // Every control of the panel has an accessible name.
      for (const control of await panel.locator('input, select, textarea, button').all()) {
        const name = await control.evaluate((el) => {
          const labelled = (el as HTMLInputElement).labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent;
          return (labelled ?? '').trim();
        });
        expect(name, await control.evaluate((el) => el.outerHTML.slice(0, 120))).not.toBe('');
      }
      // Read-only fields (system fields) are shown, not editable.
      await expect(panel.getByRole('textbox', { name: 'Date Entered', exact: true })).toHaveAttribute('readonly', '');
      await expect(number).toHaveAttribute('inputmode', 'numeric');
      await expect(amount).toHaveAttribute('inputmode', 'decimal');

      // Typed by tapping and the on-screen keyboard: letters in a number stay there and are flagged
      // when the input is left (c175fc5: never silently dropped), then corrected.
      await number.tap();
      await number.fill('');
      await number.pressSequentially('98a7x6');
      await expect(number).toHaveValue('98a7x6');
      await date.tap();
      await expect(number).toHaveAttribute('aria-invalid', 'true');
      await expect(number).toHaveAccessibleDescription(t('FIELD_INVALID_NUMBER'));
      await number.tap();
      await number.fill('9876');
      await date.tap();
      await expect(number).not.toHaveAttribute('aria-invalid', 'true');
      await date.fill('13/45/2026');
      await amount.tap();
      await expect(date).toHaveAttribute('aria-invalid', 'true');
      await expect(date).toHaveAccessibleDescription('Invalid date');
      await date.tap();
      await date.fill('12/24/2026');
      await amount.tap();
      await expect(date).not.toHaveAttribute('aria-invalid', 'true');
      await amount.fill('1,234.5');
      await title.tap();
      // Each value is judged when its input is left: the grid marks the cell unsaved.
      for (const column of ['Invoice Number', 'Document Date', 'Amount']) await expect(await cell(page, 0, column), column).toHaveAttribute('data-edit', 'dirty');
      await title.fill(`${inv.mark} by touch`);
      await department.selectOption(val(inv.doc, F.department) === 'IT' ? 'Finance' : 'IT');
      await number.tap();
      for (const column of ['Title', 'Department']) await expect(await cell(page, 0, column), column).toHaveAttribute('data-edit', 'dirty');
      await expect(page.getByTestId('edit-status')).toHaveText(t('EDIT_UNSAVED_ROWS', { count: 1 }));

      await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).tap();
      await expect.poll(async () => val(await inv.fetch(), F.title), { timeout: 20_000 }).toBe(`${inv.mark} by touch`);
      const after = await inv.fetch();
      expect(val(after, F.invoiceNumber)).toBe('9876');
      expect(val(after, F.documentDate)).toBe('2026-12-24');
      expect(val(after, F.amount)).toBe('1234.5');
      expect(val(after, F.department)).toBe(val(inv.doc, F.department) === 'IT' ? 'Finance' : 'IT');
      expect(await updatedCount(request, token, after)).toBe(before + 1);
      // The grid shows the saved values (masks in en-US).
      await expect(gridRow(page, 0)).toContainText(`${inv.mark} by touch`);
      await expect(await cell(page, 0, 'Amount')).toHaveText('$1,234.50');
      await expect(await cell(page, 0, 'Document Date')).toHaveText('12/24/2026');
      await expect(await cell(page, 0, 'Title')).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
      await expect(page.getByTestId('edit-status')).toHaveText('');

      await close.tap();
      await expect(panel).toBeHidden();
    } finally {
      await inv.restore();
    }
  });

  test('a value typed just before the input is left is the one judged and saved, even when the blur comes before the keystroke is drawn @touch', async ({ page, request }) => {
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 9, 'touch-fast');
    try {
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
      const panel = await openPanel(page, t, inv.mark);
      const title = panel.getByRole('textbox', { name: 'Title', exact: true });
      const number = panel.getByRole('textbox', { name: 'Invoice Number', exact: true });
      const amount = panel.getByRole('textbox', { name: 'Amount', exact: true });
      await typeAndLeaveAtOnce(number, '12ab', title);
      await expect(number).toHaveAttribute('aria-invalid', 'true');
      await typeAndLeaveAtOnce(number, '86420', amount);
      await expect(number).not.toHaveAttribute('aria-invalid', 'true');
      await typeAndLeaveAtOnce(amount, '55.25', title);
      for (const column of ['Invoice Number', 'Amount']) await expect(await cell(page, 0, column), column).toHaveAttribute('data-edit', 'dirty');
      await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).tap();
      await expect.poll(async () => val(await inv.fetch(), F.amount), { timeout: 20_000 }).toBe('55.25');
      expect(val(await inv.fetch(), F.invoiceNumber)).toBe('86420');
    } finally {
      await inv.restore();
    }
  });

  test('Cancel in the panel: the change is discarded, the panel shows the stored value again and nothing stays dirty @touch', async ({ page, request }) => {
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 7, 'touch-cancel');
    try {
      const before = await updatedCount(request, token, inv.doc);
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
      const panel = await openPanel(page, t, inv.mark);
      const status = panel.getByRole('textbox', { name: 'Status', exact: true });
      const stored = val(inv.doc, F.status);
      await status.tap();
      await status.fill('Discard me');
      await panel.getByRole('textbox', { name: 'Title', exact: true }).tap();
      await expect(await cell(page, 0, 'Status')).toHaveAttribute('data-edit', 'dirty');
      await expect(page.getByTestId('edit-status')).toHaveText(t('EDIT_UNSAVED_ROWS', { count: 1 }));

      await page.getByRole('button', { name: t('EDIT_CANCEL'), exact: true }).tap();
      await expect(page.getByText(t('EDIT_SAVE_CANCELLED'))).toBeVisible();
      await expect(page.getByTestId('edit-status')).toHaveText('');
      await expect(await cell(page, 0, 'Status')).not.toHaveAttribute('data-edit', /./);
      await expect(await cell(page, 0, 'Status')).toHaveText(stored);
      await expect(status).toHaveValue(stored);
      await expect(page.getByRole('button', { name: t('EDIT_SAVE'), exact: true })).toBeDisabled();
      // Leaving the field again does not bring the discarded text back.
      await status.tap();
      await panel.getByRole('textbox', { name: 'Title', exact: true }).tap();
      await expect(page.getByTestId('edit-status')).toHaveText('');

      // Turning edit mode off has nothing to save.
      await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
      await expect(page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true })).toHaveAttribute('aria-pressed', 'false');
      await expect(panel).toBeHidden();
      expect(val(await inv.fetch(), F.status)).toBe(stored);
      expect(await updatedCount(request, token, inv.doc)).toBe(before);
    } finally {
      await inv.restore();
    }
  });

  test('typed in the sheet: Save and Cancel enable at once; Cancel restores and sends nothing, Save writes, Close editing with unsaved changes asks @touch', async ({ page, request }) => {
    test.setTimeout(120_000);
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 16, 'touch-sheet');
    try {
      const before = await updatedCount(request, token, inv.doc);
      const stored = val(inv.doc, F.status);
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
      const panel = await openPanel(page, t, inv.mark);
      const status = panel.getByRole('textbox', { name: 'Status', exact: true });
      const save = panel.getByRole('button', { name: t('EDIT_SAVE'), exact: true });
      const cancel = panel.getByRole('button', { name: t('EDIT_CANCEL'), exact: true });
      const close = panel.getByRole('button', { name: t('EDIT_PANEL_CLOSE'), exact: true });
      await expect(save).toBeDisabled();
      await expect(cancel).toBeDisabled();

      // Typed with the on-screen keyboard, the input still focused: the change can be saved or cancelled.
      const typeInto = async (text: string) => {
        await status.tap();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.press('Backspace');
        await page.keyboard.type(text);
        await expect(status).toBeFocused();
      };
      await typeInto('Cancel me');
      await expect(save).toBeEnabled();
      await expect(cancel).toBeEnabled();
      await cancel.tap();
      await expect(status).toHaveValue(stored);
      await expect(save).toBeDisabled();
      await expect(cancel).toBeDisabled();
      // Nothing was sent: the server has the old value (the tray, under the sheet, is read below).
      expect(val(await inv.fetch(), F.status)).toBe(stored);
      expect(await updatedCount(request, token, inv.doc)).toBe(before);

      // Close editing with an unsaved change asks; "Keep editing" keeps the typed text.
      await typeInto('Ask me');
      await close.tap();
      const ask = page.getByRole('dialog', { name: t('EDIT_CLOSE_UNSAVED_TITLE'), exact: true });
      await expect(ask).toBeVisible();
      await expect(ask).toContainText(t('EDIT_CLOSE_UNSAVED'));
      await ask.getByRole('button', { name: t('EDIT_KEEP_EDITING'), exact: true }).tap();
      await expect(ask).toBeHidden();
      await expect(panel).toBeVisible();
      await expect(status).toHaveValue('Ask me');
      // Asked again, the change is discarded: the panel closes and nothing is sent.
      await close.tap();
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: t('EDIT_DISCARD_CHANGES'), exact: true }).tap();
      await expect(panel).toBeHidden();
      await expect(await cell(page, 0, 'Status')).toHaveText(stored);
      await expect(await cell(page, 0, 'Status')).not.toHaveAttribute('data-edit', /./);
      await expect(page.getByTestId('edit-status')).toHaveText('');
      expect(val(await inv.fetch(), F.status)).toBe(stored);
      expect(await updatedCount(request, token, inv.doc)).toBe(before);
      // The tray has nothing saved or waiting.
      const tray = page.getByTestId('header-notifications');
      await expect(tray).toHaveAccessibleName(t('NOTIFICATIONS'));
      await tray.tap();
      await expect(page.getByText(t('OUTBOX_STATE_DONE'), { exact: true })).toHaveCount(0);
      await tray.tap();

      // Save, tapped while the input still has focus, writes what was typed.
      // (A row whose panel was closed opens again through "Edit row", not by another tap.)
      await page.getByRole('button', { name: t('EDIT_ROW'), exact: true }).tap();
      await expect(panel).toBeVisible();
      await typeInto('Saved by touch');
      await expect(save).toBeEnabled();
      await save.tap();
      await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 20_000 }).toBe('Saved by touch');
      await expect(save).toBeDisabled();
      expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
      // Nothing unsaved: Close editing closes at once.
      await close.tap();
      await expect(panel).toBeHidden();
      await expect(ask).toBeHidden();
      // "Save" in the question saves, then closes.
      await page.getByRole('button', { name: t('EDIT_ROW'), exact: true }).tap();
      await typeInto('Saved on closing');
      await close.tap();
      await ask.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).tap();
      await expect(panel).toBeHidden();
      await expect.poll(async () => val(await inv.fetch(), F.status), { timeout: 20_000 }).toBe('Saved on closing');
    } finally {
      await inv.restore();
    }
  });

  test.describe('in German', () => {
    test.use({ locale: 'de-DE' });

    test('the panel in de-DE: the German message under an invalid date, German decimals saved in wire form @touch', async ({ page, request }) => {
      const t = texts('de');
      const token = await apiToken(request, 'user');
      const inv = await prepareInvoice(request, token, 8, 'touch-de');
      try {
        await signInAs(page, 'user', t);
        await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
        await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).tap();
        const panel = await openPanel(page, t, inv.mark);
        const date = panel.getByRole('textbox', { name: 'Document Date', exact: true });
        const amount = panel.getByRole('textbox', { name: 'Amount', exact: true });
        const [y, m, d] = val(inv.doc, F.documentDate).split('-');
        await expect(date).toHaveValue(`${d}.${m}.${y}`);
        await date.tap();
        await date.fill('12/24/2026');
        await amount.tap();
        await expect(date).toHaveAttribute('aria-invalid', 'true');
        await expect(date).toHaveAccessibleDescription('Ungültiges Datum');
        await expect(panel.getByText('Ungültiges Datum')).toBeVisible();
        await date.tap();
        await date.fill('24.12.2026');
        await amount.tap();
        await amount.fill('1.234,5');
        await date.tap();
        await expect(date).not.toHaveAttribute('aria-invalid', 'true');
        await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
        await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).tap();
        await expect.poll(async () => val(await inv.fetch(), F.amount), { timeout: 20_000 }).toBe('1234.5');
        expect(val(await inv.fetch(), F.documentDate)).toBe('2026-12-24');
        // The archive's dollars, written the German way.
        await expect(await cell(page, 0, 'Amount')).toHaveText(/^1\.234,50\s\$$/);
        // The panel shows the saved values in German.
        await expect(date).toHaveValue('24.12.2026');
        await expect(amount).toHaveValue('1234,5');
      } finally {
        await inv.restore();
      }
    });
  });
});
