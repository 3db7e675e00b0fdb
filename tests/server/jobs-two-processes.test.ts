// Needs PostgreSQL's server binaries (initdb, pg_ctl; Debian: apt-get install -y postgresql, which .ci/run does): without them this test FAILS, by design.
/** Two server processes on one PostgreSQL share a copy job's lease (jobs-processes-setup.ts says how). */
import { describe, expect, it } from 'vitest';
import { DOCS, KILL_AFTER, LEASE_SECONDS, background, checkCopies, expectEnded, isFinal, jobRow, sendCopies, sleep, startWithBootId, waitFinal, setUpJobsDatabase } from './jobs-processes-setup';
import { signInHttp, type ServerProcess } from './processes';

const sourceDocs = setUpJobsDatabase('two-src-');

describe('copy jobs on real server processes sharing PostgreSQL', () => {
  it('two processes on one PostgreSQL: exactly one works the job; killed, the other takes it up after the lease and finishes it', async () => {
    const docs = sourceDocs();
    const key = 'two-processes-copy';
    const [a, bootA] = await startWithBootId();
    const [b, bootB] = await startWithBootId();
    const byBoot = new Map([
      [bootA, a],
      [bootB, b],
    ]);
    const token = await signInHttp(a.base, 'user');
    let jobId: number | undefined;
    const holders = new Set<string>();
    let worker: ServerProcess | undefined;
    let killed: { at: number; progress: number } | undefined;
    // Watch who holds the job while both run; kill the holder once it has handled a quarter.
    const watcher = background(async () => {
      while (jobId === undefined) await sleep(10);
      for (;;) {
        const row = await jobRow(jobId);
        if (row.locked_by) holders.add(row.locked_by);
        if (isFinal(row.state)) throw new Error(`the job ended before its process could be killed: ${JSON.stringify(row)}`);
        if (row.locked_by && row.progress >= KILL_AFTER && row.progress < row.total) {
          worker = byBoot.get(row.locked_by);
          if (!worker) throw new Error(`the job is held by ${row.locked_by}, neither of the two processes`);
          await worker.kill('SIGKILL');
          killed = { at: Date.now(), progress: row.progress };
          return;
        }
        await sleep(20);
      }
    });
    // The group's calls arrive through both processes, in turn.
    const sent = await sendCopies([a.base, b.base], token, docs, key, DOCS, (id) => (jobId = id));
    const watchError = await watcher;
    if (watchError) throw watchError;
    const id = jobId as number;
    // Exactly one process held the job while both ran.
    expect([...holders], 'the processes that held the job while both ran').toHaveLength(1);
    const survivor = worker === a ? b : a;
    const survivorBoot = survivor === a ? bootA : bootB;
    // The dead process's lease as its last transaction or heartbeat left it.
    const leaseUntil = (await jobRow(id)).lease_until;
    expect(leaseUntil, 'the held job has a lease').not.toBeNull();

    // The other process takes the job up once the dead one's lease has lapsed (watched while the
    // calls the dead one never answered are sent again, to the survivor).
    let takenAfterMs: number | undefined;
    let takenAt = 0;
    const takeover = background(async () => {
      const until = Date.now() + 60_000;
      for (;;) {
        const row = await jobRow(id);
        if (row.locked_by === survivorBoot) {
          takenAt = Date.now();
          takenAfterMs = takenAt - (killed?.at ?? 0);
          return;
        }
        if (row.locked_by && !byBoot.has(row.locked_by)) throw new Error(`taken by an unknown process ${row.locked_by}`);
        if (isFinal(row.state)) throw new Error(`the job ended without the survivor holding it: ${JSON.stringify(row)}`);
        if (Date.now() > until) throw new Error('the other process never took the job up');
        await sleep(20);
      }
    });
    const rest = docs.filter((d) => !sent.answered.has(d.id));
    if (rest.length) {
      const again = await sendCopies([survivor.base], token, rest, key, DOCS);
      expect(again.answered.size).toBe(rest.length);
    }
    const takeoverError = await takeover;
    if (takeoverError) throw takeoverError;
    const job = await waitFinal(survivor.base, token, id, 90_000);
    console.log(
      `two processes: SIGKILL of the worker at ${killed?.progress}/${DOCS}; the other took the job up ${takenAfterMs} ms later (lease ${LEASE_SECONDS} s); ` +
        `${job.State}, ${job.Succeeded} succeeded, ${job.Failed} failed`,
    );
    // Not before the dead process's lease had lapsed (server and test share this machine's clock).
    expect(takenAt).toBeGreaterThanOrEqual(new Date(leaseUntil as Date).getTime());
    expectEnded(job, key);
    await checkCopies(docs, job);
    await survivor.kill();
  }, 300_000);
});
