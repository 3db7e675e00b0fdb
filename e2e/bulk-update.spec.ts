/**
 * Bulk update from the results grid (issue 11 item 4), as `user` against the real server: a basic
 * update of checked documents is counted (the update-count confirmation shows the count and the first
 * changes), confirmed, runs as a server job in the tray, and the grid shows the new values; a CSV
 * update by DocumentID/ArchiveID with quoted delimiters and a bad date changes the good rows and puts
 * the bad one in the downloadable error file; a revision-control archive refuses; on a touch tablet
 * the dialog fits and works by tapping.
 *
 * Data: each test makes its own documents: Correspondence documents titled with a mark no other test
 * uses are copied through the API into Incoming (a copy keeps every value), the originals get their
 * titles back, and the test updates the marked copies, found by the Content Search's Title prompt.
 */
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, S, cellText, expect, gridRow, openDemo, test, val, type Doc } from './grid-support';
import { expectTapTarget, getSearch, mustPut, promptId, searchDocs } from './editing-support';
import { copyMarked, correspondence, openMarked as openMarkedIn } from './marked-documents';

interface Fixture {
  hash: string;
  mark: string;
  criteria: { ID: number; VAL: string }[];
  docs: Doc[];
  field: (name: string) => number;
}

/** `n` documents of this test's own in Incoming, their Document Type set to Letter. */
async function makeDocuments(request: APIRequestContext, token: string, n: number, prefix: string): Promise<Fixture> {
  const search = await getSearch(request, token, 1, S.contentSearch);
  const mark = await copyMarked(request, token, await correspondence(request, token, n, 'desc'), prefix);
  const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
  const copies = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria, rpp: 50, sort: `${F.title}:asc` })) as Awaited<ReturnType<typeof searchDocs>> & {
    Fields: { ID: number; Name: string }[];
  };
  expect(copies.Docs).toHaveLength(n);
  const field = (name: string) => copies.Fields.find((x) => x.Name === name)!.ID;
  for (const d of copies.Docs) await mustPut(request, token, d, [{ ID: field('Document Type'), VAL: 'Letter' }]);
  return { hash: search.Hash, mark, criteria, docs: copies.Docs, field };
}

const openMarked = (page: Page, f: Fixture) => openMarkedIn(page, f, 25, { sort: `${F.title}:asc` });

const tray = (page: Page) => ({ button: page.getByTestId('header-notifications'), panel: page.getByRole('region', { name: 'Notifications', exact: true }) });

/** The grid's column for every row on the page. */
async function column(page: Page, name: string, rows: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) out.push(await cellText(page, i, name));
  return out;
}

test.describe('bulk update', () => {
  test('a basic update of the checked documents shows the count and the first changes, runs as a job in the tray, and the grid shows the new values', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 3, 'bu-basic');
    await openMarked(page, f);
    await expect(page.getByTestId('results-count')).toHaveText('3 documents');
    await page.getByLabel('Select all').check();

    await page.getByRole('button', { name: 'Bulk update', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk update' });
    await expect(dialog.getByRole('tab', { name: 'Basic' })).toHaveAttribute('aria-selected', 'true');
    await expect(dialog.getByLabel('The 3 checked documents')).toBeChecked();
    // Nothing chosen: the spec's "at least one new value".
    await dialog.getByRole('button', { name: 'Count documents' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Choose at least one field and its new value.');
    // A value the field rules refuse is said beside it and blocks the count.
    await dialog.getByLabel('Change Document Date').check();
    await dialog.getByLabel('New value for Document Date').fill('31/31/2026');
    await expect(dialog.getByText('Invalid date')).toBeVisible();
    await dialog.getByLabel('Change Document Date').uncheck();
    await dialog.getByLabel('Change Document Type').check();
    await dialog.getByLabel('New value for Document Type').fill('Memo');
    await dialog.getByRole('button', { name: 'Count documents' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm the update' });
    await expect(confirm.getByTestId('bulk-update-count')).toHaveText('3 documents will be updated.');
    const changes = confirm.getByRole('table', { name: 'First changes' });
    await expect(changes.locator('tbody tr')).toHaveCount(3);
    // Each document named as the grid names it (its title), not by its id.
    for (const d of f.docs) {
      const row = changes.locator('tbody tr').filter({ hasText: val(d, F.title) });
      await expect(row.locator('td').first()).toHaveText(val(d, F.title));
      await expect(row).toContainText(/Document Type\s*Letter\s*Memo/);
    }
    // Counting changed nothing.
    await expect.poll(() => column(page, 'Document Type', 3)).toEqual(['Letter', 'Letter', 'Letter']);

    await confirm.getByRole('button', { name: 'Update 3 documents' }).click();
    await expect(confirm).toBeHidden();
    const t = tray(page);
    await t.button.click();
    const card = t.panel.getByRole('listitem', { name: 'Bulk update of 3 documents' });
    await expect(card).toContainText('3 of 3 done', { timeout: 30_000 });
    // The job's note names the action in the user's words, not the job kind's id.
    await expect(card).toContainText('Bulk update: 3 in all, 3 succeeded, 0 failed');
    await t.button.click();
    await expect.poll(() => column(page, 'Document Type', 3), { timeout: 30_000 }).toEqual(['Memo', 'Memo', 'Memo']);
  });

  test('a CSV update by DocumentID/ArchiveID with quoted delimiters and a bad date: the good rows change, the bad one is in the error file', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 3, 'bu-csv');
    await openMarked(page, f);
    const [a, b, c] = f.docs;
    // The titles keep the mark (the grid finds them by it) and hold the delimiter and the quote.
    const csv = [
      'DocumentID,ArchiveID,Title,Document Date',
      `${a!.Id},${A.incoming},"${f.mark} 01, ""first""",03/04/2026`,
      `${b!.Id},${A.incoming},"${f.mark} 02, second",12/31/2025`,
      `${c!.Id},${A.incoming},"${f.mark} 03, third",02/31/2026`,
    ].join('\r\n');

    await page.getByRole('button', { name: 'Bulk update', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk update' });
    await dialog.getByRole('tab', { name: 'Advanced (CSV)' }).click();
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'update.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // The key columns are found by their header; the fields are mapped by hand.
    await expect(dialog.getByRole('combobox', { name: 'DocumentID', exact: true })).toHaveValue('0');
    await expect(dialog.getByRole('combobox', { name: 'ArchiveID', exact: true })).toHaveValue('1');
    await dialog.getByRole('combobox', { name: 'Title', exact: true }).selectOption({ label: 'Title' });
    await dialog.getByRole('combobox', { name: 'Document Date', exact: true }).selectOption({ label: 'Document Date' });
    await dialog.getByRole('button', { name: 'Count documents' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm the update' });
    await expect(confirm.getByTestId('bulk-update-count')).toHaveText('2 documents will be updated.', { timeout: 30_000 });
    await expect(confirm).toContainText('1 row of the file was refused.');
    const [download] = await Promise.all([page.waitForEvent('download'), confirm.getByRole('button', { name: 'Download the error file' }).click()]);
    const errors = await readFile((await download.path())!, 'utf8');
    const lines = errors.trim().split(/\r?\n/);
    expect(lines[0]).toBe('DocumentID,ArchiveID,Title,Document Date,Reason');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${c!.Id},${A.incoming},"${f.mark} 03, third",02/31/2026`);
    expect(lines[1]).toContain('Invalid date');

    await confirm.getByRole('button', { name: 'Update 2 documents' }).click();
    await expect.poll(() => column(page, 'Title', 3), { timeout: 30_000 }).toEqual([`${f.mark} 01, "first"`, `${f.mark} 02, second`, `${f.mark} 03`]);
    expect((await column(page, 'Document Date', 3)).slice(0, 2)).toEqual(['03/04/2026', '12/31/2025']);
    const third = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria: f.criteria, rpp: 50 })).Docs.find((d) => d.Id === c!.Id)!;
    expect(third.Fields.find((x) => x.ID === F.documentDate)?.VAL).toBe(c!.Fields.find((x) => x.ID === F.documentDate)?.VAL);
  });

  test('a revision-control archive refuses a bulk update, with the reason', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const search = await getSearch(request, token, 1, S.contracts);
    await page.goto(`/results/${search.Hash}?${new URLSearchParams({ Id: String(S.contracts), db: '1', archive: String(A.contracts) }).toString()}`);
    await expect(gridRow(page, 0)).toBeVisible();
    const button = page.getByRole('button', { name: 'Bulk update', exact: true });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button).toHaveAccessibleDescription('Archives under revision control cannot be bulk updated.');
    // aria-disabled keeps it focusable; pressing it says why again.
    await button.dispatchEvent('click');
    await expect(page.getByText('Archives under revision control cannot be bulk updated.').first()).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Bulk update' })).toHaveCount(0);
  });

  test('@touch on a tablet the dialog fits, its controls are finger-sized, and an update started by tapping runs', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 2, 'bu-touch');
    await openMarked(page, f);
    const button = page.getByRole('button', { name: 'Bulk update', exact: true });
    await expectTapTarget(button, 'Bulk update');
    await button.tap();
    const dialog = page.getByRole('dialog', { name: 'Bulk update' });
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(768);
    await expectTapTarget(dialog.getByRole('tab', { name: 'Advanced (CSV)' }), 'the Advanced tab');
    await expectTapTarget(dialog.locator('label').filter({ hasText: 'All 2 results of the search' }), 'the all-results choice');
    // Nothing checked: the whole search is chosen.
    await expect(dialog.getByLabel('All 2 results of the search')).toBeChecked();
    const change = dialog.locator('label').filter({ hasText: 'Change Document Type' });
    await expectTapTarget(change, 'Change Document Type');
    await change.tap();
    const value = dialog.getByLabel('New value for Document Type');
    await expectTapTarget(value, 'the new value');
    await value.fill('Report');
    const count = dialog.getByRole('button', { name: 'Count documents' });
    await expectTapTarget(count, 'Count documents');
    await count.tap();
    const confirm = page.getByRole('dialog', { name: 'Confirm the update' });
    await expect(confirm.getByTestId('bulk-update-count')).toHaveText('2 documents will be updated.');
    const run = confirm.getByRole('button', { name: 'Update 2 documents' });
    await expectTapTarget(run, 'Update 2 documents');
    await run.tap();
    await expect.poll(() => column(page, 'Document Type', 2), { timeout: 30_000 }).toEqual(['Report', 'Report']);
  });
});
