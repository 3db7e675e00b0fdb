import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import type { Job } from '../../src/api/jobs';
import { ArchiveDb } from '../../src/db/db';
import { trackJob } from '../../src/sync/jobs';
import { startJobsLoop, type JobsLoop, type Timers } from '../../workers/jobs';
import { job } from './job-fixtures';

/** Timers the test fires by hand, with a clock that moves to each timer's time. */
function manualTimers(clock: { t: number }) {
  const pending = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const timers: Timers = {
    set: (fn, ms) => {
      const h = next++;
      pending.set(h, { at: clock.t + ms, fn });
      return h;
    },
    clear: (h) => void pending.delete(h as number),
  };
  const fire = () => {
    const [h, first] = [...pending.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
    if (h === undefined || !first) throw new Error('no timer set');
    pending.delete(h);
    clock.t = first.at;
    first.fn();
    return first.at;
  };
  return { timers, pending, fire };
}

let database: ArchiveDb;
let loop: JobsLoop | null = null;
beforeEach(() => {
  database = new ArchiveDb(`jobs-loop-${Math.random()}`);
});
afterEach(async () => {
  loop?.stop();
  loop = null;
  database.close();
  await database.delete();
});

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('the jobs worker loop', () => {
  it('syncs the server list at start, polls with backoff, keeps no timer once every job is final', async () => {
    const clock = { t: 1_000_000 };
    const t = manualTimers(clock);
    let answer: Job = job(5, { Processed: 1, Succeeded: 1 });
    const asked: number[] = [];
    loop = startJobsLoop({
      database,
      owner: 'user',
      now: () => clock.t,
      timers: t.timers,
      fetchJobList: async () => [job(5)],
      fetchJob: async (id) => {
        asked.push(id);
        return answer;
      },
    });
    await loop.started;
    await settle();
    expect(asked).toEqual([5]);
    expect(loop.waiting).toBe(true);
    expect([...t.pending.values()][0]!.at).toBe(1_001_000);

    // No change: 2 s next.
    t.fire();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await settle();
    expect([...t.pending.values()].map((p) => p.at)).toEqual([1_001_000 + 2000]);

    answer = job(5, { State: 'done', Processed: 10, Succeeded: 10, Failures: [] });
    t.fire();
    await vi.waitFor(async () => expect(await database.jobs.get('5')).toMatchObject({ state: 'done', progress: 10 }));
    await settle();
    expect(loop.waiting).toBe(false);
    expect(t.pending.size).toBe(0);
  });

  it('a job tracked while idle (no timer) is polled at once', async () => {
    const clock = { t: 5_000 };
    const t = manualTimers(clock);
    const asked: number[] = [];
    loop = startJobsLoop({
      database,
      owner: 'user',
      now: () => clock.t,
      timers: t.timers,
      fetchJob: async (id) => {
        asked.push(id);
        return job(id, { State: 'done', Processed: 10, Succeeded: 10, Failures: [] });
      },
    });
    await loop.started;
    expect(asked).toEqual([]);
    expect(loop.waiting).toBe(false);
    await trackJob({ id: 11, dbId: 1, kind: 'copy', total: 10, owner: 'user' }, database, clock.t);
    await vi.waitFor(() => expect(asked).toEqual([11]));
    await vi.waitFor(async () => expect((await database.jobs.get('11'))?.state).toBe('done'));
    await settle();
    expect(loop.waiting).toBe(false);
  });

  it('a 499 stops polling and is reported; the loop does not try again', async () => {
    const clock = { t: 5_000 };
    const t = manualTimers(clock);
    await trackJob({ id: 12, dbId: 1, kind: 'copy', total: 10, owner: 'user' }, database, clock.t);
    let asked = 0;
    const stopped: unknown[] = [];
    loop = startJobsLoop({
      database,
      owner: 'user',
      now: () => clock.t,
      timers: t.timers,
      fetchJob: async () => {
        asked++;
        throw new ApiError({ kind: 'http', method: 'GET', url: '/api/jobs/12', status: 499 });
      },
      onStopped: (e) => stopped.push(e),
    });
    await loop.started;
    await settle();
    expect(asked).toBe(1);
    expect((stopped[0] as ApiError).status).toBe(499);
    expect(loop.waiting).toBe(false);
    await trackJob({ id: 12, dbId: 1, kind: 'copy', total: 10, owner: 'user' }, database, clock.t);
    await settle();
    expect(asked).toBe(1);
  });

  it('a session error on the start-up list stops before any poll', async () => {
    await trackJob({ id: 13, dbId: 1, kind: 'copy', total: 1, owner: 'user' }, database, 0);
    const stopped: unknown[] = [];
    let asked = 0;
    loop = startJobsLoop({
      database,
      owner: 'user',
      timers: manualTimers({ t: 0 }).timers,
      fetchJobList: async () => {
        throw new ApiError({ kind: 'http', method: 'GET', url: '/api/jobs', status: 401 });
      },
      fetchJob: async () => {
        asked++;
        return job(13);
      },
      onStopped: (e) => stopped.push(e),
    });
    await loop.started;
    expect(stopped).toHaveLength(1);
    expect(asked).toBe(0);
  });
});
