/**
 * Calls `onEnded` (with the job's archive) each time a job of `kind` in database `dbId` reaches a
 * final state while the screen is open, live from Dexie's `jobs` table; jobs already final when the
 * screen opened are not reported. Bulk update and import refresh the grid with it.
 */
import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { FINAL_JOB_STATES } from '../../api/jobs';
import { db as defaultDb, type ArchiveDb } from '../../db/db';

export function useJobsEnded(dbId: number, kind: string, onEnded: (archiveId: number | undefined) => void, database: ArchiveDb = defaultDb): void {
  const ended = useLiveQuery(() => database.jobs.where('state').anyOf([...FINAL_JOB_STATES]).filter((j) => j.dbId === dbId && j.kind === kind).toArray(), [dbId, kind, database]);
  const seen = useRef<Set<string> | null>(null);
  const latest = useRef(onEnded);
  useEffect(() => {
    latest.current = onEnded;
  });
  useEffect(() => {
    if (!ended) return;
    if (seen.current === null) {
      seen.current = new Set(ended.map((j) => j.id));
      return;
    }
    for (const j of ended) {
      if (seen.current.has(j.id)) continue;
      seen.current.add(j.id);
      latest.current(j.archiveId);
    }
  }, [ended]);
}
