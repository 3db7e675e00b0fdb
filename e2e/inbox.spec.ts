/**
 * Inboxes in the app (issue 11 item 5), against the real server: the inbox sidebar beside the
 * results (counts, collapsed state kept over a reload), /results/Inbox with the fixed columns, paged
 * and sorted by the server, and the actions on checked files: rename, move to the other inbox, send
 * to an archive with index values (then found by a search), delete with confirmation; the read-only
 * viewer sees the actions unavailable with the reason; on a touch tablet (iPad size) the sidebar and
 * the actions are 44 px targets and a rename works by tapping.
 *
 * Data: each test puts its own files into Scans through the API (PUT api/inboxes/{id}: a copy of an
 * Outgoing document, which stays where it is) and names them with a mark no other test uses; Mailroom
 * (which merge.spec.ts's append reads) only ever holds a file of this spec for the moment a move
 * test looks at it: the test deletes it again.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { A, F, S, cellText, checkCell, expect, gridHeader, gridRow, gridRows, openDemo, test, type Doc } from './grid-support';
import { expectTapTarget, getSearch, openResults, promptId, searchDocs, uniqueMark } from './editing-support';
import { waitForPersistedCache, waitForServiceWorker, withServiceWorker } from './support';

const SCANS = 1;
const MAILROOM = 2;

interface InboxFile {
  FileName: string;
  FileType?: string | null;
}

async function inboxFiles(request: APIRequestContext, token: string, inboxId: number): Promise<InboxFile[]> {
  const res = await request.get('/api/inboxes', { params: { token, Id: inboxId, numberOfDocuments: 1000 } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Files: InboxFile[] }).Files;
}

let used = 0;
/** `n` files of the user's own in Scans, named `${mark}-1.pdf` ...: copies of Outgoing documents. */
async function makeFiles(request: APIRequestContext, token: string, n: number, mark: string): Promise<string[]> {
  const docs = (await searchDocs(request, token, { searchId: S.correspondence, archiveId: A.outgoing, rpp: 200, sort: `${F.title}:desc` })).Docs.filter((d: Doc) => d.ArchiveId === A.outgoing);
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = docs[(used++ * 7) % docs.length]!;
    const put = await request.put(`/api/inboxes/${SCANS}`, { params: { token }, data: { DatabaseId: 1, ArchiveId: A.outgoing, DocId: d.Id, SecureId: d.Hash, DeleteOriginal: false } });
    expect(put.status(), await put.text()).toBe(200);
    const { FileName } = (await put.json()) as { FileName: string };
    const ext = FileName.slice(FileName.lastIndexOf('.'));
    const name = `${mark}-${i + 1}${ext}`;
    const rename = await request.post(`/api/inboxes/${SCANS}`, { params: { token, FilePath: FileName, newFileName: name } });
    expect(rename.status(), await rename.text()).toBe(200);
    names.push(name);
  }
  return names;
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Inboxes' });
const actions = (page: Page) => page.getByRole('toolbar', { name: 'Inbox actions' });

/** Opens Scans from the sidebar of a results page, with the page size and sort given in the address. */
async function openScans(page: Page, query = ''): Promise<void> {
  await page.goto(`/results/Inbox?db=1&inboxId=${MAILROOM}`);
  await sidebar(page).getByRole('link', { name: /^Scans/ }).click();
  await expect(page).toHaveURL(new RegExp(`inboxId=${SCANS}\\b`));
  if (query) await page.goto(`/results/Inbox?db=1&inboxId=${SCANS}&${query}`);
  await expect(page.getByRole('heading', { name: 'Scans', level: 1 })).toBeVisible();
  await expect(gridRow(page, 0)).toBeVisible();
}

/** The grid's row showing `name` (virtualised: the row must be rendered). */
async function rowWith(page: Page, name: string): Promise<number> {
  await expect(gridRows(page).filter({ hasText: name })).toHaveCount(1);
  const all = await gridRows(page).allTextContents();
  return all.findIndex((s) => s.includes(name));
}

test.describe('inboxes', () => {
  test('the sidebar lists the inboxes with their counts and opens one; the grid has the fixed columns, pages and sorts by the server', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-sort');
    await makeFiles(request, token, 2, mark);
    const scans = await inboxFiles(request, token, SCANS);
    await openScans(page);
    await expect(sidebar(page).getByRole('link', { name: /^Scans/ })).toContainText(String(scans.length));
    await expect(sidebar(page).getByRole('link', { name: /^Scans/ })).toHaveAttribute('aria-current', 'page');
    expect(await gridHeader(page, 'File Name').count()).toBe(1);
    for (const h of ['File Format', 'Date Created', 'Date Modified']) await expect(gridHeader(page, h)).toHaveCount(1);
    await expect(page.getByTestId('inbox-count')).toHaveText(`${scans.length} files`);
    // The server's default order (file name) and the thumbnail of the first row.
    const byName = [...scans].map((f) => f.FileName).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(await cellText(page, 0, 'File Name')).toBe(byName[0]);
    await expect(gridRow(page, 0).locator('img')).toBeVisible();

    // A page of 5: page 2 starts with the 6th name.
    await page.getByLabel('Other page size').fill('5');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(gridRows(page)).toHaveCount(5);
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect.poll(() => cellText(page, 0, 'File Name')).toBe(byName[5]);

    // Sorted by the server: File Name descending (two clicks: ascending, then descending).
    await gridHeader(page, 'File Name').locator('.colHeader').click();
    await expect(page).toHaveURL(/sort=FileName%3Aasc/);
    await gridHeader(page, 'File Name').locator('.colHeader').click();
    await expect(page).toHaveURL(/sort=FileName%3Adesc/);
    await expect.poll(() => cellText(page, 0, 'File Name')).toBe([...byName].reverse()[0]);
  });

  test('rename, move to the other inbox and delete checked files; each change reaches the server', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-act');
    const [a, b, c] = await makeFiles(request, token, 3, mark);
    await openScans(page, 'rpp=1000');

    // Rename: check the file, Rename, a bad name is said at once, then the new name.
    await checkCell(page, await rowWith(page, a!)).click();
    await actions(page).getByRole('button', { name: 'Rename', exact: true }).click();
    const rename = page.getByRole('dialog', { name: `Rename ${a}` });
    const input = rename.getByLabel('New name');
    await input.fill('../escape.pdf');
    await expect(rename.getByRole('alert')).toHaveText('A name cannot hold / or \\: inboxes have no folders.');
    await input.fill(`${mark}-renamed.pdf`);
    await rename.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect(rename).toBeHidden();
    await expect(gridRows(page).filter({ hasText: `${mark}-renamed.pdf` })).toHaveCount(1, { timeout: 30_000 });
    expect((await inboxFiles(request, token, SCANS)).map((f) => f.FileName)).not.toContain(a);

    // Move b to Mailroom (the original goes).
    await checkCell(page, await rowWith(page, b!)).click();
    await actions(page).getByRole('button', { name: 'Move to inbox', exact: true }).click();
    const move = page.getByRole('dialog', { name: 'Move 1 file to another inbox' });
    await expect(move.getByLabel('Inbox', { exact: true })).toHaveValue(String(MAILROOM));
    await expect(move.getByRole('radio', { name: 'Move (remove it from this inbox)' })).toBeChecked();
    await move.getByRole('button', { name: 'Move to inbox', exact: true }).click();
    try {
      await expect(gridRows(page).filter({ hasText: b! })).toHaveCount(0, { timeout: 30_000 });
      expect((await inboxFiles(request, token, MAILROOM)).map((f) => f.FileName)).toContain(b);
      // Mailroom's sidebar count follows.
      const mailroom = (await inboxFiles(request, token, MAILROOM)).length;
      await expect(sidebar(page).getByRole('link', { name: /^Mailroom/ })).toContainText(String(mailroom));
    } finally {
      await request.delete(`/api/inboxes/${MAILROOM}`, { params: { token, FilePath: b! } });
    }

    // Delete c, after confirming.
    await checkCell(page, await rowWith(page, c!)).click();
    await actions(page).getByRole('button', { name: 'Delete', exact: true }).click();
    const del = page.getByRole('dialog', { name: 'Delete 1 file' });
    await expect(del).toContainText(c!);
    await del.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(gridRows(page).filter({ hasText: c! })).toHaveCount(0, { timeout: 30_000 });
    expect((await inboxFiles(request, token, SCANS)).map((f) => f.FileName)).not.toContain(c);
  });

  test('send to an archive with index values: the field rules first, then a document found by a search', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-send');
    const [file] = await makeFiles(request, token, 1, mark);
    await openScans(page, 'rpp=1000');
    await checkCell(page, await rowWith(page, file!)).click();
    await actions(page).getByRole('button', { name: 'Send to archive', exact: true }).click();
    const send = page.getByRole('dialog', { name: `Send ${file} to an archive` });
    await send.getByLabel('Archive', { exact: true }).selectOption({ label: 'Incoming' });
    await expect(send.getByLabel(/^Title/)).toBeVisible();
    // Title is required and the date must be a date: said before anything is sent.
    await send.getByLabel('Document Date').fill('13/45/2026');
    await send.getByRole('button', { name: 'Send to archive', exact: true }).click();
    await expect(send.getByRole('alert')).toHaveText('Correct the 2 marked values first.');
    await send.getByLabel(/^Title/).fill(`${mark} sent`);
    await send.getByLabel('Document Date').fill('03/04/2026');
    // A fixed list is a choice of its items.
    await send.getByLabel('Department', { exact: true }).selectOption('Finance');
    await send.getByRole('button', { name: 'Send to archive', exact: true }).click();
    await expect(send).toBeHidden();
    await expect(gridRows(page).filter({ hasText: file! })).toHaveCount(0, { timeout: 30_000 });

    const search = await getSearch(request, token, 1, S.contentSearch);
    const found = await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria: [{ ID: promptId(search, 'Title'), VAL: mark }] });
    expect(found.Count).toBe(1);
    const doc = found.Docs[0]!;
    expect(doc.Fields.find((f) => f.ID === F.title)?.VAL).toBe(`${mark} sent`);
    expect(doc.Fields.find((f) => f.ID === F.documentDate)?.VAL).toBe('2026-03-04');
    expect(doc.Fields.find((f) => f.ID === F.department)?.VAL).toBe('Finance');
  });

  test('"Send to inbox" in a row\'s menu moves the archive document into the chosen inbox', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-row');
    // A document of this test's own: one of its inbox files sent to Incoming through the API.
    const [file] = await makeFiles(request, token, 1, mark);
    const sent = await request.post(`/api/inboxes/${SCANS}`, {
      params: { token, fileName: file!, destinationDatabaseId: 1, destinationArchiveId: A.incoming },
      data: { Fields: [{ ID: F.title, VAL: `${mark} doc` }] },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const search = await getSearch(request, token, 1, S.contentSearch);
    const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
    await openResults(page, { searchId: S.contentSearch, hash: search.Hash, archiveId: A.incoming, criteria });
    await expect(gridRow(page, 0)).toContainText(`${mark} doc`);
    // The search results start with the sidebar folded away: one button, the grid keeps its width.
    await expect(sidebar(page).getByRole('button', { name: 'Show inboxes' })).toBeVisible();

    await gridRow(page, 0).locator('td').nth(3).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: /^Actions for / });
    await menu.getByRole('menuitem', { name: 'Send to inbox' }).click();
    const dialog = page.getByRole('dialog', { name: `Send ${mark} doc to an inbox` });
    await dialog.getByRole('radio', { name: 'Scans' }).check();
    await dialog.getByRole('button', { name: 'Send to inbox', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(gridRows(page).filter({ hasText: `${mark} doc` })).toHaveCount(0, { timeout: 30_000 });
    expect((await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria })).Count).toBe(0);
    expect((await inboxFiles(request, token, SCANS)).map((f) => f.FileName)).toContain(file);
  });

  test('the sidebar\'s collapsed state survives a reload', async ({ page }) => {
    await openDemo(page, 'user');
    await page.goto(`/results/Inbox?db=1&inboxId=${SCANS}`);
    const toggle = sidebar(page).getByRole('button', { name: 'Hide inboxes' });
    await expect(sidebar(page).getByRole('link', { name: /^Scans/ })).toBeVisible();
    await toggle.click();
    await expect(sidebar(page).getByRole('button', { name: 'Show inboxes' })).toHaveAttribute('aria-expanded', 'false');
    await expect(sidebar(page).getByRole('link')).toHaveCount(0);
    await page.reload();
    await expect(sidebar(page).getByRole('button', { name: 'Show inboxes' })).toBeVisible();
    await expect(sidebar(page).getByRole('link')).toHaveCount(0);
    await sidebar(page).getByRole('button', { name: 'Show inboxes' }).click();
    await expect(sidebar(page).getByRole('link', { name: /^Scans/ })).toBeVisible();
  });

  test('files dropped on the inbox are uploaded into it; an empty one is refused by name', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-drop');
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([300, 200]).drawText(mark, { x: 20, y: 100, size: 14, font });
    const bytes = Array.from(await pdf.save());
    await openScans(page, 'rpp=1000');
    const dropped = `${mark}.pdf`;
    const empty = `${mark}-empty.pdf`;
    const data = await page.evaluateHandle(
      ({ bytes, dropped, empty }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], dropped, { type: 'application/pdf' }));
        dt.items.add(new File([], empty, { type: 'application/pdf' }));
        return dt;
      },
      { bytes, dropped, empty },
    );
    const zone = page.locator('.inbox-screen');
    await zone.dispatchEvent('dragenter', { dataTransfer: data });
    await expect(zone).toHaveClass(/inbox-drop-active/);
    await zone.dispatchEvent('dragover', { dataTransfer: data });
    await zone.dispatchEvent('drop', { dataTransfer: data });
    await expect(page.getByText(`${empty} is empty (0 bytes) and was not uploaded.`)).toBeVisible();
    await expect(gridRows(page).filter({ hasText: dropped })).toHaveCount(1, { timeout: 30_000 });
    const files = await inboxFiles(request, token, SCANS);
    expect(files.map((f) => f.FileName)).toContain(dropped);
    expect(files.map((f) => f.FileName)).not.toContain(empty);
    const res = await request.get(`/api/inboxes/${SCANS}/file`, { params: { token, FilePath: dropped } });
    expect(Array.from(await res.body())).toEqual(bytes);
  });

  test.describe('with the service worker', () => {
    test.use(withServiceWorker);

    test('offline, an inbox page seen before opens from the device with the time it was fetched', async ({ page, context, request }) => {
      const token = await openDemo(page, 'user');
      await openScans(page, 'rpp=1000');
      const first = (await cellText(page, 0, 'File Name')) || '';
      expect(first).not.toBe('');
      const count = (await inboxFiles(request, token, SCANS)).length;
      await waitForServiceWorker(page);
      // The page of files itself (the inbox list, persisted first, has the same key root).
      await waitForPersistedCache(page, ['"queryKey":["inbox-screen"', '"files"', JSON.stringify(first).slice(1, -1)]);
      await context.setOffline(true);
      try {
        await page.reload();
        await expect(page.getByRole('status').filter({ hasText: /^Offline — data from / })).toBeVisible();
        await expect(page.getByTestId('inbox-count')).toHaveText(`${count} files`);
        await expect.poll(() => cellText(page, 0, 'File Name')).toBe(first);
      } finally {
        await context.setOffline(false);
      }
    });
  });

  test('the read-only viewer sees the changes unavailable with the reason, and the server refuses them', async ({ page, request }) => {
    const token = await openDemo(page, 'viewer');
    await page.goto(`/results/Inbox?db=1&inboxId=${SCANS}`);
    await expect(gridRow(page, 0)).toBeVisible();
    for (const name of ['Rename', 'Move to inbox', 'Send to archive', 'Delete', 'Upload files']) {
      const b = actions(page).getByRole('button', { name, exact: true });
      await expect(b).toHaveAttribute('aria-disabled', 'true');
      await expect(b).toHaveAccessibleDescription('Your read-only licence cannot change inbox files.');
    }
    await expect(actions(page).getByRole('button', { name: 'Download', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
    const first = (await inboxFiles(request, token, SCANS))[0]!;
    const res = await request.delete(`/api/inboxes/${SCANS}`, { params: { token, FilePath: first.FileName } });
    expect(res.status()).toBe(403);
  });

  test('@touch at iPad size: the sidebar and the actions are 44 px targets; a file renamed by tapping', async ({ page, request }) => {
    const token = await openDemo(page, 'user');
    const mark = uniqueMark('ibx-touch');
    const [file] = await makeFiles(request, token, 1, mark);
    await openScans(page, 'rpp=1000');
    await expectTapTarget(sidebar(page).getByRole('link', { name: /^Scans/ }), 'the Scans link');
    for (const name of ['Rename', 'Move to inbox', 'Send to archive', 'Delete', 'Download', 'Upload files']) await expectTapTarget(actions(page).getByRole('button', { name, exact: true }), name);
    await checkCell(page, await rowWith(page, file!)).tap();
    await actions(page).getByRole('button', { name: 'Rename', exact: true }).tap();
    const rename = page.getByRole('dialog', { name: `Rename ${file}` });
    await rename.getByLabel('New name').fill(`${mark}-tapped.pdf`);
    await rename.getByRole('button', { name: 'Rename', exact: true }).tap();
    await expect(gridRows(page).filter({ hasText: `${mark}-tapped.pdf` })).toHaveCount(1, { timeout: 30_000 });
    // Landscape too: the actions stay on screen.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(actions(page).getByRole('button', { name: 'Send to archive', exact: true })).toBeInViewport();
  });
});
