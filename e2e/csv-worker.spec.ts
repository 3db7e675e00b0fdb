/**
 * The CSV worker in the built app (issue 11 item 2), through a real screen: the bulk update dialog's
 * CSV tab, as `user` against the real server. A generated CSV of ~3 MiB (three times the worker's
 * 1 MiB scan size) with ';' as field and "'" as string delimiter, quoted values holding both and
 * line breaks: its header's columns are offered for mapping; text after a closing string delimiter
 * past the first MiB stops the check with the row (counted as a spreadsheet counts them, multi-line
 * values being one row) and the column, in words. Nothing is sent to the server (the check fails first),
 * so no document is touched.
 */
import { A, S, expect, openDemo, test } from './grid-support';
import { getSearch } from './editing-support';

/** Rows of `DocumentID;ArchiveID;Customer's; name;Note`, every 7th note quoted over two lines. */
function generate(rows: number, brokenRow: number | null): { text: string; brokenLine: number } {
  const lines = ["DocumentID;ArchiveID;'Customer''s; name';Note"];
  let brokenLine = 0;
  for (let i = 1; i <= rows; i++) {
    const row = i + 1; // the header is row 1
    if (row === brokenRow) {
      brokenLine = lines.join('\n').split('\n').length + 1;
      lines.push(`${i};${A.incoming};'Customer ${i}' Ltd;plain note`);
      continue;
    }
    lines.push(i % 7 === 0 ? `${i};${A.incoming};'Customer ''${i}''; Ltd';'first line\nsecond; line'` : `${i};${A.incoming};Customer ${i};plain note number ${i}`);
  }
  return { text: lines.join('\r\n') + '\r\n', brokenLine };
}

test.describe('CSV worker', () => {
  test('a 3 MiB CSV with chosen delimiters: its columns are offered for mapping, and a stray quote past the first MiB is named by row and column', async ({ page, request }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const search = await getSearch(request, token, 1, S.contentSearch);
    await page.goto(`/results/${search.Hash}?${new URLSearchParams({ Id: String(S.contentSearch), db: '1', archive: String(A.incoming), rpp: '25' }).toString()}`);

    const rows = 80_000;
    const brokenRow = 70_001;
    const { text, brokenLine } = generate(rows, brokenRow);
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    // The broken value is well past the first MiB, and multi-line values make rows and lines differ.
    expect(text.indexOf(`'Customer ${brokenRow - 1}' Ltd`)).toBeGreaterThan(2 << 20);
    expect(brokenLine).toBeGreaterThan(brokenRow);

    await page.getByRole('button', { name: 'Bulk update', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk update' });
    await dialog.getByRole('tab', { name: 'Advanced (CSV)' }).click();
    await dialog.getByLabel('Field delimiter').fill(';');
    await dialog.getByLabel('String delimiter').fill("'");
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

    // The header, read by the worker: the quoted column keeps its delimiter and its quote.
    const documentId = dialog.getByRole('combobox', { name: 'DocumentID', exact: true });
    await expect(documentId).toHaveValue('0');
    await expect(dialog.getByRole('combobox', { name: 'ArchiveID', exact: true })).toHaveValue('1');
    await expect(documentId.locator('option')).toContainText(['DocumentID', 'ArchiveID', "Customer's; name", 'Note']);
    await dialog.getByRole('combobox', { name: 'Title', exact: true }).selectOption({ label: "Customer's; name" });

    await dialog.getByRole('button', { name: 'Count documents' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(`Row ${brokenRow}, column 3: there is text after the closing string delimiter.`, { timeout: 60_000 });
    await expect(page.getByRole('dialog', { name: 'Confirm the update' })).toHaveCount(0);
  });
});
