/**
 * Server jobs as the header's tray counts them (the live list: react/use-jobs.ts). Kept apart from
 * jobs.ts so the first screen carries neither the contract's job schemas nor the polling code.
 */
import type { JobRecord, JobState } from '../db/db';

/** The final states (src/api/jobs.ts FINAL_JOB_STATES, not imported so the shell does not load the job schemas). */
const FINAL: ReadonlySet<JobState> = new Set(['done', 'failed', 'cancelled']);

export const isFinalState = (s: JobState): boolean => FINAL.has(s);

/** The record is shown to `owner` (a record without owner is shown to whoever is signed in). */
export const shownTo = (r: JobRecord, owner: string | null) => (r.owner === undefined || r.owner === owner) && !r.dismissedAt;

/** The tray's badge: running (or queued) jobs and final ones not seen yet. */
export function jobAttentionCount(records: readonly JobRecord[]): number {
  return records.filter((r) => !r.dismissedAt && !r.lost && (!isFinalState(r.state) || r.seenAt === undefined)).length;
}
