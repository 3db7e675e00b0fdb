/**
 * The job runner: works the `jobs` table (services/jobs.ts), in every server process, on PGlite and
 * on PostgreSQL alike.
 *
 * - Claim: the oldest job with pending items that no live process holds, with SELECT ... FOR UPDATE
 *   SKIP LOCKED (two processes never take the same job); the claimer writes its boot id (locked_by)
 *   and a lease (lease_until), which its heartbeat extends every third of the lease. It keeps the job
 *   while the group's calls are still arriving, so one process works a job from start to end; stop()
 *   lets go of it. A process that dies stops extending the lease: once it has lapsed, any process
 *   claims the job again. On PGlite only one process ever opens the data folder, so a starting
 *   server frees every job at once (app.ts).
 * - Work: one transaction per document: the job row is locked, still ours and not cancelled; the
 *   operation is checked again (rights and the document may have changed since the call) and done
 *   (services/documents.ts), and the item's state and the job's counters are written, all or
 *   nothing. So a crash leaves no half-copied document and no double count, and an item that is done
 *   is never done again. A refusal, or the database refusing one document's data, fails that item (its reason
 *   kept) and the job goes on; a job whose destination archive or owner is gone fails as a whole.
 * - Cancel (DELETE api/jobs/{id}) sets the state; the next item's transaction sees it and stops.
 * - Idle: polls every pollMs (slower after a while), and is woken at once by wake() when a call adds
 *   work in this process. stop() lets the current document finish, then lets go of the job.
 * - Export jobs (kind 'export') are claimed the same way and worked by services/export.ts: they only
 *   read documents and write one file, so they batch their progress and start again from scratch
 *   after a crash instead of going document by document in transactions.
 * - Bulk update jobs (kind 'bulk-update') go document by document like copy/move/delete: each item's
 *   change is services/bulk-update.ts workBulkUpdateItem, in the item's transaction.
 * - Import jobs (kind 'import') go row by row the same way: each row's new document is
 *   services/import.ts workImportItem (its file's pages read through the exports' file store).
 * - Content-search rebuilds (kind 'index-rebuild', from the console) go document by document:
 *   services/admin-archives.ts reindexDocument.
 */
import { randomUUID } from 'node:crypto';
import { BULK_UPDATE_JOB_KIND } from '../../src/api/bulk-update.js';
import { INDEX_REBUILD_JOB_KIND } from '../../src/api/admin-archives.js';
import { IMPORT_JOB_KIND } from '../../src/api/import.js';
import { EXPORT_JOB_KIND, JOB_REASON_KEYS, type JobReasonWords } from '../../src/api/jobs.js';
import { DbError, type Queryable, type Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError } from '../http/errors.js';
import { applyOperation, checkOperation, operationArchives, type Actor } from '../services/documents.js';
import { reindexDocument } from '../services/admin-archives.js';
import { workBulkUpdateItem, type Refusal } from '../services/bulk-update.js';
import { workImportItem } from '../services/import.js';
import { workExport } from '../services/export.js';
import { claimJob, extendLeases, failJob, lockJob, nextPendingItems, operationRefusal, releaseJobs, updateCounts, type JobItemRow, type JobRow } from '../services/jobs.js';

export const DEFAULT_JOB_LEASE_MS = 15_000;
export const DEFAULT_JOB_POLL_MS = 250;
/** Idle polls at pollMs before polling less often (another process's new job waits at most this). */
const FAST_IDLE_POLLS = 20;
const SLOW_POLL_MS = 1_000;
/** Errors worth trying the whole transaction again for (serialization failure, deadlock). */
const RETRY_CODES = new Set(['40001', '40P01']);

export interface JobRunnerOptions {
  store: Store;
  now?: () => number;
  /** The process's boot id (locked_by); new at every start. */
  bootId?: string;
  leaseMs?: number;
  pollMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** Where export jobs read document files and write their results; without it this runner fails export jobs. */
  exports?: { files: FileStore; dir: string };
}

type ItemOutcome = 'done' | 'lost' | 'ended' | 'skipped';

export class JobRunner {
  readonly bootId: string;
  readonly leaseMs: number;
  private readonly store: Store;
  private readonly now: () => number;
  private readonly pollMs: number;
  private readonly log: (msg: string, err?: unknown) => void;
  private readonly exports: JobRunnerOptions['exports'];
  private stopping = false;
  private loop: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private woken = false;
  private wakeSleep: (() => void) | undefined;
  private claims = 0;
  private idleWaiters: { after: number; resolve: () => void }[] = [];

  constructor(opts: JobRunnerOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
    this.bootId = opts.bootId ?? randomUUID();
    this.leaseMs = opts.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.pollMs = opts.pollMs ?? DEFAULT_JOB_POLL_MS;
    this.log = opts.log ?? (() => undefined);
    this.exports = opts.exports;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    const beatMs = Math.max(50, Math.floor(this.leaseMs / 3));
    this.heartbeat = setInterval(() => void extendLeases(this.store, this.bootId, new Date(this.now()), this.leaseMs).catch(() => undefined), beatMs);
    this.heartbeat.unref();
    this.loop = this.run();
  }

  /** Work was added in this process: look at once instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeSleep?.();
  }

  /** Resolves once the runner has looked for work after this call and found none (tests, bench). */
  whenIdle(): Promise<void> {
    const after = this.claims;
    const p = new Promise<void>((resolve) => this.idleWaiters.push({ after, resolve }));
    this.wake();
    return p;
  }

  /** Finishes the current document, lets go of this process's jobs, and stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    clearInterval(this.heartbeat);
    await this.loop;
    this.loop = undefined;
    await releaseJobs(this.store, this.bootId).catch(() => undefined);
    for (const w of this.idleWaiters.splice(0)) w.resolve();
  }

  private async run(): Promise<void> {
    let idle = 0;
    while (!this.stopping) {
      const claim = ++this.claims;
      let worked = 0;
      try {
        worked = await this.runOnce();
      } catch (e) {
        this.log('job runner: a pass failed', e);
      }
      if (this.stopping) break;
      if (worked > 0) {
        idle = 0;
        continue;
      }
      for (const w of this.idleWaiters.filter((x) => x.after < claim)) w.resolve();
      this.idleWaiters = this.idleWaiters.filter((x) => x.after >= claim);
      idle++;
      await this.sleep(idle < FAST_IDLE_POLLS ? this.pollMs : Math.max(this.pollMs, SLOW_POLL_MS));
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      // An idle runner alone does not keep the process alive (the server's socket does).
      t.unref();
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeSleep = () => {
        this.woken = false;
        this.wakeSleep = undefined;
        done();
      };
    });
  }

  /**
   * Claims one job and works its pending items; returns how many it handled. With maxItems it stops
   * after that many WITHOUT letting go of the job, as a process that dies would (tests of the lease).
   */
  async runOnce(opts: { maxItems?: number } = {}): Promise<number> {
    const job = await claimJob(this.store, this.bootId, new Date(this.now()), this.leaseMs);
    if (!job) return 0;
    const owner = await this.store.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id = $1', [job.owner_id]);
    const actor: Actor | null = owner.rows[0] ? { userId: owner.rows[0].id, userName: owner.rows[0].name } : null;
    if (job.kind === EXPORT_JOB_KIND) return this.runExport(job, actor, opts);
    let n = 0;
    let batch: JobItemRow[] = [];
    for (;;) {
      if (opts.maxItems !== undefined && n >= opts.maxItems) return n;
      if (this.stopping) {
        await releaseJobs(this.store, this.bootId, job.id);
        return n;
      }
      if (!batch.length) batch = await nextPendingItems(this.store, job.id);
      const item = batch.shift();
      if (!item) {
        // Every item received so far is handled; the rest of the group may still come. The job stays
        // this process's (its heartbeat keeps the lease) so that one process works a group from start
        // to end; the runner is free meanwhile, and claims it again (its own) when more arrive.
        return n;
      }
      const outcome = await this.workItem(job.id, item, actor);
      if (outcome === 'done') n++;
      if (outcome === 'lost' || outcome === 'ended') return Math.max(n, 1);
    }
  }

  private async runExport(job: JobRow, actor: Actor | null, opts: { maxItems?: number }): Promise<number> {
    const exports = this.exports;
    if (!exports) {
      await this.store.transaction(async (tx) => {
        const j = await lockJob(tx, job.id);
        if (j && j.state === 'running' && j.locked_by === this.bootId) await failJob(tx, j, 'This server process cannot export (no exports folder)', undefined, new Date(this.now()));
      });
      return 1;
    }
    const ctx = { store: this.store, files: exports.files, dir: exports.dir, now: this.now, bootId: this.bootId, leaseMs: this.leaseMs, stopping: () => this.stopping, log: this.log };
    return workExport(ctx, job, actor, opts);
  }

  private async workItem(jobId: number, item: JobItemRow, actor: Actor | null): Promise<ItemOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.workItemOnce(jobId, item, actor);
      } catch (e) {
        const code = e instanceof DbError ? (e.code ?? '') : '';
        if (RETRY_CODES.has(code) && attempt < 3) continue;
        // The database refused this document's data (class 22 data exception, 23 integrity): its
        // transaction was rolled back; recorded as its failure, so the job does not retry it forever.
        // Anything else (connection lost, the database stopping) is not the document's fault: the
        // pass ends and the document is tried again.
        if (!/^2[23]/.test(code)) throw e;
        this.log(`job ${jobId}: document ${item.document_id} failed`, e);
        return this.failItem(jobId, item, 'The server could not handle this document', { Key: JOB_REASON_KEYS.serverFailed });
      }
    }
  }

  /** One document: its change, its item's state and the job's counters, in one transaction. */
  private workItemOnce(jobId: number, item: JobItemRow, actor: Actor | null): Promise<ItemOutcome> {
    return this.store.transaction(async (tx) => {
      const now = new Date(this.now());
      const job = await lockJob(tx, jobId);
      // Cancelled, ended, or taken over by another process after our lease lapsed.
      if (!job || job.state !== 'running' || job.locked_by !== this.bootId || job.kind === EXPORT_JOB_KIND) return 'lost';
      if (!actor || job.database_id === null) {
        await failJob(tx, job, 'The user who started the job no longer exists', 'ERROR_NOT_FOUND', now, { Key: JOB_REASON_KEYS.ownerGone });
        return 'ended';
      }
      // A bulk update changes the document's index values in this same transaction (services/bulk-update.ts).
      if (job.kind === BULK_UPDATE_JOB_KIND) {
        const refused = await workBulkUpdateItem(tx, job, item, actor, now);
        if (refused) return this.recordFailure(tx, job, item, refused, now);
        return this.recordDone(tx, job, item, null, null, now);
      }
      // An import writes its row's new document in this same transaction (services/import.ts).
      if (job.kind === IMPORT_JOB_KIND) {
        const out = await workImportItem(tx, job, item, actor, now, this.exports?.files);
        if ('refusal' in out) return this.recordFailure(tx, job, item, out.refusal, now);
        return this.recordDone(tx, job, item, out.docId, item.archive_id, now);
      }
      // A content-search rebuild (services/admin-archives.ts) makes the document's searchable text again.
      if (job.kind === INDEX_REBUILD_JOB_KIND) {
        await reindexDocument(tx, item.archive_id, Number(item.document_id));
        return this.recordDone(tx, job, item, null, null, now);
      }
      const archives = await operationArchives(tx, job.database_id, actor.userId, item.archive_id, job.destination_archive_id);
      if (job.destination_archive_id !== null && !archives.has(job.destination_archive_id)) {
        await failJob(tx, job, `The destination archive ${job.destination_archive_id} no longer exists`, 'ERROR_NOT_FOUND', now, {
          Key: JOB_REASON_KEYS.destinationGone,
          Params: { archive: job.destination_archive_id },
        });
        return 'ended';
      }
      const target = { dbId: job.database_id, archiveId: item.archive_id, docId: Number(item.document_id), op: job.kind, destinationArchiveId: job.destination_archive_id };
      let checked;
      try {
        checked = await checkOperation(tx, actor, target, true, archives);
      } catch (e) {
        // Refused now (rights changed, the document was deleted or checked out since the call).
        if (!(e instanceof ApiError)) throw e;
        return this.recordFailure(tx, job, item, operationRefusal(e), now);
      }
      const out = await applyOperation(tx, job.kind, checked, actor, now, job.database_id, { JobId: job.id });
      return this.recordDone(tx, job, item, out.newDocumentId ?? null, out.newArchiveId ?? null, now);
    });
  }

  private async recordDone(tx: Queryable, job: JobRow, item: JobItemRow, newDocumentId: number | null, newArchiveId: number | null, now: Date): Promise<ItemOutcome> {
    const u = await tx.query(
      `UPDATE job_items SET state = 'done', new_document_id = $3, new_archive_id = $4, handled_at = $5 WHERE job_id = $1 AND position = $2 AND state = 'pending'`,
      [job.id, item.position, newDocumentId, newArchiveId, now],
    );
    // Handled already (cannot happen while we hold the job): undo this document's change.
    if (u.rowCount === 0) throw new DbError('job item handled twice', '40001');
    await updateCounts(tx, job, { succeeded: 1 }, now, { leaseUntil: new Date(now.getTime() + this.leaseMs) });
    return 'done';
  }

  private async recordFailure(tx: Queryable, job: JobRow, item: JobItemRow, refusal: Refusal, now: Date): Promise<ItemOutcome> {
    const u = await tx.query(
      `UPDATE job_items SET state = 'failed', reason = $3, reason_key = $4, reason_words = $6::jsonb, handled_at = $5 WHERE job_id = $1 AND position = $2 AND state = 'pending'`,
      [job.id, item.position, refusal.reason, refusal.key ?? null, now, refusal.words ? JSON.stringify(refusal.words) : null],
    );
    if (u.rowCount === 0) return 'skipped';
    await updateCounts(tx, job, { failed: 1 }, now, { leaseUntil: new Date(now.getTime() + this.leaseMs) });
    return 'done';
  }

  private failItem(jobId: number, item: JobItemRow, reason: string, words: JobReasonWords): Promise<ItemOutcome> {
    return this.store.transaction(async (tx) => {
      const job = await lockJob(tx, jobId);
      if (!job || job.state !== 'running' || job.locked_by !== this.bootId) return 'lost';
      return this.recordFailure(tx, job, item, { reason, words }, new Date(this.now()));
    });
  }
}
