/**
 * The outbox's failure policy in the browser (issue 8 item 12): an edit whose PUT keeps getting a
 * 500 ends as failed by itself, with its reason in the notifications tray, while a later edit of
 * another document goes through; Retry sends it again with the same Idempotency-Key. The server is
 * the real one; only that one document's FieldData requests are intercepted, to simulate a server
 * that keeps failing on them.
 */
import { apiToken, editCell, openResults, prepareInvoice, signInAs, texts } from './editing-support';
import { A, F, S, expect, gridRow, test, val } from './grid-support';

test.describe('outbox failure policy', () => {
  test('an edit the server keeps failing on ends as failed in the tray with its reason; the later edit still goes; Retry sends it again', async ({ page, context, request }) => {
    // The policy gives the server five tries with backoff (2 + 4 + 8 + 16 s, +-25 %) before it
    // calls the entry failed. That wait passes on the page's clock (Playwright's, installed before
    // the app starts: its timers and Date), moved on below, not on the wall's.
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const failing = await prepareInvoice(request, token, 17, 'obx-fail');
    const later = await prepareInvoice(request, token, 18, 'obx-later');
    const keys: string[] = [];
    let serverFails = true;
    try {
      await context.route(`**/document/${failing.doc.Id}/FieldData**`, async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        keys.push((await route.request().headerValue('Idempotency-Key')) ?? '');
        if (!serverFails) return route.continue();
        return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ Message: 'An unknown error occured' }) });
      });

      await page.clock.install();
      await signInAs(page, 'user', t);
      const edit = t('EDIT_TOGGLE');
      const save = t('EDIT_SAVE');

      // The edit the server fails on.
      await openResults(page, { searchId: S.allInvoices, hash: failing.hash, archiveId: A.invoices, criteria: failing.criteria });
      await expect(gridRow(page, 0)).toContainText(failing.mark);
      await page.getByRole('button', { name: edit, exact: true }).click();
      await editCell(page, 0, 'Invoice Number', '770001');
      await page.getByRole('button', { name: save, exact: true }).click();
      await expect.poll(() => keys.length).toBeGreaterThanOrEqual(1);

      // A later edit of another document goes through while the first one waits.
      await openResults(page, { searchId: S.allInvoices, hash: later.hash, archiveId: A.invoices, criteria: later.criteria });
      await expect(gridRow(page, 0)).toContainText(later.mark);
      await page.getByRole('button', { name: edit, exact: true }).click();
      await editCell(page, 0, 'Invoice Number', '770002');
      await page.getByRole('button', { name: save, exact: true }).click();
      await expect.poll(async () => val(await later.fetch(), F.invoiceNumber), { timeout: 20_000 }).toBe('770002');

      // The failing one ends as failed by itself, after the fifth 500, and is then left alone. The
      // clock moves 5 s at a time until the fifth request was seen: each backoff passes in about a
      // second, and a jump made before the next try was due only brings it closer.
      await expect
        .poll(
          async () => {
            await page.clock.fastForward(5_000);
            return keys.length;
          },
          { intervals: [250], timeout: 60_000, message: 'five tries sent' },
        )
        .toBeGreaterThanOrEqual(5);
      const tray = page.getByTestId('header-notifications');
      await expect(tray).toHaveAccessibleName(t('NOTIFICATIONS_WITH_COUNT', { count: 1 }));
      await tray.click();
      const panel = page.getByRole('region', { name: t('NOTIFICATIONS'), exact: true });
      const card = panel.getByRole('listitem', { name: failing.mark, exact: true });
      await expect(card.getByRole('alert')).toHaveText(
        `${t('OUTBOX_FAILED_SUMMARY', { document: failing.mark })} ${t('OUTBOX_REASON_SERVER_ERROR', { count: 5, status: 500 })}`,
      );
      await expect(card).toContainText(t('OUTBOX_STATE_FAILED'));
      // Five answered 500s fail it; opening the second search may cut off a send in flight, which
      // was never answered and is re-sent with the same key (at most one more request).
      const sent = keys.length;
      expect(sent).toBeGreaterThanOrEqual(5);
      expect(sent).toBeLessThanOrEqual(6);
      expect(new Set(keys).size).toBe(1);
      await expect(panel.getByRole('listitem', { name: later.mark, exact: true })).toContainText(t('OUTBOX_STATE_DONE'));
      expect(val(await failing.fetch(), F.invoiceNumber)).not.toBe('770001');

      // The server works again: Retry sends the same request with the same key, and it is saved.
      serverFails = false;
      await card.getByRole('button', { name: t('OUTBOX_RETRY'), exact: true }).click();
      await expect.poll(async () => val(await failing.fetch(), F.invoiceNumber), { timeout: 20_000 }).toBe('770001');
      expect(keys).toHaveLength(sent + 1);
      expect(keys[sent]).toBe(keys[0]);
      await expect(card).toContainText(t('OUTBOX_STATE_DONE'));
      await expect(tray).toHaveAccessibleName(t('NOTIFICATIONS'));
    } finally {
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await failing.restore();
      await later.restore();
    }
  });
});
