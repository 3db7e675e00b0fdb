/**
 * The job runner (server/jobs/runner.ts) driven by hand: the server takes the calls but runs no
 * runner of its own (jobs.run false), so each test decides when which "process" works.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentOperationAccepted, documentPaths } from '../../src/api/documents';
import { JOB_REASON_KEYS, Job, jobPaths } from '../../src/api/jobs';
import type { Store } from '../../server/db/store';
import { JobRunner } from '../../server/jobs/runner';
import { JOB_KEEP_MS, purgeJobs } from '../../server/services/jobs';
import { FULL_RIGHTS, SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
const LEASE_MS = 15_000;
let s: TestServer;
let token = '';
type Doc = PoolDoc;
let take: (n: number) => Doc[];

beforeAll(async () => {
  s = await startServer({ seed: { docs: 120 }, jobs: { run: false } });
  token = await signIn(s, 'user');
  take = (await documentPool(s, A.invoices)).take;
});
afterAll(async () => {
  await s?.close();
});

const runner = (bootId: string, store: Store = s.store) => new JobRunner({ store, now: () => s.clock.t, bootId, leaseMs: LEASE_MS });

/** Sends a copy group of `docs` to `dest`; returns the job id. */
async function copyGroup(docs: Doc[], dest: number = A.paidInvoices): Promise<number> {
  const key = randomUUID();
  let id = 0;
  for (const d of docs) {
    const r = await s.app.inject({
      method: 'GET',
      url: `${documentPaths.operation(1, d.archive_id, d.id, 'Copy')}?token=${token}&SecureId=${d.secure_hash}&Job=${key}&Count=${docs.length}&DestinationArchive=${dest}`,
    });
    expect(r.statusCode).toBe(200);
    id = DocumentOperationAccepted.parse(r.json()).JobId;
  }
  return id;
}
const job = async (id: number) => Job.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${token}&Results=true` })).json());
/** How many copies of each source document exist (by their 'copied' history entry). */
async function copiesOf(docs: Doc[]): Promise<number[]> {
  const out: number[] = [];
  for (const d of docs) {
    const r = await s.store.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_entries WHERE old_doc_id = $1 AND category = 'copied'", [d.id]);
    out.push(r.rows[0]!.n);
  }
  return out;
}

describe('job runner', () => {
  it('a process that dies mid-job leaves no half-copied document; after its lease lapses another process finishes the job, each document once', async () => {
    const docs = take(8);
    const id = await copyGroup(docs);
    const before = (await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE archive_id = $1', [A.paidInvoices])).rows[0]!.n;

    // Process A is killed while its fourth document's transaction is open: the commit never happens.
    const dying: Store = {
      ...s.store,
      transaction: (fn) =>
        s.store.transaction(async (tx) => {
          const out = await fn(tx);
          const done = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM job_items WHERE job_id = $1 AND state = 'done'", [id]);
          if (done.rows[0]!.n === 4) throw new Error('SIGKILL');
          return out;
        }),
    };
    await expect(runner('process-a', dying).runOnce()).rejects.toThrow('SIGKILL');
    const half = await job(id);
    expect(half).toMatchObject({ State: 'running', Succeeded: 3, Processed: 3 });
    expect(await copiesOf(docs)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    expect((await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE archive_id = $1', [A.paidInvoices])).rows[0]!.n).toBe(before + 3);
    // No files or pages rows of a copy that was rolled back.
    const orphans = await s.store.query('SELECT 1 FROM document_files f LEFT JOIN documents d ON d.id = f.document_id WHERE d.id IS NULL');
    expect(orphans.rowCount).toBe(0);

    // Process B: A's lease still holds, so B leaves the job alone...
    const b = runner('process-b');
    expect(await b.runOnce()).toBe(0);
    // ...until it lapses.
    s.clock.advance(LEASE_MS + 1);
    expect(await b.runOnce()).toBe(5);
    const done = await job(id);
    expect(done).toMatchObject({ State: 'done', Count: 8, Succeeded: 8, Failed: 0 });
    expect(await copiesOf(docs)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(new Set(done.Results?.map((r) => r.NewDocID)).size).toBe(8);
    // Without ?Results=true (what the tray polls) the answer leaves the handled documents out.
    const plain = Job.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${token}` })).json());
    expect(plain).toMatchObject({ Succeeded: 8, Failures: [] });
    expect(plain.Results).toBeUndefined();
    expect((await s.store.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE archive_id = $1', [A.paidInvoices])).rows[0]!.n).toBe(before + 8);
    // Every copy has its files and pages.
    const incomplete = await s.store.query(
      `SELECT d.id FROM documents d WHERE d.id IN (SELECT new_document_id FROM job_items WHERE job_id = $1)
          AND (NOT EXISTS (SELECT 1 FROM document_files f WHERE f.document_id = d.id) OR NOT EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = d.id))`,
      [id],
    );
    expect(incomplete.rowCount).toBe(0);
  });

  it('a process stopped mid-job (the lease kept) hands the job over once the lease lapses', async () => {
    const docs = take(4);
    const id = await copyGroup(docs);
    expect(await runner('process-c').runOnce({ maxItems: 1 })).toBe(1);
    const d = runner('process-d');
    expect(await d.runOnce()).toBe(0);
    s.clock.advance(LEASE_MS + 1);
    expect(await d.runOnce()).toBe(3);
    expect(await job(id)).toMatchObject({ State: 'done', Succeeded: 4 });
    expect(await copiesOf(docs)).toEqual([1, 1, 1, 1]);
  });

  it('cancel stops the job before its next document; the rest stay untouched', async () => {
    const docs = take(5);
    const id = await copyGroup(docs);
    const r = runner('process-e');
    expect(await r.runOnce({ maxItems: 2 })).toBe(2);
    const cancelled = await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(id)}?token=${token}` });
    expect(Job.parse(cancelled.json())).toMatchObject({ State: 'cancelled', Succeeded: 2, Count: 5 });
    // The runner that held it finds it cancelled; no one claims it again.
    expect(await r.runOnce()).toBe(0);
    s.clock.advance(LEASE_MS + 1);
    expect(await runner('process-f').runOnce()).toBe(0);
    expect(await copiesOf(docs)).toEqual([1, 1, 0, 0, 0]);
    expect(await job(id)).toMatchObject({ State: 'cancelled', Succeeded: 2, Failed: 0, Processed: 2 });
    // Cancelling again answers the job as it is.
    const again = await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(id)}?token=${token}` });
    expect(Job.parse(again.json()).State).toBe('cancelled');
  });

  it('fails the job as a whole when its destination archive is gone', async () => {
    const docs = take(2);
    const created = await s.store.query<{ id: number }>("INSERT INTO archives (database_id, name) VALUES (1, 'Short-lived') RETURNING id");
    const dest = created.rows[0]!.id;
    await s.store.query('INSERT INTO archive_permissions (archive_id, user_id, rights) VALUES ($1, $2, $3)', [dest, SEED_IDS.user.user, FULL_RIGHTS]);
    const id = await copyGroup(docs, dest);
    await s.store.query('DELETE FROM archives WHERE id = $1', [dest]);
    await runner('process-g').runOnce();
    const j = await job(id);
    expect(j).toMatchObject({ State: 'failed', Succeeded: 0, Failed: 2, Reason: `The destination archive ${dest} no longer exists` });
    expect(j.Failures?.map((f) => f.Message)).toEqual(docs.map((d) => `DocID ${d.id}: The destination archive ${dest} no longer exists`));
    expect(j.Failures?.map((f) => f.ReasonWords)).toEqual(docs.map(() => ({ Key: JOB_REASON_KEYS.destinationGone, Params: { archive: dest } })));
    expect(await copiesOf(docs)).toEqual([0, 0]);
  });

  it('two processes working at once take different jobs (SKIP LOCKED) and handle each document once', async () => {
    const first = take(4);
    const second = take(4);
    const ids = [await copyGroup(first), await copyGroup(second)];
    const [x, y] = [runner('process-x'), runner('process-y')];
    const worked = await Promise.all([x.runOnce(), y.runOnce()]);
    expect(worked).toEqual([4, 4]);
    for (const id of ids) expect(await job(id)).toMatchObject({ State: 'done', Succeeded: 4, Failed: 0 });
    expect(await copiesOf([...first, ...second])).toEqual(Array(8).fill(1));
    expect(await x.runOnce()).toBe(0);
  });

  it('keeps a group whose calls are still arriving with the process that started it', async () => {
    const docs = take(4);
    const key = randomUUID();
    const send = async (d: Doc) => {
      const r = await s.app.inject({
        method: 'GET',
        url: `${documentPaths.operation(1, d.archive_id, d.id, 'Copy')}?token=${token}&SecureId=${d.secure_hash}&Job=${key}&Count=4&DestinationArchive=${A.paidInvoices}`,
      });
      return DocumentOperationAccepted.parse(r.json()).JobId;
    };
    await send(docs[0]!);
    const id = await send(docs[1]!);
    const [x, y] = [runner('process-k'), runner('process-l')];
    expect(await x.runOnce()).toBe(2);
    await send(docs[2]!);
    await send(docs[3]!);
    expect(await y.runOnce()).toBe(0);
    expect(await x.runOnce()).toBe(2);
    expect(await job(id)).toMatchObject({ State: 'done', Succeeded: 4 });
    expect((await s.store.query<{ attempts: number }>('SELECT attempts FROM jobs WHERE id = $1', [id])).rows[0]).toEqual({ attempts: 1 });
  });

  it('works a job started in its own process at once (woken) and stops cleanly', async () => {
    const docs = take(3);
    const r = runner('process-h');
    r.start();
    const id = await copyGroup(docs);
    r.wake();
    await r.whenIdle();
    expect(await job(id)).toMatchObject({ State: 'done', Succeeded: 3 });
    await r.stop();
    const held = await s.store.query("SELECT 1 FROM jobs WHERE locked_by = 'process-h'");
    expect(held.rowCount).toBe(0);
  });

  // Last: it moves the clock 30 days on, past every licence.
  it('forgets ended jobs after 30 days, never one still running', async () => {
    const ended = await copyGroup(take(1));
    expect(await runner('process-p').runOnce()).toBe(1);
    expect((await job(ended)).State).toBe('done');
    const open = await s.store.query<{ id: number }>("INSERT INTO jobs (kind, state, total, owner_id, database_id, created_at, updated_at) VALUES ('copy', 'running', 2, $1, 1, $2, $2) RETURNING id", [SEED_IDS.user.user, new Date(s.clock.t)]);
    s.clock.advance(JOB_KEEP_MS + 1);
    expect(await purgeJobs(s.store, s.clock.t)).toBeGreaterThanOrEqual(1);
    const left = (await s.store.query<{ id: number }>('SELECT id FROM jobs WHERE id IN ($1, $2)', [ended, open.rows[0]!.id])).rows.map((r) => Number(r.id));
    expect(left).toEqual([Number(open.rows[0]!.id)]);
  });
});
