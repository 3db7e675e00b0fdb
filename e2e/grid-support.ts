/**
 * Helpers of the search and results browser tests (search.spec.ts, results.spec.ts,
 * results-offline.spec.ts): a `test` that fails on any uncaught page error, the seeded ids, API
 * calls made with the token the browser was given, and readers of the Handsontable grid's DOM.
 */
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO, obtainLicence, waitForPersistedCache } from './support';

/**
 * Fails the test when the page throws (window error or unhandled rejection), or when the server's
 * Content-Security-Policy refuses anything (Chromium says on the console that something "violates
 * the following Content Security Policy directive").
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`${e.name}: ${e.message}`));
      page.on('console', (m) => {
        if (/Content Security Policy directive/i.test(m.text())) errors.push(`CSP: ${m.text()}`);
      });
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** Seeded ids (server/seed/catalog.ts SEED_IDS). */
export const S = { allInvoices: 1, contentSearch: 2, invoicesByStatus: 3, contracts: 4, correspondence: 5, hidden: 6, hr: 7, customerFiles: 9 } as const;
export const A = { invoices: 1, paidInvoices: 2, contracts: 3, correspondence: 5, incoming: 6, outgoing: 7, hrFiles: 8 } as const;
export const F = { title: 1, invoiceNumber: 2, documentDate: 3, amount: 4, department: 5, customer: 6, status: 19 } as const;

/**
 * Opens "Demo Archive" signed in as `who` and returns the session token (for API comparisons).
 * The licence is obtained through the API and handed to the app in the address
 * (`/view?db=1&token=...`), as a link from another product would: the app names the session after the
 * token's user (dropping what the device kept for another) and learns the licence's type when it
 * checks the token. About 0.5 s a test less than the sign-in form (0.8 against 1.35 s, median of 6
 * each); the tests whose subject is signing in use the form (support.ts signIn).
 */
export async function openDemo(page: Page, who: keyof typeof DEMO = 'admin'): Promise<string> {
  const { user, password } = DEMO[who];
  const res = await obtainLicence(page.request, user, password);
  expect(res.status(), `a licence for ${user}`).toBe(200);
  const { Token } = (await res.json()) as { Token: string };
  await page.goto(`/view?db=1&token=${encodeURIComponent(Token)}`);
  await expect(page.getByTestId('search-list')).toBeVisible();
  // The app has taken the token out of the address once it stored the session.
  await expect(page).not.toHaveURL(/[?&]token=/);
  return Token;
}

export interface Doc {
  Id: number;
  Hash: string;
  ArchiveId: number;
  Hits: number | null;
  Fields: { ID: number; VAL: string; MVAL?: string[] }[];
}
export interface DocPage {
  Count: number;
  Docs: Doc[];
  Terms: string[];
}

/** GET .../searches/{id}/archive/{a}/documents as the app calls it. */
export async function apiDocs(
  request: APIRequestContext,
  token: string,
  q: { searchId: number; archiveId: number; criteria?: string; sort?: string; page?: number; rpp?: number; tabID?: number },
): Promise<DocPage> {
  const params: Record<string, string | number> = { token, page: q.page ?? 1, RecordsPerPage: q.rpp ?? 10, Count: 'true' };
  if (q.criteria) params.SearchCriteria = q.criteria;
  if (q.sort) params.sort = q.sort;
  if (q.tabID !== undefined) params.tabID = q.tabID;
  const res = await request.get(`/api/dbs/1/searches/${q.searchId}/archive/${q.archiveId}/documents`, { params });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as DocPage;
}

export const val = (d: Doc, fieldId: number): string => d.Fields.find((f) => f.ID === fieldId)?.VAL ?? '';

/** The results address's query as an object (criteria, rpp, archive, tabID ...). */
export function resultsQuery(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

// --- the grid --------------------------------------------------------------------------------

export const grid = (page: Page): Locator => page.locator('.results-grid');
/** Rendered body rows of the grid's main table (virtualised: only those near the viewport). */
export const gridRows = (page: Page): Locator => grid(page).locator('.ht_master .htCore tbody tr');
export const gridRow = (page: Page, i: number): Locator => gridRows(page).nth(i);
/** The cell of a grid row that holds its check box. */
export const checkCell = (page: Page, row: number): Locator => gridRow(page, row).locator('td').filter({ has: page.locator('input.results-check') });
/** The visible column headers (the top clone), by their text. */
export const gridHeaders = (page: Page): Locator => grid(page).locator('.ht_clone_top thead th');
export const gridHeader = (page: Page, name: string): Locator =>
  grid(page).locator('.ht_clone_top thead th').filter({ has: page.locator('.colHeader', { hasText: new RegExp(`^${name}$`) }) });

export async function headerTexts(page: Page): Promise<string[]> {
  return (await gridHeaders(page).locator('.colHeader').allTextContents()).map((s) => s.trim());
}

/** The text of one cell of a rendered row, by the column's header. */
export async function cellText(page: Page, row: number, column: string): Promise<string> {
  const headers = await headerTexts(page);
  const idx = headers.indexOf(column);
  expect(idx, `column ${column} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return ((await gridRow(page, row).locator(`td[aria-colindex="${idx + 1}"]`).textContent()) ?? '').trim();
}

/** Waits until the grid shows `count` documents and its first row holds `firstTitle`. */
export async function expectGrid(page: Page, count: number, firstTitle: string): Promise<void> {
  await expect(page.getByTestId('results-count')).toHaveText(`${count} ${count === 1 ? 'document' : 'documents'}`);
  await expect(gridRow(page, 0)).toContainText(firstTitle);
}

/** Runs the selected search with its form as filled; returns the criteria the app put in the address. */
export async function runSearch(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/results\//);
  return resultsQuery(page).get('criteria') ?? '';
}

/** Waits until the Dexie page cache (archive-app, table pages) holds a page of this grid. */
export async function waitForCachedPage(page: Page, match: { gridKey: string; page: number; pageSize?: number }): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (m) => {
          const open = indexedDB.open('archive-app');
          const handle = await new Promise<IDBDatabase>((resolve, reject) => {
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          try {
            const rows = await new Promise<{ gridKey: string; page: number; pageSize: number }[]>((resolve) => {
              const q = handle.transaction('pages').objectStore('pages').getAll();
              q.onsuccess = () => resolve(q.result as { gridKey: string; page: number; pageSize: number }[]);
            });
            return rows.some((r) => r.gridKey === m.gridKey && r.page === m.page && (m.pageSize === undefined || r.pageSize === m.pageSize));
          } finally {
            handle.close();
          }
        }, match),
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Waits until the persisted query cache (Dexie queryCache) holds the search screen's copy of one search. */
export function waitForPersistedSearch(page: Page, searchId: number): Promise<void> {
  return waitForPersistedCache(page, ['"queryKey":["search","one"', `,1,${searchId}],`]);
}
