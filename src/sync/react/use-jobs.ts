/** The signed-in user's server jobs for the tray, live from Dexie, newest first (jobs-view.ts says which are shown). */
import { useLiveQuery } from 'dexie-react-hooks';
import { db as defaultDb, type ArchiveDb, type JobRecord } from '../../db/db';
import { shownTo } from '../jobs-view';

const EMPTY: JobRecord[] = [];

/** The user's jobs in the tray, newest first. */
export function useJobs(owner: string | null, database: ArchiveDb = defaultDb): JobRecord[] {
  return (
    useLiveQuery(
      async () => (await database.jobs.toArray()).filter((r) => shownTo(r, owner)).sort((a, b) => b.startedAt - a.startedAt),
      [database, owner],
    ) ?? EMPTY
  );
}
