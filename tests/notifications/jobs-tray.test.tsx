// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { db, type JobRecord, type OutboxEntry } from '../../src/db/db';
import { JobNoteLine } from '../../src/features/notifications/components/job-note-line';
import { NotificationsTray } from '../../src/features/notifications/components/notifications-tray';
import { i18n } from '../../src/i18n/i18n';
import { jsonResponse } from '../api/fake-fetch';
import { job } from '../jobs/job-fixtures';
import { findNotificationsPanel } from '../support/app-harness';

const sent: { url: string; method: string }[] = [];
let answer: (url: string, method: string) => Response = () => jsonResponse({});

beforeEach(async () => {
  await db.outbox.clear();
  await db.jobs.clear();
  sent.length = 0;
  configureHttp({
    baseUrl: () => '',
    token: () => 'tok-1',
    fetchFn: async (url, init) => {
      const method = init?.method ?? 'GET';
      sent.push({ url, method });
      return answer(url, method);
    },
  });
});
afterEach(() => cleanup());

function record(patch: Partial<JobRecord> & { id: string }): JobRecord {
  return { dbId: 1, kind: 'move', state: 'running', progress: 0, total: 10, startedAt: 1000, updatedAt: 1000, nextPollAt: 0, notes: [], ...patch };
}

function renderTray() {
  return render(
    <I18nextProvider i18n={i18n}>
      <NotificationsTray />
    </I18nextProvider>,
  );
}

async function openTray(name: string) {
  fireEvent.click(await screen.findByRole('button', { name }));
  return findNotificationsPanel();
}

describe('jobs in the notifications tray', () => {
  it('a running job: progress bar, "N of M done", counts, each failure as DocID {id}: reason; cancel calls DELETE and shows the answer', async () => {
    await db.jobs.put(
      record({ id: '41', title: 'Move 10 documents to Contracts', progress: 3, succeeded: 2, failed: 1, failures: ['DocID 12: Document is locked'] }),
    );
    renderTray();
    const panel = await openTray('Notifications (1 need attention)');
    const card = within(panel).getByRole('listitem', { name: 'Move 10 documents to Contracts' });
    const bar = within(card).getByRole('progressbar', { name: 'Progress of Move 10 documents to Contracts' }) as HTMLProgressElement;
    expect(bar.value).toBe(3);
    expect(bar.max).toBe(10);
    expect(card.textContent).toContain('3 of 10 done');
    expect(card.textContent).toContain('2 succeeded, 1 failed');
    expect(within(card).getByRole('list', { name: 'Failures' }).textContent).toBe('DocID 12: Document is locked');
    expect(within(card).getByText('Running')).toBeTruthy();

    answer = (url, method) =>
      method === 'DELETE' && url.startsWith('/api/jobs/41')
        ? jsonResponse(job(41, { State: 'cancelled', Processed: 4, Succeeded: 3, Failed: 1, Failures: [{ DocID: 12, ArchiveID: 3, Reason: 'Document is locked', Message: 'DocID 12: Document is locked' }] }))
        : jsonResponse({}, { status: 404 });
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel job' }));
    await waitFor(() => expect(within(card).getByText('Cancelled')).toBeTruthy());
    expect(sent.filter((s) => s.method === 'DELETE').map((s) => s.url.split('?')[0])).toEqual(['/api/jobs/41']);
    expect(within(card).getByRole('status').textContent).toBe('Cancelled after 3 of 10 were done; the rest were not touched.');
    expect(within(card).queryByRole('button', { name: 'Cancel job' })).toBeNull();
    expect(await db.jobs.get('41')).toMatchObject({ state: 'cancelled', progress: 4 });
  });

  it('many failures are folded behind a disclosure; a job without title is named by its kind and count', async () => {
    const failures = [5, 6, 7, 8, 9].map((id) => `DocID ${id}: No permission`);
    await db.jobs.put(record({ id: '42', kind: 'delete', state: 'failed', total: 5, progress: 5, succeeded: 0, failed: 5, failures, seenAt: 1 }));
    renderTray();
    const panel = await openTray('Notifications');
    const card = within(panel).getByRole('listitem', { name: 'Delete documents (5)' });
    const details = card.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Show the 5 failures');
    expect([...details.querySelectorAll('li')].map((li) => li.textContent)).toEqual(failures);
    expect(within(card).getByRole('status').textContent).toBe('Failed: 0 of 5 done, 5 failed.');
  });

  it('outbox entries and jobs together, newest first; opening the tray sees ended jobs and the badge drops them', async () => {
    await db.jobs.put(record({ id: '43', title: 'Copy 2 documents', kind: 'copy', state: 'done', total: 2, progress: 2, succeeded: 2, failed: 0, failures: [], startedAt: 3000 }));
    await db.jobs.put(record({ id: '44', title: 'Delete 1 document', kind: 'delete', state: 'running', total: 1, startedAt: 1000 }));
    const entry: OutboxEntry = {
      id: 'op-1',
      kind: 'documentOperation',
      method: 'GET',
      path: '/api/dbs/1/archives/3/documents/1/delete',
      meta: { title: 'Delete 5 documents from Invoices', docs: [1, 2, 3, 4, 5].map((id) => ({ id, hash: `h${id}` })), sent: 2 },
      target: '1|documentOperation|k',
      state: 'sending',
      attempts: 0,
      createdAt: 2000,
      updatedAt: 2000,
    };
    await db.outbox.add(entry);
    // No token: the tray's drain leaves the entry as it is.
    configureHttp({ token: () => null });
    renderTray();
    const panel = await openTray('Notifications (3 need attention)');
    const names = within(panel)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.classList.contains('outbox-list'))
      .map((li) => li.getAttribute('aria-label'));
    expect(names).toEqual(['Copy 2 documents', 'Delete 5 documents from Invoices', 'Delete 1 document']);
    expect(within(panel).getByRole('listitem', { name: 'Delete 5 documents from Invoices' }).textContent).toContain('Sent 2 of 5');
    await waitFor(async () => expect((await db.jobs.get('43'))?.seenAt).toBeDefined());
    expect(await screen.findByRole('button', { name: 'Notifications (2 need attention)' })).toBeTruthy();
    expect((await db.jobs.get('44'))?.seenAt).toBeUndefined();
  });

  it('Clear finished jobs hides ended jobs and keeps running ones', async () => {
    await db.jobs.put(record({ id: '45', title: 'Old copy', kind: 'copy', state: 'done', total: 1, progress: 1, succeeded: 1, failed: 0, failures: [], seenAt: 1 }));
    await db.jobs.put(record({ id: '46', title: 'Running move', total: 4, progress: 1 }));
    renderTray();
    const panel = await openTray('Notifications (1 need attention)');
    fireEvent.click(within(panel).getByRole('button', { name: 'Clear finished jobs' }));
    await waitFor(() => expect(within(panel).queryByRole('listitem', { name: 'Old copy' })).toBeNull());
    expect(within(panel).getByRole('listitem', { name: 'Running move' })).toBeTruthy();
  });
});

describe('job notes (the user-app spec §3): one line per kind', () => {
  function line(note: unknown[]) {
    const { container, unmount } = render(
      <I18nextProvider i18n={i18n}>
        <ul>
          <JobNoteLine note={note} />
        </ul>
      </I18nextProvider>,
    );
    const li = container.querySelector('li')!;
    const out = { text: li.textContent, className: li.className, href: li.querySelector('a')?.getAttribute('href') ?? null };
    unmount();
    return out;
  }

  it('5 shows the counts; 1 and 4 are links; 0, 7 and 8 are errors in red; 2, 3 and unknown kinds show their text', () => {
    expect(line([5, { Action: 'Move', Count: 12, Succeeded: 11, Failed: 1 }]).text).toBe('Move: 12 in all, 11 succeeded, 1 failed');
    expect(line([1, 77, '/api/dbs/1/export?jobid=77'])).toMatchObject({ text: 'Export job 77 Download', href: '/api/dbs/1/export?jobid=77' });
    expect(line([4, 'Read the guide', 'https://example.com/guide'])).toMatchObject({ text: 'Read the guide', href: 'https://example.com/guide' });
    expect(line([6, 'https://example.com/ext'])).toMatchObject({ text: 'Install the extensions', href: 'https://example.com/ext' });
    for (const k of [0, 7, 8]) expect(line([k, 'Export failed'])).toMatchObject({ text: 'Export failed', className: 'job-note job-note-error' });
    expect(line([2, 'Indexed']).text).toBe('Indexed');
    expect(line([3, 'Three documents were converted']).text).toBe('Three documents were converted');
    expect(line([42, 'Something new']).text).toBe('Something new');
    // A link the server sends is only followed to http(s) or the app's own paths.
    expect(line([4, 'Click', 'javascript:alert(1)'])).toMatchObject({ href: null });
  });
});
