/**
 * Export from the results grid (issue 10 item 1, client), as `user` against the real server: documents
 * checked on two result pages exported with a CSV; the tray shows the job's progress, then the file and
 * Download; the zip holds every document's file (bytes equal to the document's own) and a CSV whose rows
 * are the grid's documents with their index data; after a reload the finished export is still listed
 * and downloads again (then through the File System Access API, streamed into the picked file); Save to
 * folder unpacks the zip into a picked folder (the origin-private file system answers the picker); an Excel
 * export downloads a .xlsx; refusals and rights are shown in words; names with forbidden characters are
 * refused in the dialog; on a touch tablet the dialog fits and works by tapping.
 *
 * Data: each test makes its own documents: it titles some Correspondence documents with a mark no other
 * test uses, copies them through the API into Incoming (a copy keeps every field value and shares the
 * files), puts the originals' titles back, and exports the marked copies, found by the Content Search's
 * Title prompt. An export only reads them (and adds an 'exported' history entry). The refusal test
 * exports Contracts, whose last documents the seed holds back (PDF conversion pending, in a workflow).
 */
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import { A, F, S, cellText, checkCell, expect, gridRow, openDemo, test, type Doc } from './grid-support';
import { expectTapTarget, getSearch, promptId, uniqueMark } from './editing-support';
import { jobs, makeDocuments, openMarked as openMarkedIn, type Fixture } from './marked-documents';
import { waitForServiceWorker, withServiceWorker } from './support';

/** The marked documents in Incoming, sorted by Title (the order the export's rows are checked in). */
const openMarked = (page: Page, f: Fixture, rpp: number) => openMarkedIn(page, f, rpp, { sort: `${F.title}:asc` });

/** Opens a saved search's results (no criteria) in one of its archives. */
async function openSearch(page: Page, request: APIRequestContext, token: string, q: { db: number; searchId: number; archiveId: number }): Promise<void> {
  const search = await getSearch(request, token, q.db, q.searchId);
  const params = new URLSearchParams({ Id: String(q.searchId), db: String(q.db), archive: String(q.archiveId), criteria: '[]' });
  await page.goto(`/results/${search.Hash}?${params.toString()}`);
  await expect(page.getByTestId('results-count')).toBeVisible();
}

async function goToPage(page: Page, name: string): Promise<void> {
  const before = (await gridRow(page, 0).textContent()) ?? '';
  await page.getByRole('button', { name, exact: true }).click();
  await expect(gridRow(page, 0)).not.toHaveText(before);
}

const tray = (page: Page) => ({ button: page.getByTestId('header-notifications'), panel: page.getByRole('region', { name: 'Notifications', exact: true }) });

/** The export's job id, from the outbox entry the dialog made once the server accepted it. */
async function exportJobId(page: Page): Promise<number> {
  let id = 0;
  await expect
    .poll(
      async () => {
        id = await page.evaluate(async () => {
          const open = indexedDB.open('archive-app');
          const handle = await new Promise<IDBDatabase>((resolve, reject) => {
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          try {
            const all = await new Promise<{ kind: string; result?: { JobId?: number } }[]>((resolve) => {
              const q = handle.transaction('outbox').objectStore('outbox').getAll();
              q.onsuccess = () => resolve(q.result as { kind: string; result?: { JobId?: number } }[]);
            });
            return all.filter((e) => e.kind === 'export-request').at(-1)?.result?.JobId ?? 0;
          } finally {
            handle.close();
          }
        });
        return id;
      },
      { message: 'the server accepted the export' },
    )
    .toBeGreaterThan(0);
  return id;
}

/** Without the File System Access API the export is downloaded (Firefox, Safari, iPadOS). */
async function withoutSavePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('fake-picker') === '1') {
      // The browser's picker, answered with a file of the origin's private file system (no dialog).
      Object.defineProperty(window, 'showSaveFilePicker', {
        configurable: true,
        value: async (o: { suggestedName: string }) => (await navigator.storage.getDirectory()).getFileHandle(o.suggestedName, { create: true }),
      });
    } else {
      Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined });
    }
  });
}

/** A minimal RFC 4180 reader (quotes doubled, delimiters and line breaks inside quotes). */
function parseCsv(text: string, delimiter = ',', quote = '"'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === quote && text[i + 1] === quote) {
        cell += quote;
        i++;
      } else if (c === quote) quoted = false;
      else cell += c;
    } else if (c === quote) quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

async function downloaded(d: Download): Promise<Buffer> {
  return readFile((await d.path())!);
}

/** The document's own file, through the single-export route (one file: the file itself). */
async function documentFile(request: APIRequestContext, token: string, d: Doc): Promise<Buffer> {
  const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/file`, { params: { token, SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  return res.body();
}

test.describe('export', () => {
  test('documents checked on two result pages are exported with a CSV: the tray shows progress, then the file and Download; the zip has every file and the grid\'s rows; after a reload it is still listed and downloads again, streamed into a picked file', async ({ page, request }) => {
    test.setTimeout(120_000);
    await withoutSavePicker(page);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 4, 'ex-zip');
    await openMarked(page, f, 2);
    await expect(page.getByTestId('results-count')).toHaveText('4 documents');

    // Page 1: both rows; page 2: the first row. Their titles as the grid shows them.
    const gridTitles: string[] = [];
    await page.getByLabel('Select all').check();
    gridTitles.push(await cellText(page, 0, 'Title'), await cellText(page, 1, 'Title'));
    await goToPage(page, 'Next page');
    await checkCell(page, 0).click();
    gridTitles.push(await cellText(page, 0, 'Title'));
    await expect(page.getByTestId('results-selected')).toHaveText('3 selected');

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('The 3 checked documents')).toBeChecked();
    await expect(dialog.getByLabel('All 4 results of the search')).not.toBeChecked();
    // The defaults of the Export tab: a CSV, comma and double quote.
    await expect(dialog.getByLabel('Add a CSV file of the index data')).toBeChecked();
    await expect(dialog.getByLabel('Field delimiter', { exact: true })).toHaveValue(',');
    await expect(dialog.getByLabel('String delimiter', { exact: true })).toHaveValue('"');
    // Burning annotations in is offered, and off unless chosen.
    await expect(dialog.getByLabel('Include annotations')).toBeEnabled();
    await expect(dialog.getByLabel('Include annotations')).not.toBeChecked();
    await dialog.getByLabel('Field delimiter', { exact: true }).fill(';');
    await dialog.getByRole('button', { name: 'Start export' }).click();
    await expect(dialog).toBeHidden();

    const jobId = await exportJobId(page);
    const t = tray(page);
    await t.button.click();
    const card = t.panel.getByTestId(`job-${jobId}`);
    await expect(card).toBeVisible();
    await expect(card.getByRole('progressbar', { name: 'Progress of Export 3 documents' })).toBeVisible();
    const download = card.getByRole('button', { name: /^Download export-/ });
    await expect(download).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('progressbar')).toHaveAttribute('value', '3');
    await expect(card).toContainText('3 of 3 done');
    await expect(card).toContainText(/available until/);
    const fileLine = card.getByTestId(`export-file-${jobId}`);
    await expect(fileLine).toContainText(`export-${jobId}.zip`);

    const [first] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(first.suggestedFilename()).toBe(`export-${jobId}.zip`);
    const zipBytes = await downloaded(first);
    const entries = unzipSync(new Uint8Array(zipBytes));
    const csv = parseCsv(strFromU8(entries['index.csv']!), ';');
    const [header, ...rows] = csv;
    expect(header!.slice(0, 3)).toEqual(['ArchiveID', 'DocID', 'File']);
    const fieldNames = header!.slice(3);
    expect(fieldNames).toContain('Title');
    expect(rows).toHaveLength(3);
    const exported = rows.map((r) => f.docs.find((d) => String(d.Id) === r[1])!);
    expect(exported.every(Boolean), 'each CSV row is one of the checked documents').toBe(true);
    // The rows are the grid's documents (by title), each with its index data as stored.
    expect(rows.map((r) => r[3 + fieldNames.indexOf('Title')]).sort()).toEqual([...gridTitles].sort());
    for (const [i, r] of rows.entries()) {
      const d = exported[i]!;
      expect(r[0]).toBe(String(A.incoming));
      for (const [k, name] of fieldNames.entries()) {
        const field = f.fields.find((x) => x.Name === name)!;
        const value = d.Fields.find((x) => x.ID === field.ID);
        if (value?.MVAL?.length) continue;
        expect(r[3 + k], `${name} of document ${d.Id}`).toBe(value?.VAL ?? '');
      }
      // Every file the row names is in the zip, byte for byte the document's own.
      const names = r[2]!.split('; ');
      expect(names).toHaveLength(1);
      expect(entries[names[0]!], names[0]).toBeDefined();
      expect(Buffer.from(entries[names[0]!]!).equals(await documentFile(request, token, d)), `${names[0]} is the file of document ${d.Id}`).toBe(true);
    }
    expect(Object.keys(entries).sort()).toEqual([...rows.map((r) => r[2]!), 'index.csv'].sort());

    // A reload (the job lives in the jobs table): still listed, and downloads again, now through the
    // File System Access API, streamed into the picked file.
    await page.evaluate(() => sessionStorage.setItem('fake-picker', '1'));
    await page.reload();
    await t.button.click();
    await expect(t.panel.getByTestId(`job-${jobId}`).getByTestId(`export-file-${jobId}`)).toContainText(`export-${jobId}.zip`);
    await t.panel.getByTestId(`job-${jobId}`).getByRole('button', { name: /^Download export-/ }).click();
    await expect
      .poll(() =>
        page.evaluate(async (name) => {
          // Not there until the picker has answered.
          const handle = await (await navigator.storage.getDirectory()).getFileHandle(name).catch(() => null);
          return handle ? (await handle.getFile()).size : -1;
        }, `export-${jobId}.zip`),
      )
      .toBe(zipBytes.length);
    const saved = await page.evaluate(async (name) => {
      const file = await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile();
      return Array.from(new Uint8Array(await file.arrayBuffer()));
    }, `export-${jobId}.zip`);
    expect(Buffer.from(saved).equals(zipBytes)).toBe(true);
  });

  test('Save to folder: the zip is unpacked as it streams into the picked folder, in a sub-folder named after the export, every document\'s file byte for byte and the CSV', async ({ page, request }) => {
    test.setTimeout(120_000);
    // The browser's folder picker, answered with the origin's private file system (no dialog).
    await page.addInitScript(() => {
      Object.defineProperty(window, 'showDirectoryPicker', { configurable: true, value: () => navigator.storage.getDirectory() });
    });
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 2, 'ex-folder');
    await openMarked(page, f, 25);
    await page.getByLabel('Select all').check();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    await dialog.getByRole('button', { name: 'Start export' }).click();
    await expect(dialog).toBeHidden();

    const jobId = await exportJobId(page);
    const t = tray(page);
    await t.button.click();
    const card = t.panel.getByTestId(`job-${jobId}`);
    const save = card.getByRole('button', { name: `Save export-${jobId}.zip to a folder` });
    await expect(save).toBeVisible({ timeout: 30_000 });
    await save.click();
    await expect(card.getByText(`Saved in the folder /export-${jobId}.`)).toBeVisible();

    // What the folder holds: export-{JobId}/ with the CSV and each document's file.
    const files = await page.evaluate(async (folder) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
      const out: Record<string, number[]> = {};
      for await (const [name, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (h.kind === 'file') out[name] = Array.from(new Uint8Array(await (await (h as FileSystemFileHandle).getFile()).arrayBuffer()));
      }
      return out;
    }, `export-${jobId}`);
    const rows = parseCsv(Buffer.from(files['index.csv']!).toString('utf8')).slice(1);
    expect(rows.map((r) => Number(r[1])).sort()).toEqual(f.docs.map((d) => d.Id).sort());
    for (const r of rows) {
      const d = f.docs.find((x) => String(x.Id) === r[1])!;
      expect(files[r[2]!], r[2]).toBeDefined();
      expect(Buffer.from(files[r[2]!]!).equals(await documentFile(request, token, d)), `${r[2]} is the file of document ${d.Id}`).toBe(true);
    }
    expect(Object.keys(files).sort()).toEqual([...rows.map((r) => r[2]!), 'index.csv'].sort());
  });

  test.describe('with the service worker', () => {
    test.use(withServiceWorker);

    test('offline: the export waits in the outbox, is sent once the connection returns with the tab closed, and the next opening lists it with Download', async ({ page, context, request }) => {
      test.setTimeout(120_000);
      await withoutSavePicker(page);
      const token = await openDemo(page, 'user');
      const f = await makeDocuments(request, token, 2, 'ex-offline');
      await openMarked(page, f, 25);
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await page.getByLabel('Select all').check();
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('dialog', { name: 'Export documents' }).getByRole('button', { name: 'Start export' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Export 2 documents starts when the connection returns' })).toBeVisible();
      const t = tray(page);
      await t.button.click();
      // The outbox entry, not the card of an earlier export of 2 documents (jobs are named alike now).
      const entry = t.panel.getByRole('listitem', { name: 'Export 2 documents', exact: true }).and(t.panel.locator('.outbox-entry'));
      await expect(entry).toContainText('Waiting to be sent');

      await page.close();
      await context.setOffline(false);
      const again = await context.newPage();
      await withoutSavePicker(again);
      await again.goto('/');
      const jobId = await exportJobId(again);
      const t2 = tray(again);
      await t2.button.click();
      const card = t2.panel.getByTestId(`job-${jobId}`);
      await expect(card).toHaveAccessibleName('Export 2 documents');
      const download = card.getByRole('button', { name: `Download export-${jobId}.zip` });
      await expect(download).toBeVisible({ timeout: 30_000 });
      const [d] = await Promise.all([again.waitForEvent('download'), download.click()]);
      const entries = unzipSync(new Uint8Array(await downloaded(d)));
      const rows = parseCsv(strFromU8(entries['index.csv']!)).slice(1);
      expect(rows.map((r) => Number(r[1])).sort()).toEqual(f.docs.map((x) => x.Id).sort());
      // Sent once: one export job of these documents.
      const exports = (await jobs(request, token)).filter((j) => j.Kind === 'export' && j.Count === 2 && j.Id >= jobId);
      expect(exports.map((j) => j.Id)).toEqual([jobId]);
    });
  });

  test('an Excel export of all results downloads a .xlsx workbook with every document', async ({ page, request }) => {
    await withoutSavePicker(page);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 2, 'ex-xlsx');
    await openMarked(page, f, 25);
    await page.getByRole('button', { name: 'Export to Excel', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export index data to Excel' });
    // Nothing checked: every result of the search.
    await expect(dialog.getByLabel('All 2 results of the search')).toBeChecked();
    await expect(dialog.getByLabel('Add a CSV file of the index data')).toHaveCount(0);
    await dialog.getByLabel('File name (empty: chosen by the server)').fill('marked invoices');
    await dialog.getByRole('button', { name: 'Start export' }).click();
    const jobId = await exportJobId(page);
    const t = tray(page);
    await t.button.click();
    const download = t.panel.getByTestId(`job-${jobId}`).getByRole('button', { name: 'Download marked invoices.xlsx' });
    await expect(download).toBeVisible({ timeout: 30_000 });
    const [d] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(d.suggestedFilename()).toBe('marked invoices.xlsx');
    const book = unzipSync(new Uint8Array(await downloaded(d)));
    expect(Object.keys(book)).toContain('xl/workbook.xml');
    const sheets = Object.entries(book).filter(([n]) => n.startsWith('xl/')).map(([, b]) => strFromU8(b)).join('\n');
    for (const doc of f.docs) expect(sheets).toContain(doc.Fields.find((x) => x.ID === F.title)!.VAL);
  });

  test('a refused export is said in words: Contracts holds documents waiting for PDF conversion and in a workflow', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    await openSearch(page, request, token, { db: 1, searchId: S.contracts, archiveId: A.contracts });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    await expect(dialog.getByLabel(/^All \d+ results of the search$/)).toBeChecked();
    await dialog.getByRole('button', { name: 'Start export' }).click();
    const words = 'Some documents are waiting for PDF conversion or are in a workflow and cannot be exported yet.';
    await expect(page.getByRole('alert').filter({ hasText: words })).toBeVisible();
    const t = tray(page);
    await t.button.click();
    await expect(t.panel.getByRole('listitem').filter({ hasText: 'Export' }).getByRole('alert')).toContainText(words);
  });

  test('the Export tab of the settings holds the defaults the dialog opens with, checked like the dialog', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    await page.getByTestId('header-settings').click();
    const tab = page.getByRole('group', { name: 'Export', exact: true });
    await expect(tab.getByLabel('Field delimiter', { exact: true })).toHaveValue(',');
    await tab.getByLabel('File name (empty: chosen by the server)').fill('a*b');
    await expect(tab.getByLabel('File name (empty: chosen by the server)')).toHaveAccessibleDescription('These characters are not allowed in a name: *');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Correct what is marked before saving.' })).toBeVisible();
    await tab.getByLabel('File name (empty: chosen by the server)').fill('weekly');
    await tab.getByLabel('Field delimiter', { exact: true }).fill('|');
    await tab.getByLabel('Put every value between string delimiters').check();
    await tab.getByLabel('Convert pages to black and white').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

    const f = await makeDocuments(request, token, 1, 'ex-defaults');
    await openMarked(page, f, 25);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    await expect(dialog.getByLabel('Field delimiter', { exact: true })).toHaveValue('|');
    await expect(dialog.getByLabel('String delimiter', { exact: true })).toHaveValue('"');
    await expect(dialog.getByLabel('Put every value between string delimiters')).toBeChecked();
    await expect(dialog.getByLabel('Convert pages to black and white')).toBeChecked();
    await expect(dialog.getByLabel('Convert TIFF documents to PDF')).not.toBeChecked();
    await expect(dialog.getByLabel('File name (empty: chosen by the server)')).toHaveValue('weekly');
  });

  test('with nothing checked and no results, Export says there is nothing to export and opens no dialog', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const search = await getSearch(request, token, 1, S.contentSearch);
    const criteria = [{ ID: promptId(search, 'Title'), VAL: uniqueMark('ex-none') }];
    const params = new URLSearchParams({ Id: String(S.contentSearch), db: '1', archive: String(A.incoming), criteria: JSON.stringify(criteria) });
    await page.goto(`/results/${search.Hash}?${params.toString()}`);
    await expect(page.getByTestId('results-count')).toHaveText('0 documents');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'There is nothing to export.' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('forbidden characters in the names are shown beside them; Start says what to fix; Escape closes the dialog', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 1, 'ex-names');
    await openMarked(page, f, 25);
    await checkCell(page, 0).click();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    const name = dialog.getByLabel('File name (empty: chosen by the server)');
    await name.fill('march: a/b');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription('These characters are not allowed in a name: : /');
    await dialog.getByLabel('String delimiter', { exact: true }).fill(',');
    await expect(dialog.getByText('The field delimiter and the string delimiter must differ.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Start export' }).click();
    const problems = dialog.getByRole('alert');
    await expect(problems).toContainText('Correct these before starting the export:');
    await expect(problems).toContainText('These characters are not allowed in a name: : /');
    await expect(name).toBeFocused();
    // Nothing was sent.
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('rights: a viewer without bit 128 sees Export disabled with the reason, and Export to Excel barred by the read-only licence; an archive without bit 64 bars Excel export', async ({ page, browser, request }) => {
    const viewerToken = await openDemo(page, 'viewer');
    // The viewer's own rights on Invoices lack export (128) (server/seed/catalog.ts).
    await openSearch(page, request, viewerToken, { db: 1, searchId: S.allInvoices, archiveId: A.invoices });
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    await expect(exportButton).toHaveAttribute('aria-disabled', 'true');
    await expect(exportButton).toHaveAccessibleDescription('You may not export documents of this archive.');
    // aria-disabled, not disabled: pressing it still says why (Playwright waits for enabled controls, hence force).
    await exportButton.click({ force: true });
    await expect(page.getByRole('alert').filter({ hasText: 'You may not export documents of this archive.' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const excel = page.getByRole('button', { name: 'Export to Excel', exact: true });
    await expect(excel).toHaveAttribute('aria-disabled', 'true');
    await expect(excel).toHaveAccessibleDescription('Your licence is read-only.');

    // `user` has read rights only (128, not 64) on Records Management.
    const other = await browser.newPage();
    try {
      const userToken = await openDemo(other, 'user');
      // Records Management: database 2, search 8, archive 9 (server/seed/catalog.ts).
      await openSearch(other, request, userToken, { db: 2, searchId: 8, archiveId: 9 });
      const otherExcel = other.getByRole('button', { name: 'Export to Excel', exact: true });
      await expect(otherExcel).toHaveAttribute('aria-disabled', 'true');
      await expect(otherExcel).toHaveAccessibleDescription('You may not export documents of this archive to Excel.');
    } finally {
      await other.close();
    }
  });

  test('@touch on a tablet the dialog fits both ways, its controls are finger-sized, and an export started by tapping downloads', async ({ page, request }) => {
    await withoutSavePicker(page);
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, 2, 'ex-touch');
    await openMarked(page, f, 25);
    await checkCell(page, 0).tap();
    await checkCell(page, 1).tap();
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    await expectTapTarget(exportButton, 'Export');
    await exportButton.tap();
    const dialog = page.getByRole('dialog', { name: 'Export documents' });
    await expect(dialog).toBeVisible();
    for (const size of [{ width: 768, height: 1024 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      const box = (await dialog.boundingBox())!;
      expect(box.x, `dialog inside ${size.width}x${size.height}`).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      await expectTapTarget(dialog.getByRole('button', { name: 'Start export' }), 'Start export');
    }
    await page.setViewportSize({ width: 768, height: 1024 });
    await expectTapTarget(dialog.locator('label').filter({ hasText: 'The 2 checked documents' }), 'the checked-documents choice');
    await expectTapTarget(dialog.getByRole('button', { name: 'Select none' }), 'Select none');
    await expectTapTarget(dialog.locator('label').filter({ hasText: 'Convert TIFF documents to PDF' }), 'a conversion choice');
    await expectTapTarget(dialog.getByLabel('Field delimiter', { exact: true }), 'the field delimiter');
    await dialog.getByRole('button', { name: 'Start export' }).tap();
    await expect(dialog).toBeHidden();
    const jobId = await exportJobId(page);
    const t = tray(page);
    await t.button.tap();
    const download = t.panel.getByTestId(`job-${jobId}`).getByRole('button', { name: /^Download export-/ });
    await expect(download).toBeVisible({ timeout: 30_000 });
    await expectTapTarget(download, 'Download');
    const [d] = await Promise.all([page.waitForEvent('download'), download.tap()]);
    const entries = unzipSync(new Uint8Array(await downloaded(d)));
    expect(Object.keys(entries)).toHaveLength(3);
    expect(Object.keys(entries)).toContain('index.csv');
  });
});
