/**
 * Tells the user of each job's end once (src/sync/jobs-view.ts claimEndedJobs), live from the Dexie
 * `jobs` table: whoever wrote the end (this tab's jobs worker, another tab's, a worker whose tab was
 * closed before it could tell, the service worker), a running page tells it. Of several tabs one
 * tells each end; a hidden tab waits a moment so a visible one tells it first.
 */
import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db as defaultDb, type ArchiveDb, type JobRecord } from '../../db/db';
import { claimEndedJobs, needsTelling } from '../jobs-view';

/** How long a hidden tab leaves an end to a visible one. */
export const HIDDEN_TAB_TELL_DELAY_MS = 1_000;

export function useJobsTold(owner: string | null, tell: (records: JobRecord[]) => void, database: ArchiveDb = defaultDb): void {
  const untold = useLiveQuery(async () => (await database.jobs.filter((r) => needsTelling(r, owner)).primaryKeys()).join(','), [database, owner]);
  const latest = useRef(tell);
  useEffect(() => {
    latest.current = tell;
  });
  useEffect(() => {
    if (!untold) return;
    const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
    const timer = setTimeout(
      () =>
        void claimEndedJobs(database, owner, Date.now())
          .then((records) => {
            if (records.length > 0) latest.current(records);
          })
          .catch((e: unknown) => console.warn('Job ends not told', e)),
      hidden ? HIDDEN_TAB_TELL_DELAY_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [untold, owner, database]);
}
