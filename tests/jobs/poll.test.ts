import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import type { Job } from '../../src/api/jobs';
import { ArchiveDb } from '../../src/db/db';
import {
  POLL_MAX_MS,
  dismissFinalJobs,
  markJobsSeen,
  mergeJob,
  nextPollTime,
  pollDelayMs,
  pollJobs,
  syncJobList,
  trackJob,
  type FetchJob,
} from '../../src/sync/jobs';
import { claimEndedJobs, jobAttentionCount } from '../../src/sync/jobs-view';
import { job } from './job-fixtures';

let database: ArchiveDb;
beforeEach(() => {
  database = new ArchiveDb(`jobs-${Math.random()}`);
});
afterEach(async () => {
  database.close();
  await database.delete();
});

const T0 = Date.parse('2026-11-25T03:00:00.000Z');

/** A fake server: the answers per job id, and the ids asked for. */
function server(answers: Record<number, Job | (() => Job) | Error>) {
  const asked: number[] = [];
  const fetchJob: FetchJob = async (id) => {
    asked.push(id);
    const a = answers[id];
    if (a === undefined) throw new ApiError({ kind: 'http', method: 'GET', url: `/api/jobs/${id}`, status: 404 });
    if (a instanceof Error) throw a;
    return typeof a === 'function' ? a() : a;
  };
  return { asked, fetchJob };
}

const httpError = (status: number) => new ApiError({ kind: 'http', method: 'GET', url: '/api/jobs/1', status });

describe('backoff', () => {
  it('1 s after a change, doubling while nothing changes, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(pollDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(POLL_MAX_MS).toBe(30_000);
  });
});

describe('pollJobs', () => {
  it('polls a tracked job at once, backs off while nothing changes, starts again at 1 s on progress', async () => {
    await trackJob({ id: 7, dbId: 1, kind: 'move', total: 10, owner: 'user' }, database, T0);
    let answer = job(7, { Processed: 2, Succeeded: 2 });
    const s = server({ 7: () => answer });

    let r = await pollJobs(database, s.fetchJob, T0, { owner: 'user' });
    expect(s.asked).toEqual([7]);
    expect(r.nextAt).toBe(T0 + 1000);
    expect(await database.jobs.get('7')).toMatchObject({ state: 'running', progress: 2, succeeded: 2, idlePolls: 0 });

    // Not due yet: nothing asked.
    r = await pollJobs(database, s.fetchJob, T0 + 500, { owner: 'user' });
    expect(r.polled).toBe(0);
    expect(s.asked).toHaveLength(1);

    // The same answer twice: 2 s, then 4 s.
    r = await pollJobs(database, s.fetchJob, T0 + 1000, { owner: 'user' });
    expect(r.nextAt).toBe(T0 + 1000 + 2000);
    r = await pollJobs(database, s.fetchJob, T0 + 3000, { owner: 'user' });
    expect(r.nextAt).toBe(T0 + 3000 + 4000);

    answer = job(7, { Processed: 5, Succeeded: 4, Failed: 1, Failures: [{ DocID: 12, ArchiveID: 3, Reason: 'Locked', Message: 'DocID 12: Locked' }] });
    r = await pollJobs(database, s.fetchJob, T0 + 7000, { owner: 'user' });
    expect(r.nextAt).toBe(T0 + 8000);
    expect(await database.jobs.get('7')).toMatchObject({ progress: 5, failed: 1, failures: ['DocID 12: Locked'] });
  });

  it('stops when every job is final: no next time, the end is told once', async () => {
    await trackJob({ id: 8, dbId: 1, kind: 'delete', total: 2, owner: 'user' }, database, T0);
    const s = server({ 8: job(8, { Kind: 'delete', Count: 2, State: 'done', Processed: 2, Succeeded: 2, Failures: [], Finished: '2026-11-25T03:00:01.000Z' }) });
    const r = await pollJobs(database, s.fetchJob, T0, { owner: 'user' });
    expect(r.nextAt).toBeNull();
    expect(await database.jobs.get('8')).toMatchObject({ state: 'done', endedAt: T0 });
    expect((await claimEndedJobs(database, 'user', T0)).map((e) => e.id)).toEqual(['8']);
    expect(await claimEndedJobs(database, 'user', T0)).toEqual([]);
    const again = await pollJobs(database, s.fetchJob, T0 + 60_000, { owner: 'user' });
    expect(again).toMatchObject({ polled: 0, nextAt: null });
    expect(s.asked).toEqual([8]);
  });

  it("polls only the signed-in user's records", async () => {
    await trackJob({ id: 1, dbId: 1, kind: 'copy', total: 1, owner: 'user' }, database, T0);
    await trackJob({ id: 2, dbId: 1, kind: 'copy', total: 1, owner: 'admin' }, database, T0);
    const s = server({ 1: job(1), 2: job(2) });
    await pollJobs(database, s.fetchJob, T0, { owner: 'user' });
    expect(s.asked).toEqual([1]);
    expect(nextPollTime(await database.jobs.toArray(), 'nobody')).toBeNull();
  });

  it('a session error (401, 499, 402) stops the step and reports it; nothing is marked', async () => {
    for (const status of [401, 499, 402]) {
      await database.jobs.clear();
      await trackJob({ id: 3, dbId: 1, kind: 'copy', total: 1 }, database, T0);
      const s = server({ 3: httpError(status) });
      const r = await pollJobs(database, s.fetchJob, T0, {});
      expect((r.stopped as ApiError).status).toBe(status);
      expect(r.nextAt).toBeNull();
      expect(await database.jobs.get('3')).toMatchObject({ state: 'queued', nextPollAt: 0 });
    }
  });

  it('offline or a server error backs the job off; a 404 marks it lost and it is not polled again', async () => {
    await trackJob({ id: 4, dbId: 1, kind: 'copy', total: 1 }, database, T0);
    await trackJob({ id: 5, dbId: 1, kind: 'copy', total: 1 }, database, T0);
    const s = server({ 4: new ApiError({ kind: 'network', method: 'GET', url: '/api/jobs/4' }) });
    const r = await pollJobs(database, s.fetchJob, T0, {});
    expect(s.asked.sort()).toEqual([4, 5]);
    expect(await database.jobs.get('4')).toMatchObject({ idlePolls: 1, nextPollAt: T0 + 2000 });
    expect(await database.jobs.get('5')).toMatchObject({ lost: 'notFound' });
    expect(r.nextAt).toBe(T0 + 2000);
  });

  it('resumes from the stored records: a new database handle (a reload) polls what was left running', async () => {
    const name = database.name;
    await trackJob({ id: 9, dbId: 1, kind: 'move', total: 10, owner: 'user' }, database, T0);
    await pollJobs(database, server({ 9: job(9, { Processed: 3, Succeeded: 3 }) }).fetchJob, T0, { owner: 'user' });
    database.close();

    const reopened = new ArchiveDb(name);
    const s = server({ 9: job(9, { State: 'done', Processed: 10, Succeeded: 10, Failures: [] }) });
    expect(nextPollTime(await reopened.jobs.toArray(), 'user')).toBe(T0 + 1000);
    const r = await pollJobs(reopened, s.fetchJob, T0 + 5000, { owner: 'user' });
    expect(s.asked).toEqual([9]);
    expect(r.polled).toBe(1);
    expect(await claimEndedJobs(reopened, 'user', T0 + 5000)).toHaveLength(1);
    expect(await reopened.jobs.get('9')).toMatchObject({ state: 'done', progress: 10 });
    database = reopened;
  });

  it('trackJob after the start-up sync made the record gives it its title and entry', async () => {
    await syncJobList(database, [job(15, { Kind: 'delete', Count: 20, State: 'done', Processed: 20, Succeeded: 20 })], 'user', T0);
    await trackJob({ id: 15, dbId: 1, kind: 'delete', total: 20, owner: 'user', title: 'Delete 20 documents', entryId: 'op-15' }, database, T0 + 5);
    expect(await database.jobs.get('15')).toMatchObject({ title: 'Delete 20 documents', entryId: 'op-15', state: 'done', progress: 20 });
    // A title it already has stays.
    await trackJob({ id: 15, dbId: 1, kind: 'delete', total: 20, title: 'Other' }, database, T0 + 6);
    expect((await database.jobs.get('15'))!.title).toBe('Delete 20 documents');
  });

  it('trackJob of a known job polls it again at once and keeps its progress', async () => {
    await trackJob({ id: 6, dbId: 1, kind: 'copy', total: 4 }, database, T0);
    await pollJobs(database, server({ 6: job(6, { Count: 4, Processed: 2, Succeeded: 2 }) }).fetchJob, T0, {});
    await trackJob({ id: 6, dbId: 1, kind: 'copy', total: 4 }, database, T0 + 10);
    expect(await database.jobs.get('6')).toMatchObject({ progress: 2, nextPollAt: 0 });
  });
});

describe('mergeJob', () => {
  it('keeps failures a list answer lacks while the count matches, drops them when it grew', async () => {
    await trackJob({ id: 1, dbId: 1, kind: 'move', total: 10 }, database, T0);
    const rec = (await database.jobs.get('1'))!;
    const withFailures = { ...rec, ...mergeJob(rec, job(1, { Processed: 2, Failed: 1, Succeeded: 1, Failures: [{ DocID: 5, ArchiveID: 3, Reason: 'Gone', Message: 'DocID 5: Gone' }] }), T0) };
    expect(withFailures.failures).toEqual(['DocID 5: Gone']);
    const same = mergeJob(withFailures, job(1, { Processed: 3, Failed: 1, Succeeded: 2 }), T0 + 1);
    expect(same.failures).toBeUndefined();
    expect({ ...withFailures, ...same }.failures).toEqual(['DocID 5: Gone']);
    const grew = { ...withFailures, ...mergeJob(withFailures, job(1, { Processed: 4, Failed: 2, Succeeded: 2 }), T0 + 2) };
    expect(grew.failures).toBeUndefined();
  });
});

describe('syncJobList (GET api/jobs at start)', () => {
  it('adds jobs started elsewhere; a final one with failures is polled once for them; jobs that ended before this device heard of them do not light the badge', async () => {
    const list = [
      job(20, { State: 'running', Processed: 1, Succeeded: 1 }),
      job(21, { State: 'failed', Processed: 10, Succeeded: 8, Failed: 2, Finished: '2026-11-25T02:59:00.000Z' }),
      job(22, { State: 'done', Processed: 10, Succeeded: 10, Created: '2026-11-20T03:00:00.000Z', Finished: '2026-11-20T03:01:00.000Z' }),
    ];
    await syncJobList(database, list, 'user', T0);
    const recs = await database.jobs.toArray();
    expect(recs.map((r) => [r.id, r.state, r.owner])).toEqual([
      ['20', 'running', 'user'],
      ['21', 'failed', 'user'],
      ['22', 'done', 'user'],
    ]);
    expect(jobAttentionCount(recs)).toBe(1);
    const s = server({ 20: job(20, { Processed: 2, Succeeded: 2 }), 21: job(21, { State: 'failed', Processed: 10, Succeeded: 8, Failed: 2, Failures: [{ DocID: 1, ArchiveID: 3, Reason: 'x', Message: 'DocID 1: x' }, { DocID: 2, ArchiveID: 3, Reason: 'y', Message: 'DocID 2: y' }] }) });
    const r = await pollJobs(database, s.fetchJob, T0, { owner: 'user' });
    expect(s.asked.sort()).toEqual([20, 21]);
    // Ended before this device heard of them: not told.
    expect(await claimEndedJobs(database, 'user', T0)).toEqual([]);
    expect((await database.jobs.get('21'))!.failures).toEqual(['DocID 1: x', 'DocID 2: y']);
    expect(r.nextAt).toBe(T0 + 1000);
  });

  it('the badge: running and unseen final jobs; seen and dismissed ones drop out', async () => {
    await syncJobList(database, [job(30), job(31)], 'user', T0);
    expect(jobAttentionCount(await database.jobs.toArray())).toBe(2);
    // Job 31 ends while this device watches it: still counted until it is seen.
    await pollJobs(database, server({ 30: job(30), 31: job(31, { State: 'done', Processed: 10, Succeeded: 10, Failures: [] }) }).fetchJob, T0, { owner: 'user' });
    expect(jobAttentionCount(await database.jobs.toArray())).toBe(2);
    await markJobsSeen(database, ['31'], T0 + 1);
    expect(jobAttentionCount(await database.jobs.toArray())).toBe(1);
    await trackJob({ id: 32, dbId: 1, kind: 'copy', total: 1, owner: 'user' }, database, T0);
    await database.jobs.update('32', { lost: 'notFound' });
    await dismissFinalJobs(database, 'user', T0 + 2);
    expect((await database.jobs.get('31'))!.dismissedAt).toBe(T0 + 2);
    expect((await database.jobs.get('32'))!.dismissedAt).toBe(T0 + 2);
    expect((await database.jobs.get('30'))!.dismissedAt).toBeUndefined();
    // The next start-up sync does not bring a dismissed job back.
    await syncJobList(database, [job(31, { State: 'done', Processed: 10, Succeeded: 10 })], 'user', T0 + 3);
    expect((await database.jobs.get('31'))!.dismissedAt).toBe(T0 + 2);
    // Once the server no longer lists it, the dismissed record goes; others stay.
    await syncJobList(database, [job(30)], 'user', T0 + 4);
    expect(await database.jobs.get('31')).toBeUndefined();
    expect(await database.jobs.get('30')).toBeDefined();
  });
});
