import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { db as appDb } from '../../db/db';
import { MERGE_KIND, isMergeMeta, mergeOutcome } from '../../sync/kinds/merge';
import { notify } from '../../ui/notifications';
import type { DocumentsChange } from './use-job-refresh';
import type { AppTFunction as TFunction } from '../../i18n/t-function';

/** The spec's merge and append success and failure notes in the user's words (mergeOutcome names the key). */
export const mergeNoteText = (note: NonNullable<ReturnType<typeof mergeOutcome>>, t: TFunction): string => t(note.key, note.vars);

/**
 * Tells the screen when a merge or append of this database has finished (the outbox entry is done or
 * failed: the server merges while it answers, so there is no job to wait for), with the spec's success
 * or failure note as a toast (the tray keeps it). A done one refreshes the grid: the base row's page
 * count and file changed, and the documents it removed leave the grid and the selection. Entries that
 * had finished before the screen opened are not reported (the screen fetched after them).
 */
export function useMergeRefresh(dbId: number, onChange: (c: DocumentsChange) => void): void {
  const { t } = useTranslation();
  const finished = useLiveQuery(
    () => appDb.outbox.where('state').anyOf('done', 'failed').filter((e) => e.kind === MERGE_KIND && isMergeMeta(e.meta) && e.meta.dbId === dbId).toArray(),
    [dbId],
  );
  const seen = useRef<{ dbId: number; keys: Set<string> } | null>(null);
  const latest = useRef({ onChange, t });
  useEffect(() => {
    latest.current = { onChange, t };
  });
  useEffect(() => {
    if (!finished) return;
    const keyOf = (e: { id: string; state: string }) => `${e.id}|${e.state}`;
    if (seen.current === null || seen.current.dbId !== dbId) {
      seen.current = { dbId, keys: new Set(finished.map(keyOf)) };
      return;
    }
    for (const e of finished) {
      if (seen.current.keys.has(keyOf(e))) continue;
      seen.current.keys.add(keyOf(e));
      const note = mergeOutcome(e);
      if (!note || !isMergeMeta(e.meta)) continue;
      const { onChange: changed, t: tr } = latest.current;
      if (e.state === 'failed') {
        notify('error', mergeNoteText(note, tr));
        continue;
      }
      notify('success', mergeNoteText(note, tr));
      const m = e.meta;
      changed({ kind: 'merge', archiveIds: [...new Set([m.base.archiveId, ...m.removed.map((r) => r.archiveId)])], gone: m.removed });
    }
  }, [finished, dbId]);
}
