/**
 * The service worker sends the outbox itself (issue 9 item 1): a field edit saved offline, the tab
 * closed, the connection back, and the worker's Background Sync event, with no window of the app
 * open, brings the value to the server exactly once. Playwright cannot fire Background Sync: the
 * event is dispatched over CDP (ServiceWorker.dispatchSyncEvent) from a blank page of another origin,
 * which is no client of the app.
 */
import type { BrowserContext } from '@playwright/test';
import { apiToken, editCell, cell, getSearch, openResults, prepareInvoice, promptId, searchDocs, signInAs, texts, uniqueMark, updatedCount } from './editing-support';
import { A, F, S, expect, test, val } from './grid-support';
import { waitForServiceWorker, withServiceWorker } from './support';

// Every test here is about what the service worker does.
test.use(withServiceWorker);

/** Fires the service worker's `sync` event (tag 'outbox') as the browser does when the connection returns. */
async function dispatchSync(context: BrowserContext, origin: string): Promise<void> {
  const blank = await context.newPage();
  try {
    const cdp = await context.newCDPSession(blank);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const r = registrations.find((x) => x.scopeURL.startsWith(origin) && !x.isDeleted);
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    await cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId, tag: 'outbox', lastChance: false });
    await cdp.detach();
  } finally {
    await blank.close();
  }
}

test.describe('the service worker drains the outbox', () => {
  test('an edit saved offline reaches the server once, sent by the service worker with the tab closed', async ({ page, context, request, baseURL }) => {
    const t = texts('en');
    const origin = new URL(baseURL!).origin;
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 10, 'sw-drain');
    const newTitle = uniqueMark('sw-drained');
    try {
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
      await waitForServiceWorker(page);
      const before = await updatedCount(request, token, inv.doc);

      await context.setOffline(true);
      await page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).click();
      await editCell(page, 0, 'Title', newTitle);
      await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).click();
      await expect(await cell(page, 0, 'Title')).toHaveAttribute('data-edit', 'pending');
      // The page tried and could not send it: it waits in the outbox. (Checked before the tab closes:
      // from then on the service worker may send it at any moment, which is what this test wants.)
      expect(val(await inv.fetch(), F.title)).toBe(inv.mark);
      await page.close();
      expect(context.pages()).toHaveLength(0);

      await context.setOffline(false);
      await dispatchSync(context, origin);

      const search = await getSearch(request, token, 1, S.allInvoices);
      const byNewTitle = async () => (await searchDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria: [{ ID: promptId(search, 'Title'), VAL: newTitle }] })).Docs.map((d) => d.Id);
      await expect.poll(byNewTitle, { timeout: 20_000, message: 'the edit reached the server' }).toEqual([inv.doc.Id]);
      expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);

      // The worker marked it done: another sync event (the browser's own, after going online) sends nothing again.
      await dispatchSync(context, origin);
      const sw = context.serviceWorkers().find((w) => w.url().startsWith(origin));
      expect(sw, 'the service worker').toBeDefined();
      await expect
        .poll(
          () =>
            sw!.evaluate(async () => {
              const open = indexedDB.open('archive-app');
              const handle = await new Promise<IDBDatabase>((resolve, reject) => {
                open.onsuccess = () => resolve(open.result);
                open.onerror = () => reject(open.error);
              });
              try {
                return await new Promise<string[]>((resolve) => {
                  const q = handle.transaction('outbox').objectStore('outbox').getAll();
                  q.onsuccess = () => resolve((q.result as { state: string; kind: string }[]).filter((e) => e.kind === 'fieldData').map((e) => e.state));
                });
              } finally {
                handle.close();
              }
            }),
          { timeout: 30_000 },
        )
        .toEqual(['done']);
      expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
    } finally {
      await context.setOffline(false);
      await inv.restore();
    }
  });
});
