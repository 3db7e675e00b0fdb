// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../src/db/db';
import { announceJobsEnded, canAskNotificationPermission, notifyJobsEnded, showAppBadge } from '../../src/features/notifications/job-notification';
import { NOTIFICATION_FADE_MS } from '../../src/api/constants';
import { clearToasts, notify, useToasts } from '../../src/ui/notifications';
import { act, renderHook } from '@testing-library/react';
import { i18n } from '../../src/i18n/i18n';

const shown: { title: string; options: NotificationOptions }[] = [];
function installNotification(permission: NotificationPermission) {
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => permission);
    constructor(title: string, options: NotificationOptions) {
      shown.push({ title, options });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
}
function setVisibility(v: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => v });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  clearToasts();
  shown.length = 0;
  setVisibility('visible');
});

const ended: JobRecord = {
  id: '9',
  dbId: 1,
  kind: 'delete',
  state: 'done',
  progress: 20,
  total: 20,
  succeeded: 19,
  failed: 1,
  title: 'Delete 20 documents',
  startedAt: 0,
  updatedAt: 0,
  nextPollAt: 0,
  notes: [],
};
const t = i18n.t.bind(i18n);

describe('a system notification when a job ends', () => {
  it('only while the tab is hidden and only with permission; it names the job and what came of it', async () => {
    installNotification('granted');
    setVisibility('visible');
    await notifyJobsEnded([ended], t);
    expect(shown).toEqual([]);

    setVisibility('hidden');
    await notifyJobsEnded([ended], t);
    expect(shown).toEqual([{ title: 'Delete 20 documents', options: { body: 'Finished: 19 of 20 done, 1 failed.', tag: 'job-9' } }]);

    shown.length = 0;
    installNotification('denied');
    await notifyJobsEnded([ended], t);
    expect(shown).toEqual([]);
  });

  it('the tray offers to ask only while the user has not decided (never asked on load)', () => {
    installNotification('default');
    expect(canAskNotificationPermission()).toBe(true);
    expect(Notification.requestPermission).not.toHaveBeenCalled();
    installNotification('granted');
    expect(canAskNotificationPermission()).toBe(false);
  });
});

describe('a job end is told once', () => {
  it('a toast that fades after 5 s, and a system notification only while hidden', async () => {
    installNotification('granted');
    const toasts: [string, string, number | undefined][] = [];
    const toast = ((kind: 'error' | 'info' | 'success', text: string, fadeMs?: number) => {
      toasts.push([kind, text, fadeMs]);
      return 1;
    }) as typeof notify;
    setVisibility('visible');
    await announceJobsEnded([ended], t, toast);
    // Done with a failure: said as an error; the default fade (NOTIFICATION_FADE_MS) applies.
    expect(toasts).toEqual([['error', 'Delete 20 documents: Finished: 19 of 20 done, 1 failed.', undefined]]);
    expect(shown).toEqual([]);

    setVisibility('hidden');
    await announceJobsEnded([{ ...ended, failed: 0, succeeded: 20 }], t, toast);
    expect(toasts[1]?.[0]).toBe('success');
    expect(shown.map((s) => s.title)).toEqual(['Delete 20 documents']);
  });

  it('the toast goes after NOTIFICATION_FADE_MS (5 s)', async () => {
    expect(NOTIFICATION_FADE_MS).toBe(5000);
    vi.useFakeTimers();
    const { result } = renderHook(() => useToasts());
    await act(() => announceJobsEnded([ended], t));
    expect(result.current.map((x) => x.text)).toEqual(['Delete 20 documents: Finished: 19 of 20 done, 1 failed.']);
    act(() => void vi.advanceTimersByTime(4999));
    expect(result.current).toHaveLength(1);
    act(() => void vi.advanceTimersByTime(1));
    expect(result.current).toHaveLength(0);
  });
});

describe('the app badge', () => {
  it('shows the running jobs where the Badging API is, clears at 0, does nothing elsewhere', async () => {
    const calls: string[] = [];
    const nav = { setAppBadge: async (n?: number) => void calls.push(`set ${n}`), clearAppBadge: async () => void calls.push('clear') };
    await showAppBadge(3, nav);
    await showAppBadge(0, nav);
    expect(calls).toEqual(['set 3', 'clear']);
    await expect(showAppBadge(2, {})).resolves.toBeUndefined();
    await expect(showAppBadge(2, { setAppBadge: () => Promise.reject(new Error('not installed')), clearAppBadge: async () => undefined })).resolves.toBeUndefined();
  });
});
