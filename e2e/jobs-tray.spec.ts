/**
 * Server jobs in the notifications tray (issue 9 item 5), against the real server: a job this user
 * started elsewhere (here: through the API, as another device would) shows in the tray after sign-in
 * (the jobs worker's start-up sync with GET api/jobs), with its progress, counts and the refused
 * document as 'DocID {id}: reason'; the worker keeps polling it until it ends, with no reload. A job
 * that waits for more documents (Count larger than the calls sent) is still there after a reload and
 * is cancelled from the tray (DELETE api/jobs/{id}).
 *
 * Data: the Records database (db 2), which no other spec changes or counts, as `admin` (whose tray no
 * other spec reads). Each test copies one Records Management document into Retained and deletes that
 * copy as part of its job, so the archives end as they began; the refused calls name seeded Retained
 * documents with a wrong SecureId, which the server refuses without touching them.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expectTapTarget, searchDocs, texts, uniqueMark } from './editing-support';
import { expect, openDemo, test, type Doc } from './grid-support';

const DB = 2;
const RECORDS_SEARCH = 8;
const RECORDS = 9;
const RETAINED = 10;
const t = texts('en');

interface JobAnswer {
  Id: number;
  State: string;
  Count: number;
  Processed: number;
  Succeeded: number;
  Failed: number;
  Failures?: { DocID: number; Message: string }[];
  Results?: { DocID: number; NewDocID?: number }[];
}

async function getJob(request: APIRequestContext, token: string, id: number): Promise<JobAnswer> {
  const res = await request.get(`/api/jobs/${id}`, { params: { token, Results: 'true' } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as JobAnswer;
}

/** One per-document call of a group job (the archive-ops spec §7); answers the job's id. */
async function operate(
  request: APIRequestContext,
  token: string,
  op: 'Copy' | 'delete',
  archiveId: number,
  doc: Pick<Doc, 'Id'>,
  q: { SecureId: string; Job: string; Count: number; DestinationArchive?: number },
): Promise<{ status: number; jobId: number }> {
  const res = await request.get(`/api/dbs/${DB}/archives/${archiveId}/documents/${doc.Id}/${op}`, { params: { token, ...q } });
  const body = (await res.json()) as { JobId?: number };
  expect(body.JobId, JSON.stringify(body)).toBeGreaterThan(0);
  return { status: res.status(), jobId: body.JobId! };
}

/** A copy of a Records Management document in Retained, made by a job of its own: the test's own document. */
async function makeCopy(request: APIRequestContext, token: string, mark: string): Promise<Doc> {
  const source = (await searchDocs(request, token, { db: DB, searchId: RECORDS_SEARCH, archiveId: RECORDS, rpp: 5 })).Docs.find((d) => d.ArchiveId === RECORDS);
  expect(source, 'a Records Management document').toBeTruthy();
  const { jobId } = await operate(request, token, 'Copy', RECORDS, source!, { SecureId: source!.Hash, Job: `${mark}-copy`, Count: 1, DestinationArchive: RETAINED });
  await expect.poll(async () => (await getJob(request, token, jobId)).State, { timeout: 30_000, message: 'the fixture copy ends' }).toBe('done');
  const newId = (await getJob(request, token, jobId)).Results?.[0]?.NewDocID;
  expect(newId, 'the copy').toBeGreaterThan(0);
  const copy = (await searchDocs(request, token, { db: DB, searchId: RECORDS_SEARCH, archiveId: RETAINED, rpp: 100 })).Docs.find((d) => d.Id === newId);
  expect(copy, 'the copy is in Retained').toBeTruthy();
  return copy!;
}

/** A seeded Retained document, named with a wrong SecureId: the server refuses it and leaves it alone. */
async function seededRetained(request: APIRequestContext, token: string): Promise<Doc> {
  const doc = (await searchDocs(request, token, { db: DB, searchId: RECORDS_SEARCH, archiveId: RETAINED, rpp: 100 })).Docs.filter((d) => d.ArchiveId === RETAINED).sort((a, b) => a.Id - b.Id)[0];
  expect(doc, 'a seeded Retained document').toBeTruthy();
  return doc!;
}

/** Deletes the test's copy if the test ended before its job did. */
async function removeCopy(request: APIRequestContext, token: string, copy: Doc | null, mark: string): Promise<void> {
  if (!copy) return;
  const still = (await searchDocs(request, token, { db: DB, searchId: RECORDS_SEARCH, archiveId: RETAINED, rpp: 100 })).Docs.some((d) => d.Id === copy.Id);
  if (still) await operate(request, token, 'delete', RETAINED, copy, { SecureId: copy.Hash, Job: `${mark}-cleanup`, Count: 1 });
}

async function openTray(page: Page) {
  // By its class: the toasts' live region has the same name.
  const panel = page.locator('section.notifications-panel');
  if (!(await panel.isVisible())) await page.getByTestId('header-notifications').click();
  await expect(panel).toBeVisible();
  return panel;
}

const refusal = (id: number) => `DocID ${id}: The secure id does not match this document`;

test.describe('jobs in the notifications tray', () => {
  test("a job started elsewhere shows after sign-in with its progress, counts and refused document, and is polled until it ends", async ({ page, request }) => {
    const token = await apiToken(request, 'admin');
    const mark = uniqueMark('tray');
    let copy: Doc | null = null;
    try {
      copy = await makeCopy(request, token, mark);
      const refused = await seededRetained(request, token);
      // One of the job's two documents arrives now, refused; the job waits for the other.
      const first = await operate(request, token, 'delete', RETAINED, refused, { SecureId: 'not-its-hash', Job: mark, Count: 2 });
      expect(first.status).toBe(403);
      const jobId = first.jobId;

      await openDemo(page, 'admin');
      const panel = await openTray(page);
      const card = panel.getByTestId(`job-${jobId}`);
      await expect(card).toHaveAccessibleName(t('JOB_TITLE_DELETE', { count: 2 }));
      await expect(card).toContainText(t('JOB_PROGRESS', { done: 1, total: 2 }));
      await expect(card).toContainText(t('JOB_COUNTS', { succeeded: 0, failed: 1 }));
      // Failures come with GET api/jobs/{id}: the worker's first poll.
      await expect(card.getByRole('list', { name: t('JOB_FAILURES') })).toHaveText(refusal(refused.Id));
      const bar = card.getByRole('progressbar', { name: t('JOB_PROGRESS_LABEL', { title: t('JOB_TITLE_DELETE', { count: 2 }) }) });
      await expect(bar).toHaveAttribute('value', '1');
      await expect(bar).toHaveAttribute('max', '2');
      await expect(card.getByRole('button', { name: t('JOB_CANCEL'), exact: true })).toBeVisible();

      // The other document arrives (another device sends it): the worker's polling shows the end, no reload.
      const second = await operate(request, token, 'delete', RETAINED, copy, { SecureId: copy.Hash, Job: mark, Count: 2 });
      expect(second).toEqual({ status: 200, jobId });
      await expect(card.getByText(t('JOB_STATE_DONE'), { exact: true })).toBeVisible({ timeout: 45_000 });
      await expect(card.getByRole('status')).toHaveText(t('JOB_FINAL_DONE', { succeeded: 1, total: 2, failed: 1 }));
      await expect(card).toContainText(t('JOB_PROGRESS', { done: 2, total: 2 }));
      await expect(card).toContainText(t('JOB_COUNTS', { succeeded: 1, failed: 1 }));
      // The job note of kind 5, with the server's counts.
      await expect(card.locator('[data-note-kind="5"]')).toHaveText(t('JOB_NOTE_COUNTS', { action: t('JOB_ACTION_DELETE'), count: 2, succeeded: 1, failed: 1 }));
      await expect(card.getByRole('list', { name: t('JOB_FAILURES') })).toHaveText(refusal(refused.Id));
      await expect(card.getByRole('button', { name: t('JOB_CANCEL'), exact: true })).toHaveCount(0);
      expect(await getJob(request, token, jobId)).toMatchObject({ State: 'done', Succeeded: 1, Failed: 1 });
      copy = null;
    } finally {
      await removeCopy(request, token, copy, mark);
    }
  });

  test('@touch a job waiting for more documents survives a reload and is cancelled from the tray', async ({ page, request }) => {
    const token = await apiToken(request, 'admin');
    const mark = uniqueMark('tray-cancel');
    const refused = await seededRetained(request, token);
    // Count 3, one call sent: the job waits for two more that never come.
    const { jobId } = await operate(request, token, 'delete', RETAINED, refused, { SecureId: 'not-its-hash', Job: mark, Count: 3 });
    try {
      await openDemo(page, 'admin');
      // The badge counts the running job; jobs that ended before this browser heard of them do not count.
      const button = page.getByTestId('header-notifications');
      await expect(button).toHaveAccessibleName(t('NOTIFICATIONS_WITH_COUNT', { count: 1 }));
      let card = (await openTray(page)).getByTestId(`job-${jobId}`);
      await expect(card).toContainText(t('JOB_PROGRESS', { done: 1, total: 3 }));
      await expect(card.getByRole('list', { name: t('JOB_FAILURES') })).toHaveText(refusal(refused.Id));

      // A reload: the record is in IndexedDB and the worker picks the job up again.
      await page.reload();
      const panel = await openTray(page);
      card = panel.getByTestId(`job-${jobId}`);
      await expect(card).toContainText(t('JOB_PROGRESS', { done: 1, total: 3 }));
      const cancel = card.getByRole('button', { name: t('JOB_CANCEL'), exact: true });
      await expectTapTarget(cancel, 'Cancel job');
      // The tray fits the 768 px tablet.
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(768);

      const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname === `/api/jobs/${jobId}`);
      await cancel.tap();
      expect((await deleted).status()).toBe(200);
      await expect(card.getByText(t('JOB_STATE_CANCELLED'), { exact: true })).toBeVisible();
      await expect(card.getByRole('status')).toHaveText(t('JOB_FINAL_CANCELLED', { succeeded: 0, total: 3 }));
      await expect(cancel).toHaveCount(0);
      // Ended while the tray was open: seen, so the badge no longer counts it.
      await expect(button).toHaveAccessibleName(t('NOTIFICATIONS'));
      expect(await getJob(request, token, jobId)).toMatchObject({ State: 'cancelled', Failed: 1, Succeeded: 0 });
    } finally {
      await request.delete(`/api/jobs/${jobId}`, { params: { token } });
    }
  });
});
