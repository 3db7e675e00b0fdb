/**
 * Copy, move and delete from the results grid (issue 9 items 4 and 6), as `user`, against the real
 * server: a selection over three result pages moved as one job; a copy from a row's menu; a delete of
 * 20 documents started offline, the page closed, applied once when the connection returns; on a touch
 * tablet the actions are finger-sized and the archive select modal works by tapping.
 *
 * Data: each test makes its own documents. It titles some Correspondence documents with a mark no
 * other test uses, copies them through the API into Incoming (a copy keeps every field value), and
 * puts the originals' titles back; the test then acts on the marked copies in Incoming, found by the
 * Content Search's Title prompt, and moves or copies them into Outgoing. No other spec asserts on
 * these documents; Incoming's and Outgoing's counts change, which the other specs read from the API.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, S, checkCell, expect, gridRow, gridRows, openDemo, test, type Doc } from './grid-support';
import { expectTapTarget, searchDocs } from './editing-support';
import { jobs, makeDocuments, openMarked, type Fixture } from './marked-documents';
import { waitForServiceWorker, withServiceWorker } from './support';

async function history(request: APIRequestContext, token: string, archiveId: number, d: Pick<Doc, 'Id' | 'Hash'>): Promise<string[]> {
  const res = await request.get(`/api/dbs/1/archives/${archiveId}/documents/${d.Id}/audit`, { params: { token, SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Category: string }[]).map((e) => e.Category);
}

const marked = (request: APIRequestContext, token: string, f: Fixture, archiveId: number) =>
  searchDocs(request, token, { searchId: S.contentSearch, archiveId, criteria: f.criteria, rpp: 50 });
/** The entries the outbox holds now (Dexie `outbox`), as the tray reads them. */
const outboxEntries = (page: Page) =>
  page.evaluate(async () => {
    const open = indexedDB.open('archive-app');
    const handle = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      return await new Promise<{ kind: string; state: string; meta: { docs: unknown[]; title: string; jobKey: string } }[]>((resolve) => {
        const q = handle.transaction('outbox').objectStore('outbox').getAll();
        q.onsuccess = () => resolve(q.result as { kind: string; state: string; meta: { docs: unknown[]; title: string; jobKey: string } }[]);
      });
    } finally {
      handle.close();
    }
  });

/** Goes to another page of the grid and waits until its rows are on screen (not the last page's). */
async function goToPage(page: Page, name: string): Promise<void> {
  const before = (await gridRow(page, 0).textContent()) ?? '';
  await page.getByRole('button', { name, exact: true }).click();
  await expect(gridRow(page, 0)).not.toHaveText(before);
}

function tray(page: Page) {
  return { button: page.getByTestId('header-notifications'), panel: page.getByRole('region', { name: 'Notifications', exact: true }) };
}

test.describe('copy, move and delete', () => {
  test('documents selected on three result pages are moved to another archive as ONE job: the tray shows it with its counts, each has one moved entry, the grid no longer lists them', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 6, 'dm-move');
    await openMarked(page, f, 2);
    await expect(page.getByTestId('results-count')).toHaveText('6 documents');
    const selected = page.getByTestId('results-selected');

    // Page 1: the header checkbox takes this page's two rows.
    await page.getByLabel('Select all').check();
    await expect(selected).toHaveText('2 selected');
    // Page 2: one row.
    await goToPage(page, 'Next page');
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Select all')).not.toBeChecked();
    await checkCell(page, 0).click();
    await expect(selected).toHaveText('3 selected');
    // Page 3: both rows.
    await goToPage(page, 'Next page');
    await expect(page.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    await checkCell(page, 0).click();
    await checkCell(page, 1).click();
    await expect(selected).toHaveText('5 selected');
    // Back on page 1 its rows are still checked.
    await goToPage(page, 'Page 1');
    await expect(page.getByLabel('Select all')).toBeChecked();

    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Move', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Move 5 documents to' });
    await expect(modal).toBeVisible();
    // Only archives the user may add to, not the source, never a versions archive.
    await expect(modal.getByRole('radio')).not.toHaveCount(0);
    await expect(modal.getByRole('radio', { name: 'Incoming' })).toHaveCount(0);
    await expect(modal.getByRole('radio', { name: 'Contract Versions' })).toHaveCount(0);
    await modal.getByRole('radio', { name: 'Outgoing' }).check();
    await modal.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(modal).toBeHidden();

    // One outbox entry for the whole action; one server job of 5 documents, all moved.
    const entries = (await outboxEntries(page)).filter((e) => e.kind === 'documentOperation');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.meta.docs).toHaveLength(5);
    const title = 'Move 5 documents to Outgoing';
    expect(entries[0]!.meta.title).toBe(title);
    const jobKey = entries[0]!.meta.jobKey;
    await expect
      .poll(async () => (await jobs(request, token)).filter((j) => j.Key === jobKey).map((j) => [j.Kind, j.State, j.Count, j.Succeeded, j.Failed]), { timeout: 30_000 })
      .toEqual([['move', 'done', 5, 5, 0]]);

    // The grid refreshes when the job ends: the one document left, and nothing selected.
    await expect(page.getByTestId('results-count')).toHaveText('1 document', { timeout: 20_000 });
    await expect(gridRows(page)).toHaveCount(1);
    await expect(selected).toHaveCount(0);

    const t = tray(page);
    await t.button.click();
    const job = (await jobs(request, token)).find((j) => j.Key === jobKey)!;
    const card = t.panel.getByTestId(`job-${job.Id}`);
    await expect(card).toHaveAccessibleName(title);
    await expect(card).toContainText('5 succeeded, 0 failed');
    // One card for the action: its outbox entry gave way to the job it started.
    await expect(t.panel.getByRole('listitem', { name: title, exact: true })).toHaveCount(1);

    const moved = await marked(request, token, f, A.outgoing);
    expect(moved.Docs).toHaveLength(5);
    expect((await marked(request, token, f, A.incoming)).Docs).toHaveLength(1);
    for (const d of moved.Docs) expect((await history(request, token, A.outgoing, d)).filter((c) => c === 'moved'), `history of ${d.Id}`).toHaveLength(1);
  });

  test("a row's menu copies that document: the copy is in the destination with its fields, the original stays", async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 1, 'dm-copy');
    const source = f.docs[0]!;
    await openMarked(page, f, 25);
    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: /^Actions for / });
    await menu.getByRole('menuitem', { name: 'Copy', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Copy 1 document to' });
    await modal.getByRole('radio', { name: 'Outgoing' }).check();
    await modal.getByRole('button', { name: 'Copy', exact: true }).click();

    await expect.poll(async () => (await marked(request, token, f, A.outgoing)).Docs.length, { timeout: 30_000 }).toBe(1);
    const copy = (await marked(request, token, f, A.outgoing)).Docs[0]!;
    expect(copy.Id).not.toBe(source.Id);
    const values = (d: Doc) => Object.fromEntries(d.Fields.filter((x) => ![11, 12, 14].includes(x.ID)).map((x) => [x.ID, [x.VAL, x.MVAL ?? null]]));
    expect(values(copy)).toEqual(values(source));
    expect((await marked(request, token, f, A.incoming)).Docs.map((d) => d.Id)).toEqual([source.Id]);
    expect(await history(request, token, A.outgoing, copy)).toContain('copied');
  });

  test('no document selected: the toolbar says so and opens nothing', async ({ page }) => {
    await openDemo(page, 'user');
    const search = page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true });
    await search.click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('No documents are selected.')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

});

test.describe('copy, move and delete offline', () => {
  test.use(withServiceWorker);

  test('offline: a delete of 20 documents is queued, shown as queued, and applied once after the tab was closed and the connection came back', async ({ page, context, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 20, 'dm-del');
    // From the parent archive's grid (Correspondence lists its sub-archive Incoming's documents): each
    // call must name the document's own archive.
    await openMarked(page, f, 25, { archiveId: A.correspondence });
    await expect(page.getByTestId('results-archive')).toHaveText('Correspondence');
    await expect(page.getByTestId('results-count')).toHaveText('20 documents');
    await waitForServiceWorker(page);

    await context.setOffline(true);
    await page.getByLabel('Select all').check();
    await expect(page.getByTestId('results-selected')).toHaveText('20 selected');
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 20 documents?' });
    // The confirming button looks destructive (the error colour), not like a primary action.
    await expect(confirm.getByRole('button', { name: 'Delete', exact: true })).toHaveCSS('background-color', 'rgb(164, 38, 44)');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(confirm).toBeHidden();

    const title = 'Delete 20 documents';
    const t = tray(page);
    await t.button.click();
    const card = t.panel.getByRole('listitem', { name: title, exact: true });
    await expect(card.first()).toContainText('Waiting to be sent');
    const queued = (await outboxEntries(page)).filter((e) => e.kind === 'documentOperation' && e.meta.title === title && e.state !== 'done');
    expect(queued.map((e) => e.state)).toEqual(['queued']);
    const jobKey = queued[0]!.meta.jobKey;
    // Nothing reached the server.
    expect((await marked(request, token, f, A.incoming)).Docs).toHaveLength(20);

    await page.close();
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto('/');
    await expect
      .poll(async () => (await jobs(request, token)).filter((j) => j.Key === jobKey).map((j) => [j.Kind, j.State, j.Count, j.Succeeded, j.Failed]), { timeout: 60_000 })
      .toEqual([['delete', 'done', 20, 20, 0]]);
    expect((await marked(request, token, f, A.incoming)).Docs).toHaveLength(0);
    // Each deleted once: one 'deleted' entry per document in Incoming's history.
    const res = await request.get(`/api/dbs/1/archives/${A.incoming}/audit`, { params: { token, Page: 1, DocLimit: 1000 } });
    expect(res.status(), await res.text()).toBe(200);
    const deleted = ((await res.json()) as { Items: { Category: string; DocumentID: number | null }[] }).Items.filter((e) => e.Category === 'deleted');
    for (const d of f.docs) expect(deleted.filter((e) => e.DocumentID === d.Id), `deleted entries of ${d.Id}`).toHaveLength(1);

    const t2 = tray(again);
    await t2.button.click();
    const job = (await jobs(request, token)).find((j) => j.Key === jobKey)!;
    const done = t2.panel.getByTestId(`job-${job.Id}`);
    await expect(done).toHaveAccessibleName(title);
    await expect(done).toContainText('20 succeeded, 0 failed', { timeout: 30_000 });
  });
});

test.describe('copy, move and delete with no window open', () => {
  test.use(withServiceWorker);

  test('a move queued offline is sent by the service worker when the connection returns while no page of the app is open', async ({ page, context, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 3, 'dm-sw');
    await openMarked(page, f, 25);
    await waitForServiceWorker(page);
    // The archive select modal offers the archives fetched with the screen (kept on the device).

    await context.setOffline(true);
    await page.getByLabel('Select all').check();
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Move', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Move 3 documents to' });
    await modal.getByRole('radio', { name: 'Outgoing' }).check();
    await modal.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(async () => (await outboxEntries(page)).filter((e) => e.kind === 'documentOperation' && e.state === 'queued').length).toBe(1);

    await page.close();
    expect(context.pages()).toHaveLength(0);
    await context.setOffline(false);
    await expect
      .poll(async () => (await marked(request, token, f, A.outgoing)).Docs.length, { timeout: 60_000, message: 'moved by the service worker' })
      .toBe(3);
    const again = await context.newPage();
    await again.goto('/');
    const t = tray(again);
    await t.button.click();
    await expect(t.panel.getByRole('listitem', { name: 'Move 3 documents to Outgoing', exact: true }).filter({ hasText: '3 succeeded, 0 failed' })).toHaveCount(1, { timeout: 30_000 });
  });
});

test.describe('who may copy, move, delete', () => {
  test('a user without the delete (8) and move (131072) bits sees Move and Delete unavailable with the reason; Copy stays', async ({ page }) => {
    await openDemo(page, 'clerk');
    await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    const actions = page.getByRole('group', { name: 'Document actions' });
    await expect(actions.getByRole('button', { name: 'Move', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expect(actions.getByRole('button', { name: 'Move', exact: true })).toHaveAccessibleDescription('You may not move documents of this archive.');
    await expect(actions.getByRole('button', { name: 'Delete', exact: true })).toHaveAccessibleDescription('You may not delete documents of this archive.');
    await expect(actions.getByRole('button', { name: 'Copy', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
    // Still reachable by keyboard: pressing it says why and opens nothing.
    await actions.getByRole('button', { name: 'Delete', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('You may not delete documents of this archive.', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('the read-only licence (viewer): copy, move and delete unavailable', async ({ page }) => {
    await openDemo(page, 'viewer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    const actions = page.getByRole('group', { name: 'Document actions' });
    for (const name of ['Copy', 'Move', 'Delete']) await expect(actions.getByRole('button', { name, exact: true })).toHaveAccessibleDescription('Your licence is read-only.');
  });
});

test.describe('copy, move and delete on a tablet', () => {
  test('@touch an unavailable action says why on a tap, for the read-only licence as for a missing right', async ({ page }) => {
    const cases = [
      { who: 'viewer', search: null, button: 'Copy', reason: 'Your licence is read-only.' },
      { who: 'clerk', search: 'Correspondence', button: 'Delete', reason: 'You may not delete documents of this archive.' },
    ] as const;
    for (const c of cases) {
      if (c.who !== cases[0].who) await page.goto('/logout');
      await openDemo(page, c.who);
      if (c.search) await page.getByTestId('search-list').getByRole('button', { name: c.search, exact: true }).tap();
      await page.getByRole('button', { name: 'Search', exact: true }).tap();
      await expect(gridRow(page, 0)).toBeVisible();
      const button = page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: c.button, exact: true });
      await expect(button).toHaveAttribute('aria-disabled', 'true');
      // force: Playwright waits for aria-disabled to go; a finger taps it anyway.
      await button.tap({ force: true });
      await expect(page.getByText(c.reason, { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });

  test('@touch the actions are finger-sized and the archive select modal works by tapping', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 2, 'dm-touch');
    await openMarked(page, f, 25);
    const actions = page.getByRole('group', { name: 'Document actions' });
    for (const name of ['Copy', 'Move', 'Delete']) await expectTapTarget(actions.getByRole('button', { name, exact: true }), name);

    await checkCell(page, 0).tap();
    await checkCell(page, 1).tap();
    await expect(page.getByTestId('results-selected')).toHaveText('2 selected');
    await expectTapTarget(page.getByRole('button', { name: 'Clear selection' }), 'Clear selection');
    await actions.getByRole('button', { name: 'Move', exact: true }).tap();
    const modal = page.getByRole('dialog', { name: 'Move 2 documents to' });
    const outgoing = modal.locator('label', { hasText: /^Outgoing$/ });
    await expectTapTarget(outgoing, 'the Outgoing choice');
    await outgoing.tap();
    await expect(modal.getByRole('radio', { name: 'Outgoing' })).toBeChecked();
    await modal.getByRole('button', { name: 'Move', exact: true }).tap();
    await expect(modal).toBeHidden();

    await expect.poll(async () => (await marked(request, token, f, A.outgoing)).Docs.length, { timeout: 30_000 }).toBe(2);
    await expect(page.getByText('No documents match', { exact: false })).toBeVisible({ timeout: 20_000 });
  });
});
