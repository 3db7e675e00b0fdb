/**
 * Import documents with index data (issue 11 item 3), as `user` against the real server and the
 * built app, nothing mocked: a CSV (quoted delimiters, a line break inside a quoted field, a bad date,
 * an over-long value, a row of index data only) and small PDF files are picked in the Import dialog of
 * the Correspondence results; the check counts the refused rows and offers them as an error file
 * (rows and reasons asserted); Import uploads each file once and queues one outbox entry whose job the
 * tray follows to its end; then the documents exist exactly once with their index values (grid and
 * API) and each file's bytes are the uploaded ones. The read-only licence sees no Import; on a touch
 * tablet the dialog fits and works by tapping.
 *
 * Data: each test marks its titles with a mark no other test uses and finds its documents by the
 * Content Search's Title prompt.
 */
import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import type { APIRequestContext, Page } from '@playwright/test';
import { A, S, cellText, expect, gridRow, openDemo, test, type Doc } from './grid-support';
import { expectTapTarget, getSearch, promptId, searchDocs, uniqueMark } from './editing-support';

/** A small real PDF whose page names it (each file's bytes differ). */
async function pdfOf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.addPage([300, 200]).drawText(title, { x: 20, y: 100, size: 10 });
  return Buffer.from(await doc.save());
}

const tray = (page: Page) => ({ button: page.getByTestId('header-notifications'), panel: page.getByRole('region', { name: 'Notifications', exact: true }) });

async function fieldIds(request: APIRequestContext, token: string): Promise<(name: string) => number> {
  const res = await request.get(`/api/dbs/1/archives/${A.correspondence}`, { params: { token, type: 'fields' } });
  expect(res.status(), await res.text()).toBe(200);
  const fields = (await res.json()) as { ID: number; Name: string }[];
  return (name) => fields.find((f) => f.Name === name)!.ID;
}

/** The Content Search's results in Correspondence: with `mark`, only this test's documents. */
async function openCorrespondence(page: Page, request: APIRequestContext, token: string, mark?: string): Promise<{ ID: number; VAL: string }[]> {
  const search = await getSearch(request, token, 1, S.contentSearch);
  const criteria = mark ? [{ ID: promptId(search, 'Title'), VAL: mark }] : [];
  const params = new URLSearchParams({ Id: String(S.contentSearch), db: '1', archive: String(A.correspondence), rpp: '25', ...(mark ? { criteria: JSON.stringify(criteria), sort: '1:asc' } : {}) });
  await page.goto(`/results/${search.Hash}?${params.toString()}`);
  await expect(gridRow(page, 0)).toBeVisible();
  return criteria;
}

test.describe('import documents with index data', () => {
  test('a CSV and its files: refused rows counted and in the error file, the rest imported once with their values and files', async ({ page, request }) => {
    test.setTimeout(180_000);
    const token = await openDemo(page, 'user');
    const field = await fieldIds(request, token);
    const mark = uniqueMark('imp');
    const files = { a: `${mark}-a.pdf`, b: `${mark}-b.pdf`, c: `${mark}-c.pdf` };
    const bytes = { a: await pdfOf(files.a), b: await pdfOf(files.b), c: await pdfOf(files.c) };
    const long = `${mark} 04 ${'x'.repeat(120)}`;
    const csv = [
      'Title,Document Date,Notes,File',
      `"${mark} 01, ""quoted""",03/04/2026,"note; with, commas",${files.a}`,
      `${mark} 02,12/31/2025,"first line\nsecond line",${files.b}`,
      `${mark} 03,02/31/2026,bad date,${files.c}`,
      `${long},01/01/2026,too long,${files.c}`,
      `${mark} 05,01/02/2026,index only,`,
      `${mark} 06,01/03/2026,uses c,C:\\scans\\${files.c}`,
    ].join('\r\n');

    await openCorrespondence(page, request, token);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import documents with index data' });
    await expect(dialog).toBeVisible();
    // Nothing picked: Check says what is missing.
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('Choose a CSV file.');

    await dialog.getByLabel('CSV file of index data').setInputFiles({ name: `${mark}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // The mapping is guessed from the header: the fields by name, the file column by its name.
    await expect(dialog.getByRole('combobox', { name: 'Title (required)', exact: true })).toHaveValue('0');
    await expect(dialog.getByRole('combobox', { name: 'Document Date', exact: true })).toHaveValue('1');
    await expect(dialog.getByRole('combobox', { name: 'Notes', exact: true })).toHaveValue('2');
    await expect(dialog.getByRole('combobox', { name: "File column (the document's file name)" })).toHaveValue('3');
    await expect(dialog.getByLabel('Import Title')).toBeChecked();
    // A required field left unmapped is said at once.
    await dialog.getByRole('combobox', { name: 'Title (required)', exact: true }).selectOption('-1');
    await expect(dialog.getByRole('alert')).toContainText('Required fields are missing from the import. Map these fields to columns: Title.');
    await dialog.getByRole('combobox', { name: 'Title (required)', exact: true }).selectOption({ label: 'Title' });
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    await dialog.getByLabel('Document files').setInputFiles([
      { name: files.a, mimeType: 'application/pdf', buffer: bytes.a },
      { name: files.b, mimeType: 'application/pdf', buffer: bytes.b },
      { name: files.c, mimeType: 'application/pdf', buffer: bytes.c },
    ]);
    await dialog.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(dialog.getByText('4 rows will be imported, 2 refused.')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByText('3 files will be uploaded.')).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: `Download the refused rows (${mark}-errors.csv)` }).click()]);
    expect(download.suggestedFilename()).toBe(`${mark}-errors.csv`);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\r\n');
    expect(lines).toEqual([
      'Title,Document Date,Notes,File,Reason',
      `${mark} 03,02/31/2026,bad date,${files.c},A value in the import does not match the type of its field. Document Date: Invalid date`,
      `${long},01/01/2026,too long,${files.c},A value in the import does not match the type of its field. Title: The value is longer than the field allows`,
    ]);

    await dialog.getByRole('button', { name: 'Import 4 documents' }).click();
    await expect(dialog).toBeHidden();
    const t = tray(page);
    await t.button.click();
    // Each file is uploaded once (c is named by two rows), shown in the tray; then the import's job.
    for (const name of Object.values(files)) await expect(t.panel.getByRole('listitem', { name, exact: true })).toHaveCount(1);
    const card = t.panel.getByRole('listitem', { name: `Import of 4 documents from ${mark}.csv` });
    await expect(card).toContainText('4 of 4 done', { timeout: 60_000 });
    await expect(card).toContainText('Import: 4 in all, 4 succeeded, 0 failed');
    await t.button.click();

    // Exactly once each, with their values: through the API ...
    const search = await getSearch(request, token, 1, S.contentSearch);
    const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
    const docs = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.correspondence, criteria, rpp: 50, sort: '1:asc' })).Docs.filter((d) => d.ArchiveId === A.correspondence);
    const val = (d: Doc, name: string) => d.Fields.find((x) => x.ID === field(name))?.VAL ?? '';
    expect(docs.map((d) => val(d, 'Title'))).toEqual([`${mark} 01, "quoted"`, `${mark} 02`, `${mark} 05`, `${mark} 06`]);
    expect(docs.map((d) => val(d, 'Notes'))).toEqual(['note; with, commas', 'first line\nsecond line', 'index only', 'uses c']);
    // ... and in the grid, in the user's date format.
    await openCorrespondence(page, request, token, mark);
    await expect(page.getByTestId('results-count')).toHaveText('4 documents');
    const dates: string[] = [];
    for (let i = 0; i < 4; i++) dates.push(await cellText(page, i, 'Document Date'));
    expect(dates).toEqual(['03/04/2026', '12/31/2025', '01/02/2026', '01/03/2026']);

    // Each document's file is the file uploaded, byte for byte; the index-only one has none.
    const fileOf = async (d: Doc) => {
      const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/file`, { params: { token, SecureId: d.Hash } });
      return { status: res.status(), body: await res.body() };
    };
    const [d1, d2, d5, d6] = docs;
    expect((await fileOf(d1!)).body.equals(bytes.a)).toBe(true);
    expect((await fileOf(d2!)).body.equals(bytes.b)).toBe(true);
    expect((await fileOf(d6!)).body.equals(bytes.c)).toBe(true);
    expect((await fileOf(d5!)).status).not.toBe(200);
  });

  test('the read-only licence sees no Import', async ({ page, request }) => {
    const token = await openDemo(page, 'viewer');
    await openCorrespondence(page, request, token);
    await expect(page.getByRole('button', { name: 'Bulk update', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
  });

  test('@touch on a tablet the dialog fits, its controls are finger-sized, and an import of index data started by tapping runs', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('imp-touch');
    await openCorrespondence(page, request, token);
    const button = page.getByRole('button', { name: 'Import', exact: true });
    await expectTapTarget(button, 'Import');
    await button.tap();
    const dialog = page.getByRole('dialog', { name: 'Import documents with index data' });
    // Measured once the archive's fields are in and the form shows.
    await expect(dialog.getByLabel('CSV file of index data')).toBeVisible();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(768);
    await dialog.getByLabel('CSV file of index data').setInputFiles({ name: 'touch.csv', mimeType: 'text/csv', buffer: Buffer.from(`Title;Notes\n${mark} 1;"a;b"\n${mark} 2;c\n`) });
    // A semicolon file: the header reads as one column until the delimiter is said.
    const delimiter = dialog.getByLabel('Field delimiter');
    await expectTapTarget(delimiter, 'Field delimiter');
    await delimiter.fill(';');
    const title = dialog.getByRole('combobox', { name: 'Title (required)', exact: true });
    await expect(title).toHaveValue('0');
    await expectTapTarget(title, 'the Title column');
    await expectTapTarget(dialog.locator('label.check').filter({ hasText: 'Overwrite system fields' }), 'Overwrite system fields');
    const check = dialog.getByRole('button', { name: 'Check', exact: true });
    await expectTapTarget(check, 'Check');
    await check.tap();
    await expect(dialog.getByText('2 rows will be imported, 0 refused.')).toBeVisible({ timeout: 30_000 });
    const run = dialog.getByRole('button', { name: 'Import 2 documents' });
    await expectTapTarget(run, 'Import 2 documents');
    await run.tap();
    await expect(dialog).toBeHidden();
    const search = await getSearch(request, token, 1, S.contentSearch);
    const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
    await expect
      .poll(async () => (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.correspondence, criteria, rpp: 10 })).Docs.filter((d) => d.ArchiveId === A.correspondence).length, { timeout: 60_000 })
      .toBe(2);
  });
});
