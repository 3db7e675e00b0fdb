// Needs PostgreSQL's server binaries (initdb, pg_ctl; Debian: apt-get install -y postgresql, which .ci/run does): without them this test FAILS, by design.
/** A copy job of 2,000 documents whose server is killed with SIGKILL mid-job (jobs-processes-setup.ts says how). */
import { describe, expect, it } from 'vitest';
import { DOCS, type JobAnswer, KILL_EARLY, background, checkCopies, expectEnded, isFinal, jobProgress, jobRow, sendCopies, sleep, start, waitFinal, setUpJobsDatabase } from './jobs-processes-setup';
import { signInHttp } from './processes';

const sourceDocs = setUpJobsDatabase('kill-src-');

describe('copy jobs on real server processes sharing PostgreSQL', () => {
  it('a copy of 2,000 documents survives a SIGKILL of its server mid-job: restarted, the job ends and each document is copied once, whole', async () => {
    const docs = sourceDocs();
    const key = 'kill-mid-job-copy';
    const first = await start();
    let token = await signInHttp(first.base, 'user');
    let jobId: number | undefined;
    let killedAt: JobAnswer | undefined;
    // The kill: once the job has handled some documents, while the calls are still arriving.
    const watcher = background(async () => {
      while (jobId === undefined) await sleep(10);
      for (;;) {
        const job = await jobProgress(first.base, token, jobId);
        if (job.Processed >= KILL_EARLY && job.Processed < job.Count) {
          await first.kill('SIGKILL');
          killedAt = job;
          return;
        }
        if (isFinal(job.State)) throw new Error(`the job ended before it could be killed: ${JSON.stringify(job)}`);
        await sleep(20);
      }
    });
    const sent = await sendCopies([first.base], token, docs, key, DOCS, (id) => (jobId = id));
    const watchError = await watcher;
    if (watchError) throw watchError;
    expect(killedAt, 'the server was killed mid-job').toBeDefined();
    const id = jobId as number;
    const atKill = await jobRow(id);
    expect(atKill.progress, 'documents handled when the process died').toBeLessThan(DOCS);

    // Started again on the same database (and files): the calls the dead server never answered are
    // sent again, with the same Job key, as the app's outbox does.
    const t0 = Date.now();
    const second = await start();
    token = await signInHttp(second.base, 'user');
    const rest = docs.filter((d) => !sent.answered.has(d.id));
    if (rest.length) {
      const again = await sendCopies([second.base], token, rest, key, DOCS);
      expect(again.answered.size).toBe(rest.length);
      expect(again.jobId).toBe(id);
    }
    const job = await waitFinal(second.base, token, id, 90_000);
    console.log(
      `SIGKILL at ${atKill.progress}/${DOCS} handled, ${sent.answered.size} calls answered; restarted, ${rest.length} calls sent again; ` +
        `the job ended ${job.State} (${job.Succeeded} succeeded, ${job.Failed} failed) ${Date.now() - t0} ms after the restart`,
    );
    expectEnded(job, key);
    await checkCopies(docs, job);
    await second.kill();
  }, 300_000);
});
