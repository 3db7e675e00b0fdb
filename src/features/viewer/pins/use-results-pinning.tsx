/**
 * "Keep offline" in the results grid (the results screen's pinning slot, composed by the route):
 * a row's menu keeps its document on the device or removes it; the header keeps every document of
 * the page shown or removes them; rows kept show a word on their thumbnail. A fresh page (online)
 * hands its newer rows to the kept documents, so the indexer panel edits the latest values offline.
 * The fetching itself runs in the pin worker (src/sync/pins.ts), shown in the tray, with the device's
 * OCR engine (cached for offline key-free extraction).
 */
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pinDocuments, pinKey, unpinDocuments, updatePinnedRows, type PinDocRef, type PinInput } from '../../../sync/pins';
import { usePinnedKeys } from '../../../sync/react/use-pins';
import { useSession } from '../../../session/use-session';
import type { ContextMenuItem } from '../../../ui/context-menu';
import { notify } from '../../../ui/notifications';

/** What the grid's documents give (results grid-logic.ts DocLike). */
export interface PinnableDoc {
  Id: number;
  Hash: string;
  FileName?: string | null;
  ArchiveId?: number;
  Archive?: number;
  Fields: readonly unknown[];
}

export interface ResultsPinningInput {
  dbId: number;
  archiveId: number;
  docs: readonly PinnableDoc[];
  fields: readonly unknown[];
  /** The page on screen came from the server now (not the offline cache). */
  fresh: boolean;
}

/** A plain copy of a row (a cached page's rows are views whose Fields are built when read). */
const plainRow = (d: PinnableDoc): unknown => JSON.parse(JSON.stringify({ ...d, Fields: d.Fields.map((f) => ({ ...(f as object) })) }));

export function useResultsPinning(input: ResultsPinningInput): { toolbar: ReactNode; rowMenuItems: (doc: PinnableDoc) => ContextMenuItem[]; rowBadge: (doc: PinnableDoc) => string | null } {
  const { t } = useTranslation();
  const { dbId, archiveId, docs, fields, fresh } = input;
  const { keys, states } = usePinnedKeys(dbId);
  const refOf = useCallback((d: PinnableDoc): PinDocRef => ({ db: dbId, archiveId: d.ArchiveId ?? d.Archive ?? archiveId, docId: d.Id }), [dbId, archiveId]);
  const owner = useSession()?.userName ?? null;
  const keyOf = useCallback((d: PinnableDoc) => pinKey(owner, refOf(d)), [owner, refOf]);

  const fail = useCallback((e: unknown) => notify('error', t('PIN_ERROR_STORE', { message: e instanceof Error ? e.message : String(e) })), [t]);
  const pin = useCallback(
    (list: readonly PinnableDoc[]) => {
      const plainFields = JSON.parse(JSON.stringify(fields)) as unknown[];
      const inputs: PinInput[] = list.map((d) => ({ ...refOf(d), hash: d.Hash, fileName: d.FileName ?? null, row: plainRow(d), fields: plainFields }));
      void pinDocuments(inputs).then(() => notify('info', t('PIN_QUEUED', { count: inputs.length })), fail);
    },
    [fields, refOf, t, fail],
  );
  const unpin = useCallback((list: readonly string[]) => void unpinDocuments(list).then(() => notify('info', t('PIN_REMOVED', { count: list.length })), fail), [t, fail]);

  // A fresh page's rows of kept documents replace the kept ones (newer values and Rev).
  const kept = useMemo(() => docs.filter((d) => keys.has(keyOf(d))), [docs, keys, keyOf]);
  useEffect(() => {
    if (!fresh || kept.length === 0) return;
    const plainFields = JSON.parse(JSON.stringify(fields)) as unknown[];
    void updatePinnedRows(kept.map((d) => ({ ref: refOf(d), row: plainRow(d), fields: plainFields }))).catch(() => undefined);
  }, [fresh, kept, fields, refOf]);

  const rowMenuItems = useCallback(
    (d: PinnableDoc): ContextMenuItem[] =>
      keys.has(keyOf(d))
        ? [{ id: 'unpin', label: t('PIN_REMOVE'), onSelect: () => unpin([keyOf(d)]) }]
        : [{ id: 'pin', label: t('PIN_KEEP'), onSelect: () => pin([d]) }],
    [keys, keyOf, pin, unpin, t],
  );

  const rowBadge = useCallback(
    (d: PinnableDoc): string | null => {
      const s = states.get(keyOf(d));
      if (!s) return null;
      return s === 'done' ? t('PIN_ROW_BADGE') : s === 'failed' ? t('PIN_ROW_BADGE_FAILED') : t('PIN_ROW_BADGE_FETCHING');
    },
    [states, keyOf, t],
  );

  const notKept = docs.filter((d) => !keys.has(keyOf(d)));
  const toolbar =
    docs.length === 0 ? null : (
      <>
        <button type="button" className="button" disabled={notKept.length === 0} onClick={() => pin(notKept)}>
          {t('PIN_KEEP_PAGE')}
        </button>
        {kept.length > 0 && (
          <button type="button" className="button" onClick={() => unpin(kept.map(keyOf))}>
            {t('PIN_REMOVE_PAGE', { count: kept.length })}
          </button>
        )}
      </>
    );

  return { toolbar, rowMenuItems, rowBadge };
}
