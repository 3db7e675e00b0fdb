// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { db } from '../../src/db/db';
import { NotificationsTray } from '../../src/features/notifications/components/notifications-tray';
import { i18n } from '../../src/i18n/i18n';
import { IMPORT_WAITING_FILES, enqueueImport } from '../../src/sync/kinds/import';
import { jsonResponse } from '../api/fake-fetch';
import { findNotificationsPanel } from '../support/app-harness';

beforeEach(async () => {
  await db.outbox.clear();
  await db.jobs.clear();
});
afterEach(() => cleanup());

async function openTray() {
  render(
    <I18nextProvider i18n={i18n}>
      <NotificationsTray />
    </I18nextProvider>,
  );
  fireEvent.click(await screen.findByTestId('header-notifications'));
  return findNotificationsPanel();
}

describe('an import in the tray', () => {
  it('a queued import waiting for its files says so in words, not its key, and offers no technical detail', async () => {
    // No session token: the tray's drain sends nothing.
    configureHttp({ token: () => null, fetchFn: async () => jsonResponse({}) });
    await enqueueImport(
      {
        request: { Database: 1, Archive: 5, csvPath: 'docs.csv', errorPath: 'docs-errors.csv', fieldDelimiter: ',', stringDelimiter: '"', FieldMapping: [{ FieldID: 1, RowID: 0, Checked: true }], Files: [{ Name: 'a.pdf' }] },
        rows: [{ Line: 2, Values: [{ ID: 1, VAL: 'x' }], File: 0 }],
        uploads: ['u1'],
        title: 'Import of 1 document from docs.csv',
      },
      db,
      null,
    );
    const [e] = await db.outbox.toArray();
    await db.outbox.update(e!.seq!, { error: IMPORT_WAITING_FILES, nextAttemptAt: Date.now() + 2_000 });
    const panel = await openTray();
    const item = await within(panel).findByRole('listitem', { name: 'Import of 1 document from docs.csv' });
    expect(item.textContent).toContain('Waiting for its files to upload');
    expect(item.textContent).not.toContain(IMPORT_WAITING_FILES);
    expect(within(item).queryByText('Technical details')).toBeNull();
  });

  it('an import job without a title is named by its kind; its counts note says Import; a failed row is its line and reason', async () => {
    configureHttp({ token: () => null, fetchFn: async () => jsonResponse({}) });
    await db.jobs.add({
      id: '77', dbId: 1, kind: 'import', state: 'done', progress: 3, total: 3, succeeded: 2, failed: 1, failures: ["Line 4: The row's file was not uploaded"],
      startedAt: Date.now(), updatedAt: Date.now(), nextPollAt: 0, notes: [[5, { Action: 'import', Count: 3, Succeeded: 2, Failed: 1 }]],
    });
    const panel = await openTray();
    const card = await within(panel).findByRole('listitem', { name: 'Import of 3 documents' });
    expect(card.textContent).toContain('Import: 3 in all, 2 succeeded, 1 failed');
    expect(card.textContent).toContain("Line 4: The row's file was not uploaded");
  });
});
