// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, type JobRecord } from '../../src/db/db';
import { NotificationsTray } from '../../src/features/notifications/components/notifications-tray';
import { i18n } from '../../src/i18n/i18n';

const badges: (number | 'clear')[] = [];
beforeEach(async () => {
  await db.jobs.clear();
  badges.length = 0;
  vi.stubGlobal('navigator', {
    ...navigator,
    setAppBadge: async (n?: number) => void badges.push(n ?? 0),
    clearAppBadge: async () => void badges.push('clear'),
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const record = (id: string, patch: Partial<JobRecord> = {}): JobRecord => ({
  id,
  dbId: 1,
  kind: 'copy',
  state: 'running',
  progress: 0,
  total: 10,
  startedAt: 1000,
  updatedAt: 1000,
  nextPollAt: 0,
  notes: [],
  ...patch,
});

describe('the app badge follows the jobs table', () => {
  it('shows the number of running jobs, and clears when none runs', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsTray />
      </I18nextProvider>,
    );
    await waitFor(() => expect(badges.at(-1)).toBe('clear'));
    await db.jobs.bulkPut([record('1'), record('2', { state: 'queued' }), record('3', { state: 'done' })]);
    await waitFor(() => expect(badges.at(-1)).toBe(2));
    await db.jobs.update('1', { state: 'done' });
    await waitFor(() => expect(badges.at(-1)).toBe(1));
    // A job the server no longer knows does not count as running.
    await db.jobs.update('2', { lost: 'notFound' });
    await waitFor(() => expect(badges.at(-1)).toBe('clear'));
  });
});
