// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../src/db/db';
import { canAskNotificationPermission, notifyJobsEnded } from '../../src/features/notifications/job-notification';
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
