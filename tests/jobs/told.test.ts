// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArchiveDb, type JobRecord } from '../../src/db/db';
import { syncJobList, trackJob } from '../../src/sync/jobs';
import { askNotificationPermissionForJob, NOTIFICATION_ASKED_SETTING } from '../../src/sync/jobs-permission';
import { jobAttentionCount } from '../../src/sync/jobs-view';
import { startJobsLoop, type JobsLoop } from '../../workers/jobs';
import { job } from './job-fixtures';

let database: ArchiveDb;
let loop: JobsLoop | null = null;
beforeEach(() => {
  database = new ArchiveDb(`jobs-told-${Math.random()}`);
});
afterEach(async () => {
  loop?.stop();
  loop = null;
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
  it('a tracked job the start-up sync finds ended lights the badge and is announced once', async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'move', total: 10, owner: 'user', title: 'Move 10 documents' }, database, 1000);
    const done = job(7, { State: 'done', Processed: 10, Succeeded: 10, Finished: '2026-11-25T03:05:00.000Z' });
    // A job this device never tracked ended too: shown, but neither announced nor counted (564586a).
    const other = job(8, { State: 'done', Processed: 10, Succeeded: 10, Finished: '2026-11-25T03:05:00.000Z' });

    const ended = await syncJobList(database, [done, other], 'user', 2000);
    expect(ended.map((r) => r.id)).toEqual(['7']);
    expect(ended[0]).toMatchObject({ state: 'done', succeeded: 10, title: 'Move 10 documents' });
    expect(jobAttentionCount(await database.jobs.toArray())).toBe(1);

    // The next start (another tab, a reload) does not announce it again.
    expect(await syncJobList(database, [done, other], 'user', 3000)).toEqual([]);
  });

  it('the jobs loop hands them to onEnded at start (the page tells the user)', async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'move', total: 10, owner: 'user' }, database, 1000);
    const told: JobRecord[][] = [];
    loop = startJobsLoop({
      database,
      owner: 'user',
      fetchJobList: async () => [job(7, { State: 'failed', Processed: 10, Failed: 10 })],
      // With its failures: the record then needs no more polls.
      fetchJob: async (id) => job(id, { State: 'failed', Processed: 10, Failed: 10, Failures: [] }),
      onEnded: (records) => told.push(records),
    });
    await loop.started;
    // The first poll (for the failures) settles before the database closes.
    await new Promise((r) => setTimeout(r, 30));
    expect(told.map((rs) => rs.map((r) => [r.id, r.state]))).toEqual([[['7', 'failed']]]);
  });
});
