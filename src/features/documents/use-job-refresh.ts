import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { FINAL_JOB_STATES, JOB_KINDS, jobFailureDocId } from '../../api/jobs';
import { db as appDb, type ArchiveDb, type JobRecord } from '../../db/db';
import { isDocumentOperationMeta } from '../../sync/kinds/document-operation';

/** What a copy, move or delete job changed, once it has ended. */
export interface DocumentsChange {
  kind: string;
  /** Archives whose documents changed (source and destination). */
  archiveIds: number[];
  /** Documents no longer in their archive (moved or deleted), as the selection knows them. */
  gone: { archiveId: number; id: number }[];
}

const failedIds = (failures: readonly string[] | undefined): Set<number> =>
  new Set((failures ?? []).map(jobFailureDocId).filter((id): id is number => id !== null));

/** The change a finished job made, from its record and the outbox entry that started it. */
export async function changeOfJob(job: JobRecord, database: ArchiveDb = appDb): Promise<DocumentsChange> {
  const entry = job.entryId ? await database.outbox.where('id').equals(job.entryId).first() : undefined;
  const meta = entry && isDocumentOperationMeta(entry.meta) ? entry.meta : null;
  const archiveIds = [...new Set([job.archiveId, job.destinationArchiveId, ...(meta?.docs ?? []).map((d) => d.archiveId)].filter((a): a is number => typeof a === 'number'))];
  if (!meta || job.kind === 'copy') return { kind: job.kind, archiveIds, gone: [] };
  const failed = failedIds(job.failures);
  return { kind: job.kind, archiveIds, gone: meta.docs.filter((d) => !failed.has(d.id)).map((d) => ({ archiveId: d.archiveId ?? meta.archiveId, id: d.id })) };
}

/**
 * Calls `onChange` when a copy, move or delete job of this database reaches a final state while the
 * screen is open (the jobs worker writes the state into the Dexie `jobs` table; useLiveQuery sees it).
 * Jobs that had ended before the screen opened are not reported: the screen fetched after them.
 */
export function useJobRefresh(dbId: number, onChange: (c: DocumentsChange) => void): void {
  const ended = useLiveQuery(
    () => appDb.jobs.where('state').anyOf([...FINAL_JOB_STATES]).filter((j) => j.dbId === dbId && (JOB_KINDS as readonly string[]).includes(j.kind)).toArray(),
    [dbId],
  );
  const seen = useRef<{ dbId: number; ids: Set<string> } | null>(null);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (!ended) return;
    if (seen.current === null || seen.current.dbId !== dbId) {
      seen.current = { dbId, ids: new Set(ended.map((j) => j.id)) };
      return;
    }
    const fresh = ended.filter((j) => !seen.current!.ids.has(j.id));
    for (const j of fresh) {
      seen.current.ids.add(j.id);
      void changeOfJob(j).then((c) => latest.current(c));
    }
  }, [ended, dbId]);
}
