/**
 * The outbox side of index editing: the values saved on this page that the server has not confirmed
 * (or that it confirmed after the page was fetched), laid over the page's rows, and a reload of the
 * page when an edit of one of its documents is done, so the grid shows the server's values. Read live
 * from the Dexie outbox (useOutbox), so it survives a reload and shows offline.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { OutboxEntry } from '../../db/db';
import { isFieldEditMeta } from '../../sync/kinds/field-data';
import { outboxTarget } from '../../sync/outbox';
import { useOutbox } from '../../sync/react/outbox-view';
import { docArchiveId, newlyDone, overlayFor, type EditDoc, type Overlay } from './edit-logic';

export interface OutboxOverlay {
  /** Every outbox entry (the save builds its edits on the newest Rev they name). */
  entries: OutboxEntry[];
  /** Document id -> its fields' pending values. */
  overlays: Map<number, Overlay>;
}

export function useOutboxOverlay(p: { dbId: number; archiveId: number; docs: readonly EditDoc[]; fetchedAt: number; reload: () => void }): OutboxOverlay {
  const entries = useOutbox();
  const { dbId, archiveId, docs, fetchedAt, reload } = p;
  const targetOf = useCallback((d: EditDoc) => outboxTarget(dbId, docArchiveId(d, archiveId), d.Id), [dbId, archiveId]);
  // A page holds up to 10,000 documents and the outbox a few: only documents whose id some entry
  // names get their target built and compared (a page change costs no 10,000 strings).
  const docsNamedBy = useCallback(
    (list: readonly OutboxEntry[]) => {
      const ids = new Set(list.flatMap((e) => (isFieldEditMeta(e.meta) ? [e.meta.docId] : [])));
      return ids.size ? docs.filter((d) => ids.has(d.Id)) : [];
    },
    [docs],
  );
  const overlays = useMemo(() => {
    const out = new Map<number, Overlay>();
    for (const d of docsNamedBy(entries)) {
      const o = overlayFor(entries, targetOf(d), fetchedAt);
      if (o.size) out.set(d.Id, o);
    }
    return out;
  }, [entries, docsNamedBy, targetOf, fetchedAt]);

  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      seen.current = new Set(entries.filter((e) => e.state === 'done').map((e) => e.id));
      return;
    }
    const seenIds = seen.current;
    const unseen = entries.filter((e) => e.state === 'done' && !seenIds.has(e.id));
    if (!unseen.length) return;
    const targets = new Set(docsNamedBy(unseen).map(targetOf));
    const fresh = newlyDone(unseen, targets, seenIds);
    for (const id of fresh) seen.current.add(id);
    if (fresh.length) reload();
  }, [entries, docsNamedBy, targetOf, reload]);

  return { entries, overlays };
}
