/**
 * Key-free extraction (issue 12 item 5; the archive-ops spec §4) against the built app and the real
 * server, whose OCR (tesseract.js) reads the seeded invoice PDF: with the indexer panel open, the
 * toggle turns extraction on, the page's words are drawn over it after the 1.5 s wait, and tapping
 * three words fills three fields, the status naming the field each fills; a word that matches no
 * item of a strict list field is refused with KEYFREE_LIST_ITEM_NOT_FOUND; words are reached by keyboard.
 * Offline: with the words call cut, the open PDF page is read in the browser (tesseract from the app's
 * own /tesseract/); a PDF kept offline (Keep offline), the connection cut and the viewer reloaded,
 * still fills a field from its words; with the device's OCR engine gone from its cache it says the page
 * cannot be read without a connection. A @touch case at tablet size taps the words. The device's OCR files are served from the app's own
 * origin (no CDN) and the CSP lets its wasm compile.
 */
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { A, F, apiDocs, expect, gridRows, openDemo, runSearch, test, val } from './grid-support';
import { apiToken } from './editing-support';
import { waitForServiceWorker, withServiceWorker } from './support';
import { describeDocs, type SessionDoc } from './viewer-support';

/** The invoices of the seed with their type (from the viewer session call) and title, in list order. */
async function invoices(request: APIRequestContext, criteria?: string): Promise<(SessionDoc & { Title: string })[]> {
  const token = await apiToken(request, 'user');
  const listed = await apiDocs(request, token, { searchId: 1, archiveId: A.invoices, criteria, rpp: 100 });
  return (await describeDocs(request, token, listed.Docs)).map((d, i) => ({ ...d, Title: val(listed.Docs[i]!, F.title) }));
}
const invoicePdfs = async (request: APIRequestContext) => (await invoices(request)).filter((d) => d.FileType === 'PDF');

/** The state of the one kept document (Dexie `pins`), or 'none'. */
function pinState(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const open = indexedDB.open('archive-app');
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const r = idb.transaction('pins').objectStore('pins').getAll();
    const pins = await new Promise<{ state: string }[]>((resolve, reject) => {
      r.onsuccess = () => resolve(r.result as { state: string }[]);
      r.onerror = () => reject(r.error);
    });
    idb.close();
    return pins[0]?.state ?? 'none';
  });
}

const indexer = (page: Page) => page.locator('.viewer-indexer');
const field = (page: Page, name: string) => indexer(page).getByLabel(name, { exact: true });
const toggle = (page: Page) => page.getByRole('button', { name: 'Key-free extraction' });
const words = (page: Page) => page.getByRole('group', { name: 'Words on page 1' });
const status = (page: Page) => page.getByTestId('keyfree-status');

async function openWithIndexer(page: Page, doc: SessionDoc) {
  await openDemo(page, 'user');
  await page.goto(`/viewer/${doc.Hash}?archive=${doc.Archive}&Id=${doc.Id}&db=1`);
  await expect(page.locator('.viewer-pdf-page[data-page="1"][data-rendered] canvas')).toBeVisible({ timeout: 20_000 });
  // On a narrow screen (a tablet in portrait) the panel starts closed under the pages.
  await expect(page.getByRole('button', { name: /^(Show|Hide) index fields$/ })).toBeVisible({ timeout: 20_000 });
  const show = page.getByRole('button', { name: 'Show index fields' });
  if (await show.isVisible()) await show.click();
  await expect(field(page, 'Title')).toBeVisible();
  await expect(field(page, 'Title')).toBeEditable();
}

/** The word buttons of a line of the page (lines numbered from 1 in reading order). */
const line = (page: Page, n: number): Locator => words(page).locator(`button[data-line="${n}"]`);

test.describe('key-free extraction', () => {
  test('toggle on, words over the page after 1.5 s, three taps fill three fields; a list refuses a word', async ({ page, request }) => {
    const [doc] = await invoicePdfs(request);
    expect(doc, 'an invoice PDF').toBeTruthy();
    await openWithIndexer(page, doc!);

    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith(`/documents/${doc!.Id}/words`));
    const t0 = Date.now();
    await expect(status(page)).toHaveText('Reading the words of this page…');
    await asked;
    // Asked only after the page had been shown 1.5 s with extraction on.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_300);
    await expect(words(page)).toBeVisible({ timeout: 90_000 });
    await expect(status(page)).toHaveText('Tap a word for: Title');

    // The first line is the document's title, "<Kind> <id> <Customer...>". Each box sits on the page.
    // Its title as seeded: another browser test may have edited the Title field since, not the page.
    await expect.poll(async () => (await line(page, 1).evaluateAll((ws) => ws.map((w) => w.getAttribute('aria-label')))).join(' ')).toMatch(new RegExp(`^\\S+ ${doc!.Id} \\S`));
    const kind = (await line(page, 1).nth(0).getAttribute('aria-label'))!;
    const number = (await line(page, 1).nth(1).getAttribute('aria-label'))!;
    expect(number).toBe(String(doc!.Id));
    const pageBox = (await page.locator('.viewer-pdf-page[data-page="1"]').boundingBox())!;
    const wordBox = (await line(page, 1).nth(0).boundingBox())!;
    expect(wordBox.x).toBeGreaterThanOrEqual(pageBox.x);
    expect(wordBox.y).toBeLessThan(pageBox.y + pageBox.height * 0.15);

    await line(page, 1).nth(0).click();
    await expect(field(page, 'Title')).toHaveValue(kind);
    await expect(status(page)).toHaveText('Tap a word for: Invoice Number');
    await line(page, 1).nth(1).click();
    await expect(field(page, 'Invoice Number')).toHaveValue(number);

    // Choosing another field in the panel makes it the one a word fills. A field that takes only its
    // list's items (Department) refuses a word that is none: said, and extraction stays on.
    // "Number" of the label "Invoice Number": a word on every invoice's page, and on no list.
    const label = words(page).getByRole('button', { name: 'Number', exact: true });
    await field(page, 'Department').focus();
    await expect(status(page)).toHaveText('Tap a word for: Department');
    const department = await field(page, 'Department').inputValue();
    await label.click();
    await expect(page.getByRole('alert').filter({ hasText: "The word matches no item of this field's list." })).toBeVisible();
    await expect(field(page, 'Department')).toHaveValue(department);
    await expect(status(page)).toHaveText('Tap a word for: Department');
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');

    // Status (text), the last field the panel fills, by keyboard: Tab reaches the words, Enter picks.
    await field(page, 'Status').focus();
    await expect(status(page)).toHaveText('Tap a word for: Status');
    await label.focus();
    await page.keyboard.press('Enter');
    await expect(field(page, 'Status')).toHaveValue('Number');
    // After the last field extraction stops, says so, and the words go.
    await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('keyfree-notice')).toHaveText('The last field is filled; key-free extraction has stopped.');
    await expect(words(page)).toHaveCount(0);

    // The device's OCR is served by the app itself, and the CSP lets wasm compile (no CDN).
    for (const path of ['/tesseract/worker.min.js', '/tesseract/core/tesseract-core-simd-lstm.wasm.js', '/tesseract/lang/eng.traineddata.gz']) {
      const r = await request.get(path);
      expect(r.status(), path).toBe(200);
      expect(r.headers()['content-type'] ?? '', path).not.toContain('text/html');
    }
    const csp = (await request.get('/')).headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  });
});

test.describe('key-free extraction on the device', () => {
  test.use(withServiceWorker);

  test('when the words call cannot be reached, the open PDF page is read by OCR in the browser (tesseract from the app itself)', async ({ page, request }) => {
    const pdfs = await invoicePdfs(request);
    const doc = pdfs[2] ?? pdfs[0]!;
    const ocrFiles: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (/tesseract|jsdelivr|unpkg/.test(r.url())) ocrFiles.push(u.origin === new URL(page.url() || 'http://x').origin ? u.pathname : r.url());
    });
    // The server's words call fails as a lost connection would.
    await page.route('**/documents/*/words?**', (route) => route.abort('internetdisconnected'));
    await openWithIndexer(page, doc);
    await toggle(page).click();
    await expect(words(page)).toBeVisible({ timeout: 120_000 });
    await expect(status(page)).toHaveText('Tap a word for: Title');
    // The device read the title line the server would have: "<Kind> <id> ...".
    const number = (await line(page, 1).nth(1).getAttribute('aria-label'))!;
    expect(number).toBe(String(doc.Id));
    await line(page, 1).nth(1).click();
    await expect(field(page, 'Title')).toHaveValue(number);
    // Everything came from the app's own origin: its worker, one wasm core and the English data.
    expect(ocrFiles.every((f) => f.startsWith('/tesseract/')), ocrFiles.join(', ')).toBe(true);
    expect(ocrFiles).toContain('/tesseract/worker.min.js');
    expect(ocrFiles).toContain('/tesseract/lang/eng.traineddata.gz');
    expect(ocrFiles.some((f) => /^\/tesseract\/core\/tesseract-core-.*lstm\.wasm\.js$/.test(f))).toBe(true);
  });
});

/**
 * Keeps the PDF of the grid's first page with the fewest pages (Keep offline), opens it in the
 * viewer, cuts the connection (after `beforeOffline`) and reloads: the indexer panel shows, editable.
 * Returns the kept document.
 */
async function keepAndReopenOffline(page: Page, context: BrowserContext, request: APIRequestContext, beforeOffline?: () => Promise<void>) {
  await openDemo(page, 'user');
  const criteria = await runSearch(page);
  await expect(page.getByTestId('results-count')).toBeVisible();
  // A PDF shown on the grid's first page, fewest pages first (each page is read on the device).
  await expect(gridRows(page).first()).toBeVisible();
  const shown = (await gridRows(page).allInnerTexts()).join('\n');
  const pdfs = (await invoices(request, criteria)).filter((d) => d.FileType === 'PDF' && d.Title && shown.includes(d.Title));
  const kept = pdfs.sort((a, b) => (a.Pages ?? 1) - (b.Pages ?? 1))[0];
  expect(kept, 'a PDF on the first grid page').toBeTruthy();
  const row = gridRows(page).filter({ hasText: kept!.Title }).first();
  await row.locator('td').nth(3).click({ button: 'right' });
  await page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: 'Keep offline', exact: true }).click();
  await expect.poll(() => pinState(page), { timeout: 300_000, message: 'the PDF kept on the device' }).toBe('done');
  // Kept means readable offline: the device's OCR engine (worker, the three cores, the English data)
  // is in the service worker's 'ocr' cache.
  const cached = await page.evaluate(async () => (await (await caches.open('ocr')).keys()).map((r) => new URL(r.url).pathname).sort());
  expect(cached).toEqual(
    ['/tesseract/core/tesseract-core-lstm.wasm.js', '/tesseract/core/tesseract-core-relaxedsimd-lstm.wasm.js', '/tesseract/core/tesseract-core-simd-lstm.wasm.js', '/tesseract/lang/eng.traineddata.gz', '/tesseract/worker.min.js'],
  );

  await page.goto(`/viewer/${kept!.Hash}?archive=${kept!.Archive}&Id=${kept!.Id}&db=1`);
  await expect(page.locator('.viewer-pdf-page[data-page="1"][data-rendered] canvas')).toBeVisible({ timeout: 30_000 });
  await waitForServiceWorker(page);
  await beforeOffline?.();
  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('.viewer-pdf-page[data-page="1"][data-rendered] canvas')).toBeVisible({ timeout: 30_000 });
  const show = page.getByRole('button', { name: 'Show index fields' });
  if (await show.isVisible()) await show.click();
  await expect(field(page, 'Title')).toBeEditable({ timeout: 30_000 });
  return kept!;
}

test.describe('key-free extraction offline', () => {
  test.use(withServiceWorker);

  test('a PDF kept offline: with the connection cut and the viewer reloaded, its words fill a field', async ({ page, context, request }) => {
    test.setTimeout(480_000);
    try {
      const kept = await keepAndReopenOffline(page, context, request);
      await toggle(page).click();
      // Read on the device (tesseract in a worker): seconds on a quiet machine, over a minute beside a
      // parallel browser run; the viewer says "Reading the words of this page…" meanwhile.
      await expect(words(page)).toBeVisible({ timeout: 180_000 });
      // The title line, "<Kind> <id> <Customer>", from the words kept with the document (or read
      // on the device from the kept file).
      await expect(line(page, 1).nth(1)).toHaveAttribute('aria-label', String(kept.Id));
      await line(page, 1).nth(1).click();
      await expect(field(page, 'Title')).toHaveValue(String(kept.Id));
      await expect(status(page)).toHaveText('Tap a word for: Invoice Number');
    } finally {
      await context.setOffline(false);
    }
  });

  test("the device's OCR engine gone from its cache (storage cleared): offline, extraction says it needs a connection, no error thrown", async ({ page, context, request }) => {
    test.setTimeout(480_000);
    try {
      await keepAndReopenOffline(page, context, request, async () => {
        await page.evaluate(() => caches.delete('ocr'));
        // Nor in the browser's HTTP cache.
        await context.route('**/tesseract/**', (route) => route.abort('internetdisconnected'));
      });
      await toggle(page).click();
      await expect(page.getByText('The words of this page cannot be read without a connection.')).toBeVisible({ timeout: 120_000 });
      await expect(words(page)).toBeHidden();
      await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
    } finally {
      await context.setOffline(false);
    }
  });
});

test.describe('key-free extraction on a tablet @touch', () => {
  test('tap the toggle and three words: three fields filled; word boxes are tappable', async ({ page, request }) => {
    const pdfs = await invoicePdfs(request);
    const doc = pdfs[1] ?? pdfs[0]!;
    await openWithIndexer(page, doc);
    await toggle(page).tap();
    await expect(words(page)).toBeVisible({ timeout: 90_000 });
    await expect(status(page)).toHaveText('Tap a word for: Title');
    const kind = (await line(page, 1).nth(0).getAttribute('aria-label'))!;
    const number = (await line(page, 1).nth(1).getAttribute('aria-label'))!;
    await line(page, 1).nth(0).tap();
    await expect(field(page, 'Title')).toHaveValue(kind);
    await line(page, 1).nth(1).tap();
    await expect(field(page, 'Invoice Number')).toHaveValue(number);
    await field(page, 'Status').tap();
    await expect(status(page)).toHaveText('Tap a word for: Status');
    await words(page).getByRole('button', { name: 'Number', exact: true }).tap();
    await expect(field(page, 'Status')).toHaveValue('Number');
    // The toggle is a 44 px target.
    const box = (await toggle(page).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
  });
});
