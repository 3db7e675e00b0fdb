/**
 * Told when a job ends (issue 10 item 4), against the real server: a job's end while the page is
 * hidden raises a system notification from the page (the polling runs in the jobs worker); the app
 * badge follows the running jobs; a job that ended while no tab of the app was open is told on the
 * next opening.
 *
 * What the app did is recorded by wrapping window.Notification and navigator.setAppBadge in an init
 * script (the real ones still run); the page's visibility is emulated by overriding
 * document.visibilityState and dispatching visibilitychange.
 *
 * Data: each test starts its own job in the Records database (db 2) as `admin`, the way
 * jobs-tray.spec.ts does: one call of a delete job of two documents, naming a seeded Retained
 * document with a wrong SecureId (refused, the document left alone), so the job waits for its
 * second document; the test then cancels it through the API (DELETE api/jobs/{id}), which ends it.
 * Nothing in the archives changes. The permission test deletes two seeded Correspondence documents
 * as `user` with the browser offline: the entry stays queued in this test's browser context, which
 * closes offline, so the server never hears of it.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, searchDocs, texts, uniqueMark } from './editing-support';
import { expect, gridRow, openDemo, test } from './grid-support';

const DB = 2;
const RECORDS_SEARCH = 8;
const RETAINED = 10;
const t = texts('en');

declare global {
  interface Window {
    toldNotifications: { title: string; body: string }[];
    toldBadges: (number | 'clear')[];
    toldSetHidden: (hidden: boolean) => void;
    toldAsks: number;
  }
}

/** Records what the app asks of the browser; the real calls still happen. */
function recordTelling() {
  window.toldNotifications = [];
  window.toldBadges = [];
  const Real = window.Notification;
  if (Real) {
    const Recorded = function (this: Notification, title: string, options?: NotificationOptions) {
      window.toldNotifications.push({ title, body: options?.body ?? '' });
      return new Real(title, options);
    } as unknown as typeof Notification;
    Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
    Recorded.requestPermission = Real.requestPermission.bind(Real);
    Recorded.prototype = Real.prototype;
    window.Notification = Recorded;
  }
  const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  // Chromium has the Badging API; the recorded calls stand for the icon (no installed app here).
  nav.setAppBadge = async (n?: number) => void window.toldBadges.push(n ?? 0);
  nav.clearAppBadge = async () => void window.toldBadges.push('clear');
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  window.toldSetHidden = (h: boolean) => {
    hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  };
}

/** A delete job of two documents that waits for its second: answers its id. */
async function waitingJob(request: APIRequestContext, token: string, mark: string): Promise<number> {
  const doc = (await searchDocs(request, token, { db: DB, searchId: RECORDS_SEARCH, archiveId: RETAINED, rpp: 100 })).Docs.filter((d) => d.ArchiveId === RETAINED).sort((a, b) => a.Id - b.Id)[0];
  expect(doc, 'a seeded Retained document').toBeTruthy();
  const res = await request.get(`/api/dbs/${DB}/archives/${RETAINED}/documents/${doc!.Id}/delete`, { params: { token, SecureId: 'not-its-hash', Job: mark, Count: 2 } });
  const body = (await res.json()) as { JobId?: number };
  expect(body.JobId, JSON.stringify(body)).toBeGreaterThan(0);
  return body.JobId!;
}

async function cancelJob(request: APIRequestContext, token: string, id: number): Promise<void> {
  const res = await request.delete(`/api/jobs/${id}`, { params: { token } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

async function trayCard(page: Page, jobId: number) {
  const panel = page.locator('section.notifications-panel');
  if (!(await panel.isVisible())) await page.getByTestId('header-notifications').click();
  await expect(panel).toBeVisible();
  return panel.getByTestId(`job-${jobId}`);
}

const title = t('JOB_TITLE_DELETE', { count: 2 });
const outcome = t('JOB_FINAL_CANCELLED', { succeeded: 0, failed: 1, total: 2 });

test.describe('told when a job ends', () => {
  test('a job that ends while the page is hidden raises a system notification; the app badge counts running jobs', async ({ page, context, request }) => {
    await context.grantPermissions(['notifications']);
    await page.addInitScript(recordTelling);
    const token = await apiToken(request, 'admin');
    const jobId = await waitingJob(request, token, uniqueMark('told-hidden'));
    let ended = false;
    try {
      await openDemo(page, 'admin');
      const card = await trayCard(page, jobId);
      await expect(card).toContainText(t('JOB_PROGRESS', { done: 1, total: 2 }));
      // The job runs: the badge shows at least it (other specs' jobs of admin may run too).
      await expect.poll(() => page.evaluate(() => window.toldBadges.at(-1))).toBeGreaterThanOrEqual(1);
      const runningBadge = (await page.evaluate(() => window.toldBadges.at(-1))) as number;
      // Visible: nothing is raised for what the user sees anyway.
      expect(await page.evaluate(() => window.toldNotifications)).toEqual([]);

      await page.evaluate(() => window.toldSetHidden(true));
      await cancelJob(request, token, jobId);
      ended = true;
      await expect
        .poll(() => page.evaluate(() => window.toldNotifications), { timeout: 45_000, message: 'the worker polls the end; the page raises the notification' })
        .toEqual([{ title, body: outcome }]);
      // One running job fewer on the badge.
      await expect.poll(() => page.evaluate(() => window.toldBadges.at(-1))).toBe(runningBadge === 1 ? 'clear' : runningBadge - 1);
      // Still listed in the tray once the user is back.
      await page.evaluate(() => window.toldSetHidden(false));
      await expect(card).toContainText(outcome);
    } finally {
      if (!ended) await cancelJob(request, token, jobId);
    }
  });

  test('a job that ended while no tab was open is told on the next opening and stays in the tray', async ({ page, context, request }) => {
    const token = await apiToken(request, 'admin');
    const jobId = await waitingJob(request, token, uniqueMark('told-closed'));
    let ended = false;
    try {
      await openDemo(page, 'admin');
      await expect(await trayCard(page, jobId)).toContainText(t('JOB_PROGRESS', { done: 1, total: 2 }));
      // Every tab closed; the job ends meanwhile.
      await page.close();
      await cancelJob(request, token, jobId);
      ended = true;

      const next = await context.newPage();
      await next.goto('/');
      const toast = next.locator('.toasts').getByText(t('JOB_ENDED_TOAST', { title, outcome }));
      await expect(toast).toBeVisible();
      // The toast fades (5 s); the job stays listed, ended.
      await expect(toast).toBeHidden({ timeout: 30_000 });
      await expect(await trayCard(next, jobId)).toContainText(outcome);
    } finally {
      if (!ended) await cancelJob(request, token, jobId);
    }
  });

  test('the notification permission is asked when the first long job starts, not at load', async ({ page, context }) => {
    // The browser's answer is left open ('default'), as when the user closes the prompt: the app
    // must ask only from the job's start. Counts the app's requests.
    await page.addInitScript(() => {
      window.toldAsks = 0;
      const Real = window.Notification;
      Object.defineProperty(Real, 'permission', { configurable: true, get: () => 'default' });
      Real.requestPermission = async () => {
        window.toldAsks++;
        return 'default';
      };
    });
    await openDemo(page, 'user');
    await page.getByTestId('search-list').getByRole('button', { name: 'Correspondence', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(gridRow(page, 1)).toBeVisible();
    await page.getByTestId('header-notifications').click();
    await expect(page.locator('section.notifications-panel')).toBeVisible();
    // Loaded, searched, the tray opened (its button still offers to ask): nothing asked.
    await expect(page.getByRole('button', { name: t('JOBS_NOTIFY_ASK') })).toBeVisible();
    expect(await page.evaluate(() => window.toldAsks)).toBe(0);
    await page.getByTestId('header-notifications').click();

    // Offline: the delete stays queued in this context and never reaches the server.
    await context.setOffline(true);
    const check = (row: number) => gridRow(page, row).locator('td').filter({ has: page.locator('input.results-check') });
    await check(0).click();
    await check(1).click();
    await expect(page.getByTestId('results-selected')).toHaveText('2 selected');
    await page.getByRole('group', { name: 'Document actions' }).getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 documents?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect.poll(() => page.evaluate(() => window.toldAsks)).toBe(1);
  });
});
