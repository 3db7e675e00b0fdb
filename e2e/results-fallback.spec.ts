import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, S, apiDocs, expect, gridRow, gridRows, openDemo, runSearch, test, val, type Doc } from './grid-support';
import { mustPut, uniqueMark } from './editing-support';

/** Sets one document's Title through the API, as the grid's save does. */
const setTitle = (request: APIRequestContext, token: string, doc: Doc, title: string) => mustPut(request, token, doc, [{ ID: F.title, VAL: title }]);

const pageButton = (page: Page, n: number) => page.getByRole('button', { name: `Page ${n}`, exact: true });

test.describe('a page that comes back empty (the user-app spec §4)', () => {
  test('falls back to an earlier page when its documents are gone', async ({ page, request }) => {
    const token = await openDemo(page, 'admin');
    // Three contracts (no other test edits contracts) get a title no other test uses; the search
    // for it has two pages of two. Their titles are put back at the end.
    const mark = uniqueMark('Fallback');
    const contracts = (await apiDocs(request, token, { searchId: S.contracts, archiveId: A.contracts, rpp: 10 })).Docs.slice(-3);
    expect(contracts).toHaveLength(3);
    try {
      for (const [i, d] of contracts.entries()) await setTitle(request, token, d, `${mark} ${i + 1}`);
      await fallsBack(page, request, token, mark, contracts);
    } finally {
      for (const d of contracts) await setTitle(request, token, d, val(d, F.title));
    }
  });
});

async function fallsBack(page: Page, request: APIRequestContext, token: string, mark: string, contracts: Doc[]) {
  await page.getByTestId('search-list').getByRole('button', { name: 'Contracts', exact: true }).click();
  // The default search's form (it has a Title too) stays until the Contracts form replaces it:
  // typed before that, the mark went into the form that goes away and Contracts ran unfiltered.
  await expect(page.getByRole('heading', { level: 2, name: 'Contracts', exact: true })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill(mark);
  await page.getByLabel('Records per page').fill('2');
  await runSearch(page);
  await expect(page.getByTestId('results-count')).toHaveText('3 documents');
  await pageButton(page, 2).click();
  await expect(pageButton(page, 2)).toHaveAttribute('aria-current', 'page');
  await expect(gridRows(page)).toHaveCount(1);
  await expect(gridRow(page, 0)).toContainText(mark);

  // Another user's change takes one matching document out of the search: page 2 is now empty.
  const gone = contracts[0]!;
  await setTitle(request, token, gone, 'No longer matching');
  const remaining = await apiDocs(request, token, { searchId: S.contracts, archiveId: A.contracts, criteria: new URL(page.url()).searchParams.get('criteria') ?? '', rpp: 2, page: 2 });
  expect(remaining.Docs).toHaveLength(0);

  // Page 1, then page 2 again: page 2 comes back empty from the server and the grid falls back to page 1.
  await pageButton(page, 1).click();
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');
  await pageButton(page, 2).click();
  await expect(pageButton(page, 1)).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('results-count')).toHaveText('2 documents');
  await expect(gridRows(page)).toHaveCount(2);
  await expect(pageButton(page, 2)).toHaveCount(0);
  const titles = (await gridRows(page).allTextContents()).join(' ');
  for (const d of contracts.filter((c) => c !== gone)) expect(titles).toContain(`${mark} ${contracts.indexOf(d) + 1}`);
}
