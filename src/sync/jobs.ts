/**
 * Server jobs this device watches (docs/architecture.md "Long jobs"): a JobRecord in the Dexie `jobs` table
 * per job, written when the job is started (trackJob) and updated from each GET api/jobs/{id} answer
 * (workers/jobs.worker.ts polls). No React: the page, the jobs worker and the service worker use it.
 *
 * Polling, as pure functions and one step (pollJobs) so it is tested without a worker or a timer:
 * - a record is polled while its job is not final, and once more when it ended with failures this
 *   device has not fetched yet (GET api/jobs lists jobs without their Failures);
 * - at once after trackJob (nextPollAt 0), then 1 s, 2 s, 4 s ... at most 30 s while answers bring no
 *   change; a change starts again at 1 s;
 * - only the signed-in user's records (a record without owner belongs to whoever is signed in);
 * - 401, 402, 499, a login redirect or no token stop the step (the page's error handler signs the
 *   user in again); a 404 marks the record lost (not polled again); anything else backs off.
 * The records are the state: a reload or a browser restart picks up from them.
 */
import { isApiError } from '../api/api-error';
import { WIRE_STATUS } from '../api/errors';
import { isFinalJobState, type Job, type JobFailure } from '../api/jobs';
import { db as defaultDb, type ArchiveDb, type JobFailureParts, type JobRecord, type Words } from '../db/db';

export interface TrackedJob {
  /** The server's job id (Job.Id / DocumentOperationAccepted.JobId). */
  id: number;
  dbId: number;
  kind: string;
  total: number;
  owner?: string | null;
  title?: string;
  /** The title as words (worded when shown); without them the tray names the job by its kind. */
  titleWords?: Words;
  /** An export's format, an import's CSV name (what names the job: jobs-view.ts jobTitleWords). */
  format?: 'zip' | 'xlsx';
  name?: string;
  archiveId?: number;
  destinationArchiveId?: number;
  entryId?: string;
}

/**
 * Starts watching a job (again: an existing record keeps its progress, and gets what it lacks - a
 * record the start-up sync made from GET api/jobs before the drain's trackJob has no title or entry).
 * Polled at once.
 */
export async function trackJob(job: TrackedJob, database: ArchiveDb = defaultDb, now: number = Date.now()): Promise<void> {
  const id = String(job.id);
  await database.transaction('rw', database.jobs, async () => {
    const existing = await database.jobs.get(id);
    if (existing) {
      await database.jobs.update(id, {
        nextPollAt: 0,
        idlePolls: 0,
        ...(job.title && !existing.title ? { title: job.title } : {}),
        ...(job.titleWords && !existing.titleWords ? { titleWords: job.titleWords } : {}),
        ...(job.format && !existing.format ? { format: job.format } : {}),
        ...(job.name && !existing.name ? { name: job.name } : {}),
        ...(job.entryId && !existing.entryId ? { entryId: job.entryId } : {}),
        ...(job.owner && !existing.owner ? { owner: job.owner } : {}),
        ...(job.archiveId !== undefined && existing.archiveId === undefined ? { archiveId: job.archiveId } : {}),
        ...(job.destinationArchiveId !== undefined && existing.destinationArchiveId === undefined ? { destinationArchiveId: job.destinationArchiveId } : {}),
      });
      return;
    }
    const record: JobRecord = {
      id,
      dbId: job.dbId,
      kind: job.kind,
      state: 'queued',
      progress: 0,
      total: job.total,
      ...(job.owner ? { owner: job.owner } : {}),
      ...(job.title ? { title: job.title } : {}),
      ...(job.titleWords ? { titleWords: job.titleWords } : {}),
      ...(job.format ? { format: job.format } : {}),
      ...(job.name ? { name: job.name } : {}),
      ...(job.archiveId !== undefined ? { archiveId: job.archiveId } : {}),
      ...(job.destinationArchiveId !== undefined ? { destinationArchiveId: job.destinationArchiveId } : {}),
      ...(job.entryId ? { entryId: job.entryId } : {}),
      startedAt: now,
      updatedAt: now,
      nextPollAt: 0,
      notes: [],
    };
    await database.jobs.put(record);
  });
}

/** One failure in parts (the tray words it: src/i18n/words.ts failureText). */
export function failureParts(f: Pick<JobFailure, 'DocID' | 'Line' | 'Reason' | 'ReasonWords'>): JobFailureParts {
  return {
    docId: f.DocID,
    ...(f.Line !== undefined ? { line: f.Line } : {}),
    reason: f.Reason,
    ...(f.ReasonWords ? { reasonKey: f.ReasonWords.Key, ...(f.ReasonWords.Params ? { reasonParams: { ...f.ReasonWords.Params } } : {}) } : {}),
  };
}

/** The record's fields from a server answer (GET api/jobs/{id}). */
export function recordFromJob(job: Job): Pick<JobRecord, 'state' | 'progress' | 'total' | 'succeeded' | 'failed' | 'failures' | 'failureParts' | 'notes'> {
  return {
    state: job.State,
    progress: job.Processed,
    total: job.Count,
    succeeded: job.Succeeded,
    failed: job.Failed,
    ...(job.Failures ? { failures: job.Failures.map((f) => f.Message), failureParts: job.Failures.map(failureParts) } : {}),
    notes: job.Notes as unknown[][],
  };
}

/** What names a job, from the server's answer (a record that lacks them takes them). */
const namingOf = (job: Job, record?: JobRecord): Pick<JobRecord, 'format' | 'name'> => ({
  ...(job.Format && !record?.format ? { format: job.Format } : {}),
  ...(job.Name && !record?.name ? { name: job.Name } : {}),
});

export const POLL_MIN_MS = 1_000;
export const POLL_MAX_MS = 30_000;
/** Wait before the next poll of a job whose last `idlePolls` answers brought no change. */
export function pollDelayMs(idlePolls: number): number {
  return Math.min(POLL_MAX_MS, POLL_MIN_MS * 2 ** Math.max(0, idlePolls));
}

export const isFinalRecord = (r: Pick<JobRecord, 'state'>): boolean => isFinalJobState(r.state);

/** The record is the signed-in user's (a record without owner is shown to whoever is signed in). */
export const isMine = (r: Pick<JobRecord, 'owner'>, owner: string | null): boolean => r.owner === undefined || r.owner === owner;

/** The record still needs answers: not final, or final with failures not fetched yet. */
export function needsPoll(r: JobRecord): boolean {
  if (r.lost) return false;
  if (!isFinalRecord(r)) return true;
  return (r.failed ?? 0) > 0 && r.failures === undefined;
}

/** The records to poll now. */
export function dueJobs(records: readonly JobRecord[], owner: string | null, now: number): JobRecord[] {
  return records.filter((r) => isMine(r, owner) && needsPoll(r) && r.nextPollAt <= now);
}

/** When the next poll is due; null when nothing needs polling (the worker then keeps no timer). */
export function nextPollTime(records: readonly JobRecord[], owner: string | null): number | null {
  let next: number | null = null;
  for (const r of records) {
    if (!isMine(r, owner) || !needsPoll(r)) continue;
    if (next === null || r.nextPollAt < next) next = r.nextPollAt;
  }
  return next;
}

/**
 * The changes a server answer makes to a record: its counts and state, the backoff (reset when
 * something changed), endedAt when it has just become final. Failures a list answer lacks are kept.
 */
export function mergeJob(record: JobRecord, job: Job, now: number): Partial<JobRecord> {
  const fields = recordFromJob(job);
  const changed =
    fields.state !== record.state ||
    fields.progress !== record.progress ||
    fields.total !== record.total ||
    fields.succeeded !== record.succeeded ||
    fields.failed !== record.failed ||
    (fields.failures !== undefined && fields.failures.length !== (record.failures?.length ?? -1));
  const idlePolls = changed ? 0 : (record.idlePolls ?? 0) + 1;
  const final = isFinalJobState(fields.state);
  // A list answer has no Failures: the ones kept stay while the count matches, else they are fetched again.
  const staleFailures = fields.failures === undefined && record.failures !== undefined && record.failures.length !== fields.failed;
  return {
    ...fields,
    ...(staleFailures ? { failures: undefined, failureParts: undefined } : {}),
    ...namingOf(job, record),
    ...(job.Archive != null && record.archiveId === undefined ? { archiveId: job.Archive } : {}),
    ...(job.DestinationArchive != null && record.destinationArchiveId === undefined ? { destinationArchiveId: job.DestinationArchive } : {}),
    updatedAt: now,
    idlePolls,
    nextPollAt: final ? 0 : now + pollDelayMs(idlePolls),
    ...(final && !isFinalRecord(record) ? { endedAt: now } : {}),
  };
}

/** A record for a job this device did not track (started on another device, or its record was lost). */
export function recordForJob(job: Job, owner: string | null, now: number): JobRecord {
  const fields = recordFromJob(job);
  const final = isFinalJobState(job.State);
  const ended = job.Finished ? Date.parse(job.Finished) : Date.parse(job.Updated);
  const created = Date.parse(job.Created);
  return {
    id: String(job.Id),
    dbId: job.Database,
    kind: job.Kind,
    ...fields,
    ...namingOf(job),
    ...(owner ? { owner } : {}),
    ...(job.Archive != null ? { archiveId: job.Archive } : {}),
    ...(job.DestinationArchive != null ? { destinationArchiveId: job.DestinationArchive } : {}),
    startedAt: Number.isFinite(created) ? created : now,
    updatedAt: now,
    nextPollAt: 0,
    idlePolls: 0,
    ...(final ? { endedAt: Number.isFinite(ended) ? ended : now } : {}),
    // Ended before this device heard of it (another device, an earlier session): shown, but neither
    // told nor counted by the badge - a new device would otherwise tell of every job the user ever ran.
    ...(final ? { seenAt: now, toldAt: now } : {}),
  };
}

/**
 * Writes one server answer (a poll, a cancel) into its record. `told`: the user sees the answer where
 * it came (their own cancel), so a final state is not told again.
 */
export async function saveJobAnswer(database: ArchiveDb, job: Job, now: number, opts: { owner?: string | null; told?: boolean } = {}): Promise<void> {
  const id = String(job.Id);
  await database.transaction('rw', database.jobs, async () => {
    const before = await database.jobs.get(id);
    const after = before ? { ...before, ...mergeJob(before, job, now) } : recordForJob(job, opts.owner ?? null, now);
    if (before) delete after.lost;
    if (opts.told && isFinalRecord(after) && after.toldAt === undefined) after.toldAt = now;
    await database.jobs.put(after);
  });
}

/**
 * The start-up sync with the server's own list (GET api/jobs): jobs this user started elsewhere, or
 * whose record was lost, get a record; known ones take the list's counts (a tracked job that ended
 * while no page of the app ran becomes final here, and the page tells it). Polled at once when they
 * still need it. A record the user cleared from the tray is deleted once the server no longer lists
 * its job (the list holds the newest JOB_LIST_LIMIT): nothing can bring it back then, so the table
 * does not grow for ever.
 */
export async function syncJobList(database: ArchiveDb, jobs: readonly Job[], owner: string | null, now: number): Promise<void> {
  const listed = new Set(jobs.map((j) => String(j.Id)));
  await database.transaction('rw', database.jobs, async () => {
    await database.jobs.filter((r) => isMine(r, owner) && r.dismissedAt !== undefined && !listed.has(r.id)).delete();
    for (const job of jobs) {
      const id = String(job.Id);
      const existing = await database.jobs.get(id);
      if (existing && !isMine(existing, owner)) continue;
      const next = existing ? { ...existing, ...mergeJob(existing, job, now), nextPollAt: 0, idlePolls: 0 } : recordForJob(job, owner, now);
      await database.jobs.put(next);
    }
  });
}

export type FetchJob = (id: number) => Promise<Job>;

export interface PollResult {
  /** How many jobs were asked for. */
  polled: number;
  /** When the next step is due; null: nothing to poll (no timer). */
  nextAt: number | null;
  /** The session error that stopped the step (401, 402, 499, login redirect, no token); the caller hands it to the error handler. */
  stopped: unknown;
}

/** The error ends the session's polling (sign in again), rather than this job's. */
export function isSessionError(e: unknown): boolean {
  if (!isApiError(e)) return false;
  if (e.kind === 'noToken' || e.kind === 'html') return true;
  if (e.kind !== 'http') return false;
  const s = e.status;
  return s === 401 || s === WIRE_STATUS.leaseExpired || s === WIRE_STATUS.licenseExpired || (s === 403 && e.loginRedirect);
}

/** One polling step: asks the server for every due job of `owner` and writes each answer. */
export async function pollJobs(
  database: ArchiveDb,
  fetchJob: FetchJob,
  now: number,
  opts: { owner?: string | null } = {},
): Promise<PollResult> {
  const owner = opts.owner ?? null;
  const due = dueJobs(await database.jobs.toArray(), owner, now);
  let stopped: unknown = null;
  let polled = 0;
  for (const r of due) {
    polled++;
    let job: Job;
    try {
      job = await fetchJob(Number(r.id));
    } catch (e) {
      if (isSessionError(e)) {
        stopped = e;
        break;
      }
      if (isApiError(e) && e.kind === 'http' && e.status === 404) {
        await database.jobs.update(r.id, { lost: 'notFound', updatedAt: now });
        continue;
      }
      // Offline, the server out of reach or failing: this job waits longer, the others go on.
      const idlePolls = (r.idlePolls ?? 0) + 1;
      await database.jobs.update(r.id, { idlePolls, nextPollAt: now + pollDelayMs(idlePolls) });
      continue;
    }
    await saveJobAnswer(database, job, now, { owner });
  }
  return { polled, nextAt: stopped ? null : nextPollTime(await database.jobs.toArray(), owner), stopped };
}

/** The tray was opened: final jobs shown there are seen (the badge stops counting them). */
export async function markJobsSeen(database: ArchiveDb, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await database.jobs.where('id').anyOf([...ids]).modify({ seenAt: now });
}

/** Clears final (and lost) jobs from the tray (kept as dismissed, so the start-up sync does not bring them back). */
export async function dismissFinalJobs(database: ArchiveDb, owner: string | null, now: number): Promise<void> {
  await database.jobs.filter((r) => isMine(r, owner) && (isFinalRecord(r) || r.lost !== undefined) && !r.dismissedAt).modify({ dismissedAt: now, seenAt: now });
}
