/**
 * Merge and append from the results grid (issue 10 item 2), against the real server: a PDF and a
 * TIFF checked on two result pages merged into one document (the base row shows the new page count;
 * its file is one PDF with every page in order); an inbox file appended to a document through the
 * inbox-document selector; the read-only viewer sees both buttons unavailable with the reason, and
 * the server refuses its merge; on a touch tablet the merge list is reordered by tapping.
 *
 * Data: each test makes its own documents, as documents.spec.ts does: it titles Correspondence
 * documents of the file types it needs with a mark no other test uses, copies them through the API
 * into Incoming (a copy keeps its files and pages), puts the originals' titles back, and acts on the
 * marked copies, found by the Content Search's Title prompt. The append test takes the newest file of
 * Mailroom, an inbox no other spec reads.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDict, PDFDocument, PDFName, type PDFPage } from 'pdf-lib';
import { A, F, S, cellText, checkCell, expect, gridRow, gridRows, openDemo, test, type Doc } from './grid-support';
import { apiToken, expectTapTarget, getSearch, promptId, rowOf, searchDocs } from './editing-support';
import { copyMarked, openMarked } from './marked-documents';
import { waitForServiceWorker, withServiceWorker } from './support';

type FileDoc = Doc & { FileType: string; PageCount: number };

interface Fixture {
  hash: string;
  criteria: { ID: number; VAL: string }[];
  /** The marked copies in Incoming, in the order of `types`, titled `${mark} 01` ... */
  docs: FileDoc[];
}

/** Marked copies in Incoming of Correspondence documents of the given file types (see the file comment). */
async function makeDocuments(request: APIRequestContext, token: string, types: readonly ('PDF' | 'TIF')[], prefix: string): Promise<Fixture> {
  const search = await getSearch(request, token, 1, S.contentSearch);
  const all = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.correspondence, rpp: 200, sort: `${F.title}:asc` })).Docs as FileDoc[];
  const pool = all.filter((d) => d.ArchiveId === A.correspondence && d.PageCount > 1);
  const originals = types.map((t) => {
    const i = pool.findIndex((d) => d.FileType === t);
    expect(i, `a ${t} document in Correspondence`).toBeGreaterThanOrEqual(0);
    return pool.splice(i, 1)[0]!;
  });
  const mark = await copyMarked(request, token, originals, prefix);
  const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
  const copies = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria, rpp: 50, sort: `${F.title}:asc` })).Docs as FileDoc[];
  expect(copies.map((d) => d.FileType), 'the marked copies in Incoming').toEqual([...types]);
  return { hash: search.Hash, criteria, docs: copies };
}

const actions = (page: Page) => page.getByRole('group', { name: 'Document actions' });
const marked = async (request: APIRequestContext, token: string, f: Fixture) =>
  (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria: f.criteria, rpp: 50, sort: `${F.title}:asc` })).Docs as FileDoc[];

/** The document's file as the single-export route gives it, loaded as a PDF. */
async function filePdf(request: APIRequestContext, token: string, d: Pick<Doc, 'Id' | 'Hash'>): Promise<PDFDocument> {
  const res = await request.get(`/api/dbs/1/archives/${A.incoming}/documents/${d.Id}/file`, { params: { token, SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/pdf');
  return PDFDocument.load(await res.body());
}
/** A page drawn from a scan (an image and no font) or a text page (fonts). */
const kindOf = (p: PDFPage) => {
  const xo = p.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const fonts = p.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  return (xo?.keys().length ?? 0) > 0 && (fonts?.keys().length ?? 0) === 0 ? 'scan' : 'text';
};
const fill = (n: number, k: string) => Array<string>(n).fill(k);

interface InboxFile {
  FileName: string;
  Path?: string;
  PageCount?: number;
}
/** The inbox's files as the selector lists them (newest first). */
async function inboxFiles(request: APIRequestContext, token: string, inboxId: number): Promise<InboxFile[]> {
  const res = await request.get('/api/inboxes', { params: { token, Id: inboxId, numberOfDocuments: 100, sort: 'DateModified:desc' } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Files: InboxFile[] }).Files;
}

test.describe('merge and append', () => {
  test('a PDF and a TIFF checked on two result pages are merged into the first: the base row shows the new page count, its file is one PDF with every page in order, the other is removed', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, ['PDF', 'TIF'], 'mg-merge');
    const [pdf, tif] = f.docs as [FileDoc, FileDoc];
    const total = pdf.PageCount + tif.PageCount;
    await openMarked(page, f, 1);
    await expect(page.getByTestId('results-count')).toHaveText('2 documents');

    // Merge and Append need checked documents: none gives the spec's error.
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(page.getByText('No documents are selected.')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await checkCell(page, 0).click();
    // One is not enough to merge.
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(page.getByText('Check at least 2 documents to merge.')).toBeVisible();
    const before = (await gridRow(page, 0).textContent()) ?? '';
    await page.getByRole('button', { name: 'Next page', exact: true }).click();
    await expect(gridRow(page, 0)).not.toHaveText(before);
    await checkCell(page, 0).click();
    await expect(page.getByTestId('results-selected')).toHaveText('2 selected');
    // Two are one too many to append to.
    await actions(page).getByRole('button', { name: 'Append', exact: true }).click();
    await expect(page.getByText('Check exactly 1 document to append to.')).toBeVisible();

    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Merge 2 documents' });
    const items = modal.getByTestId('merge-item').locator('.documents-merge-name');
    const [pdfTitle, tifTitle] = [`${f.docs[0]!.Fields.find((x) => x.ID === F.title)!.VAL}`, `${f.docs[1]!.Fields.find((x) => x.ID === F.title)!.VAL}`];
    await expect(items).toHaveText([`${pdfTitle}Base document`, tifTitle]);
    // Reordered by keyboard: the focus stays on the moved document's buttons.
    await modal.getByRole('button', { name: `Move ${pdfTitle} down` }).focus();
    await page.keyboard.press('Enter');
    await expect(items).toHaveText([`${tifTitle}Base document`, pdfTitle]);
    await expect(modal.getByRole('button', { name: `Move ${pdfTitle} up` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(items).toHaveText([`${pdfTitle}Base document`, tifTitle]);
    // Removing deletes: it is never preselected, the user picks it.
    await expect(modal.getByRole('radio', { name: 'Keep the other documents' })).toBeChecked();
    await expect(modal.getByRole('radio', { name: 'Remove the other documents' })).not.toBeChecked();
    await modal.getByRole('radio', { name: 'Remove the other documents' }).check();
    await modal.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(modal).toBeHidden();

    // The success note, as a toast and in the tray.
    const note = `Merged 2 documents into document ${pdf.Id} (${total} pages)`;
    await expect(page.getByRole('status').filter({ hasText: note })).toBeVisible({ timeout: 20_000 });
    // The grid refreshes: the removed document leaves it, the base row shows its new page count.
    await expect(page.getByTestId('results-count')).toHaveText('1 document', { timeout: 20_000 });
    await expect(gridRows(page)).toHaveCount(1);
    await expect(gridRow(page, 0)).toContainText(pdfTitle);
    await expect.poll(() => cellText(page, 0, 'Page Count')).toBe(String(total));
    expect(await cellText(page, 0, 'File Type')).toBe('PDF');
    // The removed document left the selection; the base, still in the grid, stays checked.
    await expect(page.getByTestId('results-selected')).toHaveText('1 selected');
    const rows = await marked(request, token, f);
    expect(rows.map((d) => [d.Id, d.PageCount, d.FileType, d.Fields.find((x) => x.ID === 13)?.VAL])).toEqual([[pdf.Id, total, 'PDF', String(total)]]);
    await page.getByTestId('header-notifications').click();
    const tray = page.getByRole('region', { name: 'Notifications', exact: true });
    await expect(tray.getByRole('listitem', { name: `Merge 2 documents into ${pdfTitle}` })).toContainText(note);

    // One PDF with the PDF's text pages first, then the TIFF's scans.
    const merged = await filePdf(request, token, pdf);
    expect(merged.getPages().map(kindOf)).toEqual([...fill(pdf.PageCount, 'text'), ...fill(tif.PageCount, 'scan')]);
  });

  test('an inbox file is appended to a document through the inbox-document selector, and leaves its inbox', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, ['PDF'], 'mg-append');
    const base = f.docs[0]!;
    const MAILROOM = 2;
    const file = (await inboxFiles(request, token, MAILROOM))[0];
    expect(file, 'a file in Mailroom').toBeDefined();
    await openMarked(page, f, 25);
    await checkCell(page, 0).click();
    await actions(page).getByRole('button', { name: 'Append', exact: true }).click();
    const title = base.Fields.find((x) => x.ID === F.title)!.VAL;
    const modal = page.getByRole('dialog', { name: `Append an inbox file to ${title}` });
    await modal.getByLabel('Inbox', { exact: true }).selectOption(String(MAILROOM));
    const choice = modal.getByRole('radio', { name: new RegExp(`^${file!.FileName.replace('.', '\\.')}`) });
    await expect(modal.getByRole('button', { name: 'Append', exact: true })).toBeDisabled();
    await choice.check();
    await expect(modal.getByRole('radio', { name: 'Keep the file in its inbox' })).toBeChecked();
    await modal.getByRole('radio', { name: 'Remove the file from its inbox' }).check();
    await modal.getByRole('button', { name: 'Append', exact: true }).click();
    await expect(modal).toBeHidden();

    const total = base.PageCount + (file!.PageCount ?? 0);
    await expect(page.getByRole('status').filter({ hasText: `Appended ${file!.FileName} to document ${base.Id} (${total} pages)` })).toBeVisible({ timeout: 20_000 });
    await expect.poll(async () => (await marked(request, token, f)).map((d) => d.PageCount)).toEqual([total]);
    expect((await inboxFiles(request, token, MAILROOM)).map((x) => x.FileName)).not.toContain(file!.FileName);
    const pdf = await filePdf(request, token, base);
    expect(pdf.getPageCount()).toBe(total);
  });

  test('as the read-only viewer Merge and Append are unavailable with the reason, and the server refuses a merge', async ({ page, request }) => {
    await openDemo(page, 'viewer');
    await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    for (const name of ['Merge', 'Append']) {
      const button = actions(page).getByRole('button', { name, exact: true });
      await expect(button).toHaveAttribute('aria-disabled', 'true');
      await expect(button).toHaveAccessibleDescription('Your licence is read-only.');
    }
    await checkCell(page, 0).click();
    // aria-disabled, not disabled: it can still be pressed (and reached by keyboard), and says why.
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click({ force: true });
    await expect(page.getByRole('alert').filter({ hasText: 'Your licence is read-only.' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    const viewer = await apiToken(request, 'viewer');
    const docs = (await searchDocs(request, viewer, { searchId: S.correspondence, archiveId: A.correspondence, rpp: 2 })).Docs;
    expect(docs).toHaveLength(2);
    const res = await request.post('/api/dbs/1/merge', {
      params: { token: viewer },
      data: { Type: 'Merge', Documents: [{ ArchiveID: docs[1]!.ArchiveId, DocID: docs[1]!.Id }], BaseDocument: { Type: 'Archive', ArchiveID: docs[0]!.ArchiveId, DocID: docs[0]!.Id }, Target: { Type: 'Archive', Id: docs[0]!.ArchiveId, AppendType: 'Keep' } },
    });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { Key: string }).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
  });

  test('@touch the merge list is reordered by tapping finger-sized buttons; Keep leaves the other document', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, ['TIF', 'PDF'], 'mg-touch');
    const [tif, pdf] = f.docs as [FileDoc, FileDoc];
    await openMarked(page, f, 25);
    for (const name of ['Merge', 'Append']) await expectTapTarget(actions(page).getByRole('button', { name, exact: true }), name);
    await checkCell(page, 0).tap();
    await checkCell(page, 1).tap();
    await expect(page.getByTestId('results-selected')).toHaveText('2 selected');
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).tap();
    const modal = page.getByRole('dialog', { name: 'Merge 2 documents' });
    const pdfTitle = pdf.Fields.find((x) => x.ID === F.title)!.VAL;
    const up = modal.getByRole('button', { name: `Move ${pdfTitle} up` });
    await expectTapTarget(up, 'Move up');
    await up.tap();
    await expect(modal.getByTestId('merge-item').first()).toContainText(`${pdfTitle}Base document`);
    const keep = modal.locator('label', { hasText: 'Keep the other documents' });
    await expectTapTarget(keep, 'Keep');
    await keep.tap();
    await modal.getByRole('button', { name: 'Merge', exact: true }).tap();
    await expect(modal).toBeHidden();

    // The PDF is the base now; the TIFF is kept as it was.
    await expect.poll(async () => (await marked(request, token, f)).map((d) => [d.Id, d.PageCount]), { timeout: 20_000 }).toEqual([
      [tif.Id, tif.PageCount],
      [pdf.Id, pdf.PageCount + tif.PageCount],
    ]);
    const merged = await filePdf(request, token, pdf);
    expect(merged.getPages().map(kindOf)).toEqual([...fill(pdf.PageCount, 'text'), ...fill(tif.PageCount, 'scan')]);
  });
});

test.describe('merge and append, failure and offline', () => {
  test.use(withServiceWorker);

  test('a merge confirmed offline is queued, sent when the connection returns; one whose document went away meanwhile ends with the failure note and the server\'s reason', async ({ page, context, request }) => {
    const token = await openDemo(page, 'user');
    const f = await makeDocuments(request, token, ['PDF', 'TIF', 'PDF'], 'mg-fail');
    const [a, b, c] = f.docs as [FileDoc, FileDoc, FileDoc];
    const title = (d: Doc) => d.Fields.find((x) => x.ID === F.title)!.VAL;
    await openMarked(page, f, 25);
    await waitForServiceWorker(page);

    // Offline: the merge of the first two waits in the outbox.
    await context.setOffline(true);
    await checkCell(page, 0).click();
    await checkCell(page, 1).click();
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click();
    let modal = page.getByRole('dialog', { name: 'Merge 2 documents' });
    await modal.getByRole('radio', { name: 'Remove the other documents' }).check();
    await modal.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.getByTestId('header-notifications').click();
    const tray = page.getByRole('region', { name: 'Notifications', exact: true });
    const queued = tray.getByRole('listitem', { name: `Merge 2 documents into ${title(a)}` });
    await expect(queued).toContainText('Waiting to be sent');
    expect((await marked(request, token, f)).map((d) => d.PageCount)).toEqual([a.PageCount, b.PageCount, c.PageCount]);
    await context.setOffline(false);
    await expect(queued).toContainText(`Merged 2 documents into document ${a.Id} (${a.PageCount + b.PageCount} pages)`, { timeout: 30_000 });
    await page.getByTestId('header-notifications').click();

    // The base and the third are checked; the third is deleted elsewhere before the merge is sent.
    await expect(page.getByTestId('results-count')).toHaveText('2 documents', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Clear selection' }).click();
    // Checked in this order, the merged document first: it is the base.
    await checkCell(page, await rowOf(page, title(a))).click();
    await checkCell(page, await rowOf(page, title(c))).click();
    await actions(page).getByRole('button', { name: 'Merge', exact: true }).click();
    modal = page.getByRole('dialog', { name: 'Merge 2 documents' });
    await expect(modal).toBeVisible();
    const gone = await request.get(`/api/dbs/1/archives/${A.incoming}/documents/${c.Id}/delete`, { params: { token, SecureId: c.Hash } });
    expect(gone.status(), await gone.text()).toBe(200);
    await expect.poll(async () => (await marked(request, token, f)).map((d) => d.Id), { timeout: 20_000 }).toEqual([a.Id]);
    await modal.getByRole('button', { name: 'Merge', exact: true }).click();
    const failure = `Merging into ${title(a)} failed: Document ${c.Id} does not exist in archive ${A.incoming}`;
    await expect(page.getByRole('alert').filter({ hasText: failure })).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('header-notifications').click();
    await expect(tray.getByRole('listitem', { name: `Merge 2 documents into ${title(a)}` }).filter({ hasText: 'failed' })).toContainText(failure);
    // Nothing changed on the server.
    expect((await marked(request, token, f)).map((d) => d.PageCount)).toEqual([a.PageCount + b.PageCount]);
  });
});
