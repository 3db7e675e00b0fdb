/**
 * Server jobs this device watches (ARCHITECTURE.md "Long jobs"): a JobRecord in the Dexie `jobs` table
 * per job, written when the job is started (trackJob) and updated from each GET api/jobs/{id} answer
 * (workers/jobs.worker.ts polls). No React: the page, the jobs worker and the service worker use it.
 */
import type { Job } from '../api/jobs';
import { db as defaultDb, type ArchiveDb, type JobRecord } from '../db/db';

export interface TrackedJob {
  /** The server's job id (Job.Id / DocumentOperationAccepted.JobId). */
  id: number;
  dbId: number;
  kind: string;
  total: number;
  owner?: string | null;
  title?: string;
  archiveId?: number;
  destinationArchiveId?: number;
  entryId?: string;
}

/** Starts watching a job (again: an existing record keeps its progress). Polled at once. */
export async function trackJob(job: TrackedJob, database: ArchiveDb = defaultDb, now: number = Date.now()): Promise<void> {
  const id = String(job.id);
  await database.transaction('rw', database.jobs, async () => {
    const existing = await database.jobs.get(id);
    if (existing) {
      await database.jobs.update(id, { nextPollAt: 0, idlePolls: 0 });
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

/** The record's fields from a server answer (GET api/jobs/{id}). */
export function recordFromJob(job: Job): Pick<JobRecord, 'state' | 'progress' | 'total' | 'succeeded' | 'failed' | 'failures' | 'notes'> {
  return {
    state: job.State,
    progress: job.Processed,
    total: job.Count,
    succeeded: job.Succeeded,
    failed: job.Failed,
    ...(job.Failures ? { failures: job.Failures.map((f) => f.Message) } : {}),
    notes: job.Notes as unknown[][],
  };
}
