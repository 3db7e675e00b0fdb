/**
 * Server jobs as the header's tray counts and tells them (the live list: react/use-jobs.ts). Kept
 * apart from jobs.ts so the first screen carries neither the contract's job schemas nor the polling
 * code.
 */
import type { ArchiveDb, JobRecord, JobState } from '../db/db';

/** The final states (src/api/jobs.ts FINAL_JOB_STATES, not imported so the shell does not load the job schemas). */
const FINAL: ReadonlySet<JobState> = new Set(['done', 'failed', 'cancelled']);

export const isFinalState = (s: JobState): boolean => FINAL.has(s);

/** The record is shown to `owner` (a record without owner is shown to whoever is signed in). */
export const shownTo = (r: JobRecord, owner: string | null) => (r.owner === undefined || r.owner === owner) && !r.dismissedAt;

/** A job's end still to be told (claimEndedJobs below): shown to `owner`, final, not told. */
export const needsTelling = (r: JobRecord, owner: string | null): boolean => shownTo(r, owner) && isFinalState(r.state) && r.toldAt === undefined;

/** The tray's badge: running (or queued) jobs and final ones not seen yet. */
export function jobAttentionCount(records: readonly JobRecord[]): number {
  return records.filter((r) => !r.dismissedAt && !r.lost && (!isFinalState(r.state) || r.seenAt === undefined)).length;
}

/**
 * The ends a page tells now: every record that needsTelling, marked told in the same transaction,
 * so of several tabs only one tells each end, and an end seen by a worker whose tab closed before
 * telling it (or by the service worker) is told by the next page that runs.
 */
export async function claimEndedJobs(database: ArchiveDb, owner: string | null, now: number): Promise<JobRecord[]> {
  return database.transaction('rw', database.jobs, async () => {
    const claimed = await database.jobs.filter((r) => needsTelling(r, owner)).toArray();
    await database.jobs.bulkUpdate(claimed.map((r) => ({ key: r.id, changes: { toldAt: now } })));
    return claimed;
  });
}
