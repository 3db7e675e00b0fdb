/**
 * The job calls (src/api/jobs.ts contract) through the one fetch wrapper: the jobs worker polls with
 * fetchJob and syncs with fetchJobList; the tray cancels with cancelJob. Kept apart from jobs.ts so
 * the records' logic is tested without HTTP.
 */
import { apiRequest } from '../api/http';
import { Job, JobList, jobPaths } from '../api/jobs';
import { db as defaultDb, type ArchiveDb } from '../db/db';
import { saveJobAnswer } from './jobs';

export const fetchJob = (id: number, signal?: AbortSignal): Promise<Job> => apiRequest({ path: jobPaths.job(id), schema: Job, signal });

export const fetchJobList = (signal?: AbortSignal): Promise<Job[]> => apiRequest({ path: jobPaths.list, schema: JobList, signal });

/** Cancels a job on the server (DELETE api/jobs/{id}) and writes its answer into the record (the user sees the cancel: not told again). */
export async function cancelJob(id: string, database: ArchiveDb = defaultDb, now: () => number = Date.now): Promise<Job> {
  const job = await apiRequest({ method: 'DELETE', path: jobPaths.job(Number(id)), schema: Job });
  await saveJobAnswer(database, job, now(), { told: true });
  return job;
}
