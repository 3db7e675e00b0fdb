/**
 * Server jobs (src/api/jobs.ts): the SQL behind the job calls, the group calls of copy/move/delete
 * (routes/document-operations.ts) and the runner (jobs/runner.ts). Tables: jobs and job_items
 * (migrations 001 and 010).
 *
 * Counters: total is the group's Count, received the items added so far, succeeded and failed the
 * items handled; progress = succeeded + failed. They change only together with an item's state, in
 * the same transaction and under the job row's lock, so they always add up. A job ends when every
 * one of its Count documents is handled: done, or failed when nothing succeeded and something failed.
 */
import type { INDEX_REBUILD_JOB_KIND } from '../../src/api/admin-archives.js';
import type { BULK_UPDATE_JOB_KIND } from '../../src/api/bulk-update.js';
import { IMPORT_JOB_KIND, importFailureMessage } from '../../src/api/import.js';
import { jobFailureMessage, isFinalJobState, type JobReasonWords, type EXPORT_JOB_KIND, type Job, type JobFailure, type JobKind, type JobResult, type JobStateName, JOB_LIST_LIMIT } from '../../src/api/jobs.js';
import type { Queryable, Store } from '../db/store.js';
import { Errors, type ApiError } from '../http/errors.js';

/** Job note kind of copy/move/delete with counts (the user-app spec §3). */
export const COPY_MOVE_DELETE_NOTE = 5;

export interface JobRow {
  id: number;
  /** copy/move/delete groups, an export (services/export.ts) or a bulk update (services/bulk-update.ts). */
  kind: JobKind | typeof EXPORT_JOB_KIND | typeof BULK_UPDATE_JOB_KIND | typeof IMPORT_JOB_KIND | typeof INDEX_REBUILD_JOB_KIND;
  state: JobStateName;
  total: number;
  received: number;
  succeeded: number;
  failed: number;
  notes: unknown[];
  owner_id: number | null;
  database_id: number | null;
  key: string | null;
  archive_id: number | null;
  destination_archive_id: number | null;
  result: Record<string, unknown> | null;
  /** What the job was asked to do beyond the columns (an export's settings: services/export.ts). */
  payload: unknown;
  locked_by: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface JobItemRow {
  job_id: number;
  position: number;
  archive_id: number;
  document_id: number;
  state: 'pending' | 'done' | 'failed';
  reason: string | null;
  reason_key: string | null;
  /** The reason as a message key and its parts (migration 020); null for items failed before it. */
  reason_words?: JobReasonWords | null;
  new_document_id: number | null;
  new_archive_id: number | null;
  /** A bulk update item's new values (migration 013), when it has its own. */
  vals?: unknown;
}

const JOB_COLUMNS = `id, kind, state, total, received, succeeded, failed, notes, owner_id, database_id, key, archive_id, destination_archive_id,
  result, payload, locked_by, lease_until, created_at, updated_at, finished_at`;

/** int8 columns come back as numbers from both stores; the ids are normalised all the same. */
function jobRow(r: JobRow): JobRow {
  return { ...r, id: Number(r.id), total: Number(r.total), received: Number(r.received), succeeded: Number(r.succeeded), failed: Number(r.failed) };
}

export async function lockJob(tx: Queryable, id: number): Promise<JobRow | null> {
  const r = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 FOR UPDATE`, [id]);
  return r.rows[0] ? jobRow(r.rows[0]) : null;
}

export interface GroupSpec {
  ownerId: number;
  /** The client's group key; null: a job of its own. */
  key: string | null;
  kind: JobKind;
  dbId: number;
  archiveId: number;
  destinationArchiveId: number | null;
  /** The Count parameter, when the call gave one. */
  count: number | undefined;
  now: Date;
}

/**
 * The group's job, created by its first call (Count from that call, default 1), and locked for the
 * rest of the caller's transaction. A key used before for another operation or destination, or a
 * different Count, is refused (400).
 */
export async function groupJob(tx: Queryable, g: GroupSpec): Promise<JobRow> {
  const notes = JSON.stringify([[COPY_MOVE_DELETE_NOTE, { Action: g.kind, Count: g.count ?? 1, Succeeded: 0, Failed: 0 }]]);
  if (g.key !== null) {
    const lockByKey = () => tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE owner_id = $1 AND key = $2 FOR UPDATE`, [g.ownerId, g.key]);
    // Every call but the group's first finds the job; two first calls at once: one inserts, the
    // other waits on the unique (owner_id, key), inserts nothing and then finds it.
    let r = await lockByKey();
    if (r.rows[0]) return checkGroup(jobRow(r.rows[0]), g);
    await tx.query(
      `INSERT INTO jobs (kind, state, total, owner_id, database_id, key, archive_id, destination_archive_id, notes, created_at, updated_at)
       VALUES ($1, 'queued', $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $9)
       ON CONFLICT (owner_id, key) WHERE key IS NOT NULL DO NOTHING`,
      [g.kind, g.count ?? 1, g.ownerId, g.dbId, g.key, g.archiveId, g.destinationArchiveId, notes, g.now],
    );
    r = await lockByKey();
    return checkGroup(jobRow(r.rows[0]!), g);
  }
  const r = await tx.query<JobRow>(
    `INSERT INTO jobs (kind, state, total, owner_id, database_id, key, archive_id, destination_archive_id, notes, created_at, updated_at)
     VALUES ($1, 'queued', 1, $2, $3, NULL, $4, $5, $6::jsonb, $7, $7) RETURNING ${JOB_COLUMNS}`,
    [g.kind, g.ownerId, g.dbId, g.archiveId, g.destinationArchiveId, notes, g.now],
  );
  return jobRow(r.rows[0]!);
}

/** A call of a group must be the group's operation, to its destination, with its Count. */
function checkGroup(job: JobRow, g: GroupSpec): JobRow {
  if (job.kind !== g.kind || job.database_id !== g.dbId || (job.destination_archive_id ?? null) !== (g.destinationArchiveId ?? null)) {
    throw Errors.badRequest('This Job key was used for another operation or destination');
  }
  if (g.count !== undefined && g.count !== job.total) throw Errors.badRequest(`Count ${g.count} differs from the job's Count ${job.total}`);
  return job;
}

/** A copy/move/delete refusal as a job records it: its text, key and words (checkOperation gives them). */
export const operationRefusal = (e: ApiError): { reason: string; key?: string; words?: JobReasonWords } => ({
  reason: e.message,
  ...(e.key ? { key: e.key } : {}),
  ...(e.words ? { words: e.words } : {}),
});

export interface AddedItem {
  job: JobRow;
  /** False when the document was in the job already (a repeated call) or the job has ended. */
  added: boolean;
  item: JobItemRow | null;
}

/**
 * Adds one document to a locked job: pending (the runner does it), or failed with its reason (a
 * refusal at the call). A document already in the job adds nothing; a job that has ended (cancelled,
 * or failed as a whole) takes nothing more; one more document than Count is refused (400).
 */
export async function addItem(
  tx: Queryable,
  job: JobRow,
  it: { archiveId: number; docId: number; failure?: { reason: string; key?: string; words?: JobReasonWords } },
  now: Date,
): Promise<AddedItem> {
  const existing = await tx.query<JobItemRow>('SELECT * FROM job_items WHERE job_id = $1 AND archive_id = $2 AND document_id = $3', [job.id, it.archiveId, it.docId]);
  if (existing.rows[0]) return { job, added: false, item: existing.rows[0] };
  if (job.received >= job.total) throw Errors.badRequest(`The job already has its ${job.total} documents`);
  if (isFinalJobState(job.state)) return { job, added: false, item: null };
  const state = it.failure ? 'failed' : 'pending';
  const ins = await tx.query<JobItemRow>(
    `INSERT INTO job_items (job_id, position, archive_id, document_id, state, reason, reason_key, handled_at, reason_words)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) RETURNING *`,
    [job.id, job.received, it.archiveId, it.docId, state, it.failure?.reason ?? null, it.failure?.key ?? null, it.failure ? now : null, it.failure?.words ? JSON.stringify(it.failure.words) : null],
  );
  const next = await updateCounts(tx, { ...job, received: job.received + 1 }, { failed: it.failure ? 1 : 0 }, now);
  return { job: next, added: true, item: ins.rows[0]! };
}

/**
 * Writes a locked job's counters after `delta` more items were handled (and received, already in
 * `job`), its note, and its final state once every one of its documents is handled.
 */
export async function updateCounts(tx: Queryable, job: JobRow, delta: { succeeded?: number; failed?: number }, now: Date, extra: { leaseUntil?: Date } = {}): Promise<JobRow> {
  const succeeded = job.succeeded + (delta.succeeded ?? 0);
  const failed = job.failed + (delta.failed ?? 0);
  let state = job.state;
  let finished = job.finished_at;
  if (!isFinalJobState(state) && succeeded + failed >= job.total) {
    state = succeeded === 0 && failed > 0 ? 'failed' : 'done';
    finished = now;
  }
  const final = isFinalJobState(state);
  const notes = [[COPY_MOVE_DELETE_NOTE, { Action: job.kind, Count: job.total, Succeeded: succeeded, Failed: failed }]];
  const r = await tx.query<JobRow>(
    `UPDATE jobs SET received = $2::int, succeeded = $3::int, failed = $4::int, progress = $11::int, state = $5, finished_at = $6::timestamptz, notes = $7::jsonb,
            updated_at = $8::timestamptz,
            locked_by = CASE WHEN $9::boolean THEN NULL ELSE locked_by END,
            lease_until = CASE WHEN $9::boolean THEN NULL WHEN $10::timestamptz IS NOT NULL THEN $10::timestamptz ELSE lease_until END
      WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
    [job.id, job.received, succeeded, failed, state, finished, JSON.stringify(notes), now, final, extra.leaseUntil ?? null, succeeded + failed],
  );
  return jobRow(r.rows[0]!);
}

/** Ends a locked job as failed as a whole (e.g. its destination archive is gone): its pending items fail with the reason. */
export async function failJob(tx: Queryable, job: JobRow, reason: string, key: string | undefined, now: Date, words?: JobReasonWords): Promise<JobRow> {
  const r = await tx.query(
    `UPDATE job_items SET state = 'failed', reason = $2, reason_key = $3, reason_words = $5::jsonb, handled_at = $4 WHERE job_id = $1 AND state = 'pending'`,
    [job.id, reason, key ?? null, now, words ? JSON.stringify(words) : null],
  );
  const next = await updateCounts(tx, job, { failed: r.rowCount }, now);
  const u = await tx.query<JobRow>(
    `UPDATE jobs SET state = 'failed', finished_at = $2, locked_by = NULL, lease_until = NULL, result = $3::jsonb, updated_at = $2 WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
    [job.id, now, JSON.stringify({ Reason: reason, ...(key ? { Key: key } : {}) })],
  );
  return jobRow(u.rows[0] ?? next);
}

// ---- The runner's SQL ----

/**
 * Claims the oldest job with work to do that no live process holds (never locked, released, its
 * lease lapsed, or this process's own after a failed pass): FOR UPDATE SKIP LOCKED, so two processes never claim the same job.
 * An export that has not ended always has work to do, also when every item was handled: its file is
 * finished only at the end (a process that died after the last document starts it again).
 */
export async function claimJob(store: Store, bootId: string, now: Date, leaseMs: number): Promise<JobRow | null> {
  return store.transaction(async (tx) => {
    const r = await tx.query<{ id: number }>(
      `SELECT j.id FROM jobs j
        WHERE j.state IN ('queued', 'running') AND (j.locked_by IS NULL OR j.locked_by = $2 OR j.lease_until IS NULL OR j.lease_until < $1)
          AND (j.kind = 'export' OR EXISTS (SELECT 1 FROM job_items i WHERE i.job_id = j.id AND i.state = 'pending'))
        ORDER BY j.id LIMIT 1 FOR UPDATE OF j SKIP LOCKED`,
      [now, bootId],
    );
    const id = r.rows[0]?.id;
    if (id === undefined) return null;
    const u = await tx.query<JobRow>(
      `UPDATE jobs SET state = 'running', locked_by = $2, lease_until = $3, heartbeat_at = $4, updated_at = $4,
              attempts = attempts + CASE WHEN locked_by IS DISTINCT FROM $2 THEN 1 ELSE 0 END
        WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
      [id, bootId, new Date(now.getTime() + leaseMs), now],
    );
    return jobRow(u.rows[0]!);
  });
}

/** The next pending items of a job, in order (a batch: one query per hundred documents, not per document). */
export async function nextPendingItems(db: Queryable, jobId: number, limit = 100): Promise<JobItemRow[]> {
  const r = await db.query<JobItemRow>(`SELECT * FROM job_items WHERE job_id = $1 AND state = 'pending' ORDER BY position LIMIT $2`, [jobId, limit]);
  return r.rows.map((it) => ({ ...it, document_id: Number(it.document_id), job_id: Number(it.job_id) }));
}

/** Extends the leases of the jobs this process holds (the heartbeat). */
export async function extendLeases(db: Queryable, bootId: string, now: Date, leaseMs: number): Promise<void> {
  await db.query(`UPDATE jobs SET lease_until = $2, heartbeat_at = $3 WHERE locked_by = $1 AND state = 'running'`, [bootId, new Date(now.getTime() + leaseMs), now]);
}

/** Lets go of a job (or all of this process's): another process, or this one later, may take it. */
export async function releaseJobs(db: Queryable, bootId: string, jobId?: number): Promise<void> {
  if (jobId === undefined) await db.query(`UPDATE jobs SET locked_by = NULL, lease_until = NULL WHERE locked_by = $1 AND state IN ('queued', 'running')`, [bootId]);
  else await db.query(`UPDATE jobs SET locked_by = NULL, lease_until = NULL WHERE id = $1 AND locked_by = $2 AND state IN ('queued', 'running')`, [jobId, bootId]);
}

/** At the start of the only process that opens an embedded store: no other process can hold a job. */
export async function releaseAllJobs(db: Queryable): Promise<void> {
  await db.query(`UPDATE jobs SET locked_by = NULL, lease_until = NULL WHERE locked_by IS NOT NULL AND state IN ('queued', 'running')`);
}

/** Ended jobs are kept this long (the tray shows them; a group's late repeat still finds its job). */
export const JOB_KEEP_MS = 30 * 86_400_000;

export async function purgeJobs(db: Queryable, now: number): Promise<number> {
  const r = await db.query(`DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < $1`, [new Date(now - JOB_KEEP_MS)]);
  return r.rowCount;
}

// ---- The job calls ----

export async function listJobs(db: Queryable, ownerId: number): Promise<Job[]> {
  const r = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE owner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [ownerId, JOB_LIST_LIMIT]);
  return r.rows.map((j) => toWire(jobRow(j)));
}

/** The owner's job with its failures and results; null for an unknown job or another user's. */
/**
 * The owner's job with each failure; with `results`, each handled document too (Results: about 70
 * bytes a document, so only when asked: the tray polls without them).
 */
export async function getJob(db: Queryable, ownerId: number, id: number, results = false): Promise<Job | null> {
  const r = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND owner_id = $2`, [id, ownerId]);
  const job = r.rows[0];
  if (!job) return null;
  const states = results ? "state <> 'pending'" : "state = 'failed'";
  const items = await db.query<JobItemRow>(`SELECT * FROM job_items WHERE job_id = $1 AND ${states} ORDER BY position`, [id]);
  const wire = toWire(jobRow(job), items.rows);
  if (!results) delete wire.Results;
  return wire;
}

/** Cancels the owner's job unless it has ended; the items not yet handled stay untouched. */
export async function cancelJob(store: Store, ownerId: number, id: number, now: Date): Promise<Job | null> {
  const found = await store.transaction(async (tx) => {
    const r = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND owner_id = $2 FOR UPDATE`, [id, ownerId]);
    const job = r.rows[0];
    if (!job) return false;
    if (!isFinalJobState(job.state)) {
      await tx.query(`UPDATE jobs SET state = 'cancelled', finished_at = $2, updated_at = $2, locked_by = NULL, lease_until = NULL WHERE id = $1`, [id, now]);
    }
    return true;
  });
  return found ? getJob(store, ownerId, id) : null;
}

/** The request's own words for naming the job (src/api/jobs.ts Format, Name), from what its start kept in payload. */
function describeJob(j: JobRow): Pick<Job, 'Format' | 'Name'> {
  const p = (j.payload ?? {}) as { format?: unknown; csvPath?: unknown };
  if (j.kind === 'export' && (p.format === 'zip' || p.format === 'xlsx')) return { Format: p.format };
  if (j.kind === IMPORT_JOB_KIND && typeof p.csvPath === 'string' && p.csvPath) return { Name: p.csvPath };
  return {};
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function toWire(j: JobRow, items?: readonly JobItemRow[]): Job {
  // An import's item is a row of the user's CSV, not a document: its failure names the row's line.
  const lineOf = (i: JobItemRow): number | null => (j.kind === IMPORT_JOB_KIND ? Number((i.vals as { Line?: unknown } | null)?.Line ?? i.position + 2) : null);
  const failures: JobFailure[] | undefined = items
    ?.filter((i) => i.state === 'failed')
    .map((i) => {
      const line = lineOf(i);
      const reason = i.reason ?? 'Failed';
      return {
        DocID: line === null ? Number(i.document_id) : 0,
        ArchiveID: i.archive_id,
        Reason: reason,
        ...(i.reason_key ? { Key: i.reason_key } : {}),
        ...(line === null ? {} : { Line: line }),
        ...(i.reason_words && typeof i.reason_words.Key === 'string' ? { ReasonWords: i.reason_words } : {}),
        Message: line === null ? jobFailureMessage(Number(i.document_id), reason) : importFailureMessage(line, reason),
      };
    });
  const results: JobResult[] | undefined = items
    ?.filter((i) => i.state === 'done')
    .map((i) => ({
      DocID: j.kind === IMPORT_JOB_KIND ? Number(i.new_document_id ?? 0) : Number(i.document_id),
      ArchiveID: i.archive_id,
      ...(i.new_document_id !== null ? { NewDocID: Number(i.new_document_id) } : {}),
      ...(i.new_archive_id !== null ? { NewArchiveID: i.new_archive_id } : {}),
    }));
  return {
    Id: j.id,
    Kind: j.kind,
    State: j.state,
    Database: j.database_id ?? 0,
    Key: j.key,
    Archive: j.archive_id,
    DestinationArchive: j.destination_archive_id,
    Count: j.total,
    Received: j.received,
    Processed: j.succeeded + j.failed,
    Succeeded: j.succeeded,
    Failed: j.failed,
    Notes: (Array.isArray(j.notes) ? j.notes : []) as Job['Notes'],
    ...describeJob(j),
    ...(j.result && typeof j.result.Reason === 'string' ? { Reason: j.result.Reason } : {}),
    ...(failures ? { Failures: failures } : {}),
    ...(results ? { Results: results } : {}),
    Created: iso(j.created_at)!,
    Updated: iso(j.updated_at)!,
    Finished: iso(j.finished_at),
  };
}
