/**
 * Resumable chunked uploads (issue 11 item 1) against the real server, through the inbox screen's
 * "Upload files" (src/features/inbox, which hands the files to src/sync/uploads.ts): a file of a few
 * MiB reaches the Scans inbox whole (its bytes downloaded back and hashed) although its connection is
 * cut five times: a chunk request aborted before the server has it, the page reloaded twice while a
 * chunk is on its way, the browser taken offline, and a chunk the server took whose answer is lost. From
 * the server's side (GET api/upload's Repeated, and the chunk requests that reached it) each cut cost
 * at most one chunk. The tray shows the upload's progress and end, and why a file the server cannot
 * read (a text file named .pdf) was refused. On a touch tablet (iPad size) the
 * tray's upload controls are 44 px targets, and Pause, Resume and Cancel work by tapping.
 *
 * Fault injection only: chunk requests are aborted (context.route, which also sees the worker's
 * requests) or passed to the real server, never answered by the test. Data: each test uploads a file
 * of its own, named with a mark no other test uses, into Scans.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { expect, openDemo, test } from './grid-support';
import { expectTapTarget, uniqueMark } from './editing-support';
import { signIn, withServiceWorker } from './support';

const SCANS = 1;
const MIB = 1_048_576;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A real PDF of about `mib` MiB (one page naming it, and random bytes attached), so the inbox can draw it. */
async function pdfOf(title: string, mib: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(title, { x: 20, y: 100, size: 10 });
  await doc.attach(randomBytes(Math.floor(mib * MIB)), 'payload.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

/** A promise and the function that settles it. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire = () => {};
  const done = new Promise<void>((resolve) => (fire = resolve));
  return { done, fire };
}

async function openScans(page: Page) {
  await page.goto(`/results/Inbox?db=1&inboxId=${SCANS}`);
  // Available once the inbox's rights are known (before that a chosen file is refused with the reason).
  const upload = page.getByRole('button', { name: 'Upload files' });
  await expect(upload).toBeVisible();
  await expect(upload).not.toHaveAttribute('aria-disabled', 'true');
}

async function chooseFile(page: Page, name: string, bytes: Buffer) {
  await page.getByLabel('Upload files', { exact: true }).and(page.locator('input[type=file]')).setInputFiles({ name, mimeType: 'application/pdf', buffer: bytes });
}

async function openTray(page: Page) {
  const button = page.getByTestId('header-notifications');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.getByRole('region', { name: 'Notifications' });
}

/** Every chunk request, in order, with what the test did to it. */
interface ChunkLog {
  index: number;
  jobId: string;
  fate: 'passed' | 'aborted' | 'held' | 'answer-lost';
}

async function routeChunks(context: BrowserContext, decide: (index: number, attempt: number, route: Route) => Promise<ChunkLog['fate']>): Promise<ChunkLog[]> {
  const log: ChunkLog[] = [];
  const attempts = new Map<number, number>();
  await context.route('**/api/upload/chunk?**', async (route) => {
    const url = new URL(route.request().url());
    const index = Number(url.searchParams.get('Index'));
    const attempt = (attempts.get(index) ?? 0) + 1;
    attempts.set(index, attempt);
    const entry: ChunkLog = { index, jobId: url.searchParams.get('JobID') ?? '', fate: 'passed' };
    log.push(entry);
    entry.fate = await decide(index, attempt, route);
  });
  return log;
}

test.describe('an upload across reloads offline', () => {
  // It reloads with the network off: the service worker serves the app.
  test.use(withServiceWorker);

  test('a file of 8 MiB reaches the inbox whole across an abort, two reloads, going offline and a lost answer; each cut costs at most one chunk', async ({ page, context }) => {
    test.setTimeout(120_000);
    const token = await openDemo(page, 'user');
    const name = `${uniqueMark('upload')}.pdf`;
    const bytes = await pdfOf(name, 7.5);
    const chunks = Math.ceil(bytes.byteLength / MIB);
    expect(chunks).toBe(8);

    const held = signal();
    const offline = signal();
    const heldAgain = signal();
    const log = await routeChunks(context, async (index, attempt, route) => {
      if (attempt > 1) {
        await route.continue();
        return 'passed';
      }
      if (index === 1) {
        // Cut 1: the connection drops before the server has the chunk.
        await route.abort('connectionreset');
        return 'aborted';
      }
      if (index === 3) {
        // Cut 2: the chunk is on its way when the page reloads (never answered).
        held.fire();
        return 'held';
      }
      if (index === 4) {
        // Cut 3: the browser goes offline with the chunk on its way.
        await context.setOffline(true);
        await route.abort('internetdisconnected');
        offline.fire();
        return 'aborted';
      }
      if (index === 5) {
        // Cut 4: the page reloads a second time with chunk 5 on its way.
        heldAgain.fire();
        return 'held';
      }
      if (index === 6) {
        // Cut 5: the server takes the chunk, and its answer is lost.
        await route.fetch();
        await route.abort('connectionreset');
        return 'answer-lost';
      }
      await route.continue();
      return 'passed';
    });

    await openScans(page);
    await chooseFile(page, name, bytes);
    const tray = await openTray(page);
    const row = tray.getByRole('listitem', { name });
    await expect(row).toBeVisible();

    await held.done;
    // The upload is under way; the page reloads with chunk 3 in flight.
    await expect.poll(async () => Number(await row.getByRole('progressbar').getAttribute('value'))).toBeGreaterThan(0);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Upload files' })).toBeVisible();

    await offline.done;
    const trayAgain = await openTray(page);
    const rowAgain = trayAgain.getByRole('listitem', { name });
    // Offline, the upload waits (it does not fail) and says why.
    await expect(rowAgain.getByText('Waiting', { exact: true })).toBeVisible();
    await expect(rowAgain.getByText(/connection dropped/)).toBeVisible();
    await context.setOffline(false);

    // Back online it goes on, and the page reloads again with chunk 5 in flight.
    await heldAgain.done;
    await page.reload();
    await expect(page.getByRole('button', { name: 'Upload files' })).toBeVisible();
    const trayLast = await openTray(page);
    const rowLast = trayLast.getByRole('listitem', { name });
    await expect(rowLast.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(rowLast.getByText(`Saved as ${name}`)).toBeVisible();
    await expect(rowLast.getByRole('progressbar')).toHaveAttribute('value', '100');

    // The file is in the inbox's list, and its bytes are the file's.
    await trayLast.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    const file = await page.request.get(`/api/inboxes/${SCANS}/file`, { params: { token, FilePath: name } });
    expect(file.status()).toBe(200);
    expect(sha(await file.body())).toBe(sha(bytes));

    // From the server's side: the upload's own count of chunks it got again, and the chunk requests
    // that reached it (every one but the aborted and the held ones).
    const jobIds = [...new Set(log.map((l) => l.jobId))];
    expect(jobIds, 'one upload job, kept over the reloads').toHaveLength(1);
    const state = await page.request.get('/api/upload', { params: { token, JobID: jobIds[0]! } });
    const st = (await state.json()) as { State: string; Repeated: number; ChunkCount: number };
    expect(st).toMatchObject({ State: 'done', ChunkCount: chunks });
    const cuts = 5;
    expect(st.Repeated).toBeLessThanOrEqual(cuts);
    const reachedServer = log.filter((l) => l.fate === 'passed' || l.fate === 'answer-lost').length;
    expect(reachedServer - chunks, 'chunks the server was sent more than once').toBeLessThanOrEqual(cuts);
    expect(log.length - chunks, 'chunks the app sent again').toBeLessThanOrEqual(cuts);
    // The chunk whose answer was lost was not sent again (GET api/upload said the server had it).
    expect(log.filter((l) => l.index === 6)).toHaveLength(1);
  });
});

test('a licence that ends while a file uploads: the upload waits for the next sign-in and then finishes, nothing lost', async ({ page, context }) => {
  test.setTimeout(120_000);
  const token = await openDemo(page, 'user');
  const name = `${uniqueMark('upload-signin')}.pdf`;
  const bytes = await pdfOf(name, 3);
  const gate = signal();
  const atGate = signal();
  const log = await routeChunks(context, async (index, attempt, route) => {
    if (index === 1 && attempt === 1) {
      atGate.fire();
      await gate.done;
    }
    await route.continue();
    return 'passed';
  });
  await openScans(page);
  await chooseFile(page, name, bytes);
  await atGate.done;
  // The licence ends (released elsewhere) with chunk 1 on its way: the server refuses it.
  expect((await page.request.delete(`/api/licenses/${token}`)).status()).toBe(204);
  gate.fire();
  await expect(page).toHaveURL(/\/(login|direct|error)/, { timeout: 20_000 });

  const again = await signIn(page, 'user');
  await openScans(page);
  const tray = await openTray(page);
  const row = tray.getByRole('listitem', { name });
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 60_000 });
  const file = await page.request.get(`/api/inboxes/${SCANS}/file`, { params: { token: again, FilePath: name } });
  expect(file.status()).toBe(200);
  expect(sha(await file.body())).toBe(sha(bytes));
  // One upload job; the refused chunk was the only one sent again.
  expect(new Set(log.map((l) => l.jobId)).size).toBe(1);
  expect(log.length - Math.ceil(bytes.byteLength / MIB)).toBeLessThanOrEqual(1);
});

test('a text file named .pdf is refused when its upload ends: the tray says why in words, and the inbox never lists it', async ({ page }) => {
  const token = await openDemo(page, 'user');
  const name = `${uniqueMark('upload-unreadable')}.pdf`;
  await openScans(page);
  await chooseFile(page, name, Buffer.from('Meeting notes, saved under the wrong name.\n'.repeat(40)));
  const tray = await openTray(page);
  const row = tray.getByRole('listitem', { name });
  await expect(row.getByText('Upload failed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole('alert')).toHaveText('This file cannot be read: it is damaged, or its content is not what its name says.');
  // The server's own words name the file and what is wrong with it.
  await expect(row.getByText(`${name} is not a PDF file`)).toBeVisible();
  const file = await page.request.get(`/api/inboxes/${SCANS}/file`, { params: { token, FilePath: name } });
  expect(file.status()).toBe(404);
});

test('tray upload controls @touch: 44 px Pause, Resume and Cancel upload, worked by tapping', async ({ page, context }) => {
  test.setTimeout(90_000);
  const token = await openDemo(page, 'user');
  const name = `${uniqueMark('touch-upload')}.pdf`;
  const bytes = await pdfOf(name, 3);
  // Chunk 1 waits until the test lets it go, so the upload is seen running.
  const gate = signal();
  const atGate = signal();
  await routeChunks(context, async (index, attempt, route) => {
    if (index === 1 && attempt === 1) {
      atGate.fire();
      await gate.done;
    }
    await route.continue();
    return 'passed';
  });

  await openScans(page);
  await chooseFile(page, name, bytes);
  await atGate.done;
  const button = page.getByTestId('header-notifications');
  await button.tap();
  const tray = page.getByRole('region', { name: 'Notifications' });
  const row = tray.getByRole('listitem', { name });
  await expect(row.getByText('Uploading', { exact: true })).toBeVisible();
  const pause = row.getByRole('button', { name: 'Pause' });
  const cancel = row.getByRole('button', { name: 'Cancel upload' });
  await expectTapTarget(pause, 'Pause');
  await expectTapTarget(cancel, 'Cancel upload');
  // The row fits the portrait tablet.
  const box = (await row.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(768);

  await pause.tap();
  gate.fire();
  await expect(row.getByText('Paused', { exact: true })).toBeVisible();
  const resume = row.getByRole('button', { name: 'Resume' });
  await expectTapTarget(resume, 'Resume');
  await resume.tap();
  await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectTapTarget(row.getByRole('button', { name: 'Remove' }), 'Remove');

  // Cancel: a second file, cancelled while it runs, leaves the tray and never reaches the inbox.
  const other = `${uniqueMark('touch-cancel')}.pdf`;
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  const holding = signal();
  await routeChunks(context, async (index, _attempt, route) => {
    if (index === 1) {
      holding.fire();
      // Never let chunk 1 through: the upload is cancelled meanwhile.
      await route.abort('connectionreset');
      return 'aborted';
    }
    await route.continue();
    return 'passed';
  });
  await tray.getByRole('button', { name: 'Close' }).tap();
  await chooseFile(page, other, await pdfOf(other, 3));
  await holding.done;
  await button.tap();
  const otherRow = tray.getByRole('listitem', { name: other });
  await otherRow.getByRole('button', { name: 'Cancel upload' }).tap();
  await expect(otherRow).toHaveCount(0);
  const list = await page.request.get('/api/inboxes', { params: { token, Id: SCANS, numberOfDocuments: 1000 } });
  const names = ((await list.json()) as { Files: { FileName: string }[] }).Files.map((f) => f.FileName);
  expect(names).toContain(name);
  expect(names).not.toContain(other);
});
