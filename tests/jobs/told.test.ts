// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArchiveDb, type JobRecord } from '../../src/db/db';
import Dexie from 'dexie';
import { renderHook } from '@testing-library/react';
import { saveJobAnswer, syncJobList, trackJob } from '../../src/sync/jobs';
import { useJobsTold } from '../../src/sync/react/use-jobs-told';
import { askNotificationPermissionForJob, NOTIFICATION_ASKED_SETTING } from '../../src/sync/jobs-permission';
import { claimEndedJobs, jobAttentionCount } from '../../src/sync/jobs-view';
import { job } from './job-fixtures';

let database: ArchiveDb;
beforeEach(() => {
  database = new ArchiveDb(`jobs-told-${Math.random()}`);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  database.close();
  await database.delete();
});

function installNotification(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const requestPermission = vi.fn(async () => answer);
  vi.stubGlobal('Notification', { permission, requestPermission });
  return requestPermission;
}

describe('the notification permission is asked when the first long job starts', () => {
  it('not for a one-document job, once for a longer one, never again on this device', async () => {
    const ask = installNotification('default', 'default');
    expect(await askNotificationPermissionForJob(1, database)).toBeNull();
    expect(ask).not.toHaveBeenCalled();

    // The user closed the prompt (still 'default'): the next long job does not ask again.
    expect(await askNotificationPermissionForJob(20, database)).toBe('default');
    expect(await askNotificationPermissionForJob(20, database)).toBeNull();
    expect(ask).toHaveBeenCalledTimes(1);
    expect((await database.settings.get(NOTIFICATION_ASKED_SETTING))?.value).toBe(true);
  });

  it('not when the user has answered already, nor where there are no notifications', async () => {
    const ask = installNotification('denied');
    expect(await askNotificationPermissionForJob(20, database)).toBeNull();
    expect(ask).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    vi.stubGlobal('Notification', undefined);
    expect(await askNotificationPermissionForJob(20, database)).toBeNull();
  });
});

describe('jobs that ended while no tab was open', () => {
  it('a tracked job the start-up sync finds ended lights the badge and is told once', async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'move', total: 10, owner: 'user', title: 'Move 10 documents' }, database, 1000);
    const done = job(7, { State: 'done', Processed: 10, Succeeded: 10, Finished: '2026-11-25T03:05:00.000Z' });
    // A job this device never tracked ended too: shown, but neither told nor counted (564586a).
    const other = job(8, { State: 'done', Processed: 10, Succeeded: 10, Finished: '2026-11-25T03:05:00.000Z' });

    await syncJobList(database, [done, other], 'user', 2000);
    expect(jobAttentionCount(await database.jobs.toArray())).toBe(1);
    const told = await claimEndedJobs(database, 'user', 2500);
    expect(told.map((r) => r.id)).toEqual(['7']);
    expect(told[0]).toMatchObject({ state: 'done', succeeded: 10, title: 'Move 10 documents' });
    expect(await database.jobs.get('7')).toMatchObject({ toldAt: 2500 });

    // The next start (another tab, a reload) does not tell it again.
    await syncJobList(database, [done, other], 'user', 3000);
    expect(await claimEndedJobs(database, 'user', 3000)).toEqual([]);
  });

  it('an end no page told (its tab closed as the worker wrote it) is told by the next page, by one of two tabs', async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'move', total: 10, owner: 'user' }, database, 1000);
    // The worker of a closing tab wrote the end, and its page is gone.
    await saveJobAnswer(database, job(7, { State: 'failed', Processed: 10, Failed: 10, Failures: [] }), 2000, { owner: 'user' });
    // Another user's end is not this session's to tell.
    await trackJob({ id: 9, dbId: 1, kind: 'move', total: 1, owner: 'other' }, database, 1000);
    await saveJobAnswer(database, job(9, { State: 'done', Processed: 1, Succeeded: 1, Failures: [] }), 2000, { owner: 'other' });

    const first = vi.fn<(records: JobRecord[]) => void>();
    const second = vi.fn<(records: JobRecord[]) => void>();
    const a = renderHook(() => useJobsTold('user', first, database));
    const b = renderHook(() => useJobsTold('user', second, database));
    await vi.waitFor(() => expect(first.mock.calls.length + second.mock.calls.length).toBe(1));
    const told = (first.mock.calls[0] ?? second.mock.calls[0])![0];
    expect(told.map((r) => [r.id, r.state])).toEqual([['7', 'failed']]);

    // A job ending now, with both pages open: told once more, once.
    await trackJob({ id: 10, dbId: 1, kind: 'copy', total: 1, owner: 'user' }, database, 3000);
    await saveJobAnswer(database, job(10, { State: 'done', Processed: 1, Succeeded: 1, Failures: [] }), 4000, { owner: 'user' });
    await vi.waitFor(() => expect(first.mock.calls.length + second.mock.calls.length).toBe(2));
    await new Promise((r) => setTimeout(r, 50));
    expect([...first.mock.calls, ...second.mock.calls].map((c) => c[0].map((r) => r.id).join()).sort()).toEqual(['10', '7']);
    expect((await database.jobs.get('9'))?.toldAt).toBeUndefined();
    a.unmount();
    b.unmount();
  });

  it("the user's own cancel is not told again; a cleared job is never told", async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'export', total: 10, owner: 'user' }, database, 1000);
    await saveJobAnswer(database, job(7, { State: 'cancelled', Processed: 2, Succeeded: 2 }), 2000, { owner: 'user', told: true });
    expect(await database.jobs.get('7')).toMatchObject({ state: 'cancelled', toldAt: 2000 });
    await trackJob({ id: 8, dbId: 1, kind: 'export', total: 10, owner: 'user' }, database, 1000);
    await database.jobs.update('8', { dismissedAt: 1500 });
    await saveJobAnswer(database, job(8, { State: 'done', Processed: 10, Succeeded: 10, Failures: [] }), 2000, { owner: 'user' });
    expect(await claimEndedJobs(database, 'user', 3000)).toEqual([]);
  });

  it('the update to this version does not tell the jobs that ended before it', async () => {
    const name = `jobs-told-upgrade-${Math.random()}`;
    // The jobs table as version 3 left it (the update touches no other table; the ones missing here
    // are made by the upgrade): one ended job, one running.
    const old = new Dexie(name);
    old.version(3).stores({ jobs: 'id, state, nextPollAt' });
    const base = { dbId: 1, kind: 'move', progress: 1, total: 1, owner: 'user', startedAt: 1, updatedAt: 5, nextPollAt: 0, notes: [] };
    await old.table('jobs').bulkPut([
      { ...base, id: '1', state: 'done', endedAt: 4 },
      { ...base, id: '2', state: 'running' },
    ]);
    old.close();

    const upgraded = new ArchiveDb(name);
    try {
      expect(await upgraded.jobs.get('1')).toMatchObject({ toldAt: 4 });
      expect((await upgraded.jobs.get('2'))?.toldAt).toBeUndefined();
      expect(await claimEndedJobs(upgraded, 'user', 10)).toEqual([]);
    } finally {
      upgraded.close();
      await upgraded.delete();
    }
  });
});
