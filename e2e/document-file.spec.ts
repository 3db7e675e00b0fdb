/**
 * Single export and Web Share from a row's menu (issue 10 items 1 and 3), against the real server:
 * Download saves the document's file byte for byte under the server's name (as a download, and into a
 * file picked through the File System Access API); with the Web Share API present, Share hands one
 * File of the right name, type and size to the share sheet (also from the e-mail form's "Share
 * instead"); without it there is no Share item; a viewer without export (128) sees Download disabled
 * with the reason; offline it says a connection is needed; on a touch tablet a long-press opens the
 * menu with finger-sized items.
 *
 * The browser APIs that open system UI (the save picker, the share sheet) cannot be driven headless:
 * they are replaced by stand-ins injected with addInitScript that record what they are given. The
 * server is never faked. Data: a download adds an 'exported' history entry to a Correspondence
 * document found by the test (rows 2-5 of the Correspondence search, which no other spec reads the
 * history of); nothing else changes.
 */
import type { APIRequestContext, CDPSession, Locator, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { A, F, S, apiDocs, expect, gridRow, openDemo, resultsQuery, test, val, type Doc } from './grid-support';
import { texts } from './editing-support';

const t = texts('en');
const rowMenu = (page: Page) => page.getByRole('menu', { name: /^Actions for / });

/** What the test's stand-in for navigator.share received. */
interface SharedFile {
  name: string;
  type: string;
  size: number;
  bytes: number[];
  title?: string;
}

/** The Web Share API of a phone or tablet: canShare accepts files; share records them. */
async function emulateWebShare(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shared: unknown[] };
    w.__shared = [];
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: (data?: { files?: File[] }) => !!data?.files?.length });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: { files?: File[]; title?: string }) => {
        for (const f of data.files ?? []) w.__shared.push({ name: f.name, type: f.type, size: f.size, bytes: [...new Uint8Array(await f.arrayBuffer())], title: data.title });
      },
    });
  });
}
const shared = (page: Page) => page.evaluate(() => (window as unknown as { __shared: SharedFile[] }).__shared);

/** A browser without File System Access (Firefox, Safari, iPadOS): a download. */
async function withoutSavePicker(page: Page) {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
}

/** The document's file as the server gives it to this user (no history entry). */
async function serverFile(request: APIRequestContext, token: string, d: Doc) {
  const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/file`, { params: { SecureId: d.Hash, auditEntry: 'false' }, headers: { 'Auth-Token': token } });
  expect(res.status(), await res.text()).toBe(200);
  const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(res.headers()['content-disposition'] ?? '')?.[1] ?? '');
  return { bytes: await res.body(), name, type: res.headers()['content-type'] ?? '' };
}

async function exportedCount(request: APIRequestContext, token: string, d: Doc): Promise<number> {
  const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/audit`, { params: { token, SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Category: string }[]).filter((e) => e.Category === 'exported').length;
}

/** The Correspondence search as `user`; returns the document shown in grid row `row`. */
async function openCorrespondence(page: Page, request: APIRequestContext, row: number): Promise<{ token: string; doc: Doc }> {
  const token = await openDemo(page, 'user');
  await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Correspondence', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(gridRow(page, row)).toBeVisible();
  const api = await apiDocs(request, token, { searchId: S.correspondence, archiveId: A.correspondence, criteria: resultsQuery(page).get('criteria') ?? '' });
  const doc = api.Docs[row]!;
  await expect(gridRow(page, row)).toContainText(val(doc, F.title));
  return { token, doc };
}

async function openRowMenu(page: Page, row: number): Promise<Locator> {
  await gridRow(page, row).locator('td').nth(3).click({ button: 'right' });
  const menu = rowMenu(page);
  await expect(menu).toBeVisible();
  return menu;
}

test.describe('download and share a document', () => {
  test("Download saves the document's file under the server's name, byte for byte, and writes one exported history entry", async ({ page, request }) => {
    await withoutSavePicker(page);
    const { token, doc } = await openCorrespondence(page, request, 2);
    const expected = await serverFile(request, token, doc);
    expect(expected.name).toMatch(/^document-\d+\.(pdf|tif)$/);
    const before = await exportedCount(request, token, doc);

    const menu = await openRowMenu(page, 2);
    // Without the Web Share API (desktop Chromium on Linux) there is no Share item at all.
    await expect(menu.getByRole('menuitem', { name: t('DOCUMENTS_SHARE'), exact: true })).toHaveCount(0);
    const downloading = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: t('DOCUMENTS_DOWNLOAD'), exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(expected.name);
    const saved = await readFile((await download.path())!);
    expect(saved.byteLength).toBeGreaterThan(1000);
    expect(saved.equals(expected.bytes)).toBe(true);
    await expect.poll(() => exportedCount(request, token, doc)).toBe(before + 1);
  });

  test('where the browser can pick a file, Download streams the file into it and says so', async ({ page, request }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __saved: { name?: string; chunks: number; bytes: number[]; closed: boolean } };
      w.__saved = { chunks: 0, bytes: [], closed: false };
      Object.defineProperty(window, 'showSaveFilePicker', {
        configurable: true,
        value: async (o: { suggestedName: string }) => {
          w.__saved.name = o.suggestedName;
          return {
            createWritable: async () =>
              new WritableStream<Uint8Array>({
                write(chunk) {
                  w.__saved.chunks++;
                  w.__saved.bytes.push(...chunk);
                },
                close() {
                  w.__saved.closed = true;
                },
              }),
          };
        },
      });
    });
    const { token, doc } = await openCorrespondence(page, request, 3);
    const expected = await serverFile(request, token, doc);
    const menu = await openRowMenu(page, 3);
    await menu.getByRole('menuitem', { name: t('DOCUMENTS_DOWNLOAD'), exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: t('DOCUMENTS_FILE_SAVED', { name: expected.name }) })).toBeVisible();
    const saved = await page.evaluate(() => (window as unknown as { __saved: { name: string; chunks: number; bytes: number[]; closed: boolean } }).__saved);
    expect(saved.name).toBe(expected.name);
    expect(saved.closed).toBe(true);
    expect(Buffer.from(saved.bytes).equals(expected.bytes)).toBe(true);
  });

  // "Share instead" in the e-mail form is checked in tests/documents/email-share-instead.test.tsx: these
  // servers have no mail set up, so E-mail says so before its form opens.
  test('with the Web Share API, Share hands one file of the right name, type and size to the share sheet', async ({ page, request }) => {
    await emulateWebShare(page);
    const { token, doc } = await openCorrespondence(page, request, 4);
    const expected = await serverFile(request, token, doc);

    const menu = await openRowMenu(page, 4);
    await expect(menu.getByRole('menuitem')).toHaveText([
      t('RESULTS_MENU_OPEN_DOCUMENT'), t('RESULTS_THUMB_OPEN'), t('RESULTS_MENU_HISTORY'), t('EDIT_ROW'), t('DOCUMENTS_COPY'), t('DOCUMENTS_MOVE'), t('DOCUMENTS_DELETE'), t('DOCUMENTS_EMAIL') + t('DOCUMENTS_EMAIL_NOT_SET_UP'), t('DOCUMENTS_SEND_TO_INBOX'), t('DOCUMENTS_DOWNLOAD'), t('DOCUMENTS_SHARE'), t('RESULTS_MENU_BURST'), t('PIN_KEEP'),
    ]);
    await menu.getByRole('menuitem', { name: t('DOCUMENTS_SHARE'), exact: true }).click();
    await expect.poll(async () => (await shared(page)).length).toBe(1);
    const [file] = await shared(page);
    expect({ name: file!.name, type: file!.type, size: file!.size }).toEqual({ name: expected.name, type: expected.type, size: expected.bytes.byteLength });
    expect(Buffer.from(file!.bytes).equals(expected.bytes)).toBe(true);
  });

  test('when the browser refuses the share after the fetch (the tap counts no more), a dialog offers it again with a fresh tap', async ({ page, request }) => {
    await emulateWebShare(page);
    // Safari's behaviour: the first share, called after awaiting the file, is not allowed.
    await page.addInitScript(() => {
      const share = navigator.share.bind(navigator);
      let first = true;
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          if (!first) return share(data);
          first = false;
          return Promise.reject(new DOMException('Must be handling a user gesture to perform a share request.', 'NotAllowedError'));
        },
      });
    });
    const { token, doc } = await openCorrespondence(page, request, 5);
    const expected = await serverFile(request, token, doc);
    const menu = await openRowMenu(page, 5);
    await menu.getByRole('menuitem', { name: t('DOCUMENTS_SHARE'), exact: true }).click();
    const ready = page.getByRole('dialog', { name: t('DOCUMENTS_SHARE_READY', { name: expected.name }) });
    await expect(ready).toBeVisible();
    expect(await shared(page)).toHaveLength(0);
    await ready.getByRole('button', { name: t('DOCUMENTS_SHARE'), exact: true }).click();
    await expect(ready).toBeHidden();
    await expect.poll(async () => (await shared(page)).length).toBe(1);
    expect((await shared(page))[0]!.size).toBe(expected.bytes.byteLength);
  });

  test('offline, Download says it needs a connection', async ({ page, request, context }) => {
    await withoutSavePicker(page);
    await openCorrespondence(page, request, 5);
    await context.setOffline(true);
    try {
      const menu = await openRowMenu(page, 5);
      await menu.getByRole('menuitem', { name: t('DOCUMENTS_DOWNLOAD'), exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: t('DOCUMENTS_FILE_OFFLINE') })).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
  });

  test('a viewer without the export right (128) sees Download disabled with the reason, and the server refuses it too', async ({ page, request }) => {
    const token = await openDemo(page, 'viewer');
    // The viewer's first search is All Invoices, where it may read but not export.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 0)).toBeVisible();
    const api = await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria: resultsQuery(page).get('criteria') ?? '' });
    const menu = await openRowMenu(page, 0);
    const item = menu.getByRole('menuitem', { name: t('DOCUMENTS_DOWNLOAD'), exact: true });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).toHaveAccessibleDescription(t('DOCUMENTS_NO_EXPORT_RIGHT'));
    // Shown, not only described: a finger has no hover.
    await expect(item).toContainText(t('DOCUMENTS_NO_EXPORT_RIGHT'));
    // The other unavailable actions say why in the same way.
    for (const key of ['DOCUMENTS_COPY', 'DOCUMENTS_DELETE', 'DOCUMENTS_EMAIL'] as const) {
      await expect(menu.getByRole('menuitem', { name: t(key), exact: true })).toHaveAccessibleDescription(t('DOCUMENTS_READ_ONLY_LICENCE'));
    }
    let downloads = 0;
    page.on('download', () => downloads++);
    await item.dispatchEvent('click');
    await expect(menu).toBeVisible();
    expect(downloads).toBe(0);
    const d = api.Docs[0]!;
    const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/file`, { params: { SecureId: d.Hash }, headers: { 'Auth-Token': token } });
    expect(res.status()).toBe(403);
  });
});

/** A finger held on the element's centre until `until` holds, then lifted (Chromium's touch input over CDP). */
async function longPress(cdp: CDPSession, target: Locator, until: () => Promise<void>) {
  const b = (await target.boundingBox())!;
  const point = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  try {
    await until();
  } finally {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
}

test.describe('download and share on a tablet', () => {
  test('@touch a long-press opens the row menu with finger-sized Download and Share; a tap downloads, a tap shares', async ({ page, request }) => {
    // An iPad: Web Share with files, no File System Access.
    await emulateWebShare(page);
    await withoutSavePicker(page);
    const { token, doc } = await openCorrespondence(page, request, 2);
    const expected = await serverFile(request, token, doc);
    const cdp = await page.context().newCDPSession(page);
    const menu = rowMenu(page);
    await longPress(cdp, gridRow(page, 2).locator('td.results-thumb-cell'), () => expect(menu).toBeVisible());
    const downloadItem = menu.getByRole('menuitem', { name: t('DOCUMENTS_DOWNLOAD'), exact: true });
    const shareItem = menu.getByRole('menuitem', { name: t('DOCUMENTS_SHARE'), exact: true });
    for (const item of [downloadItem, shareItem]) {
      await expect(item).toBeInViewport();
      expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    const downloading = page.waitForEvent('download');
    await downloadItem.tap();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(expected.name);
    expect((await readFile((await download.path())!)).equals(expected.bytes)).toBe(true);

    await longPress(cdp, gridRow(page, 2).locator('td.results-thumb-cell'), () => expect(menu).toBeVisible());
    await shareItem.tap();
    await expect.poll(async () => (await shared(page)).length).toBe(1);
    const [file] = await shared(page);
    expect({ name: file!.name, type: file!.type, size: file!.size }).toEqual({ name: expected.name, type: expected.type, size: expected.bytes.byteLength });
  });
});
