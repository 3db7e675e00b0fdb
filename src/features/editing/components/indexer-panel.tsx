/**
 * The viewer's indexer panel: every field of one document with the field rules of index editing (the
 * same hook, inputs, lists, tables, server checks and Save through the outbox as the grid's edit
 * panel; pending, failed and conflicting values from the outbox laid over). Read-only without the
 * edit bit (1024) or with the read-only licence (4).
 *
 * It also says which field a picked word fills (key-free extraction): the current field is the one
 * whose input last had focus, at first the first editable field; `fill` puts a word into it through
 * the field rules (indexer-logic.ts) and moves to the next. The panel hands this target to the viewer
 * through `onTarget` (the viewer provides it to the page area: src/features/viewer/indexer-target.ts).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMultiField } from '../../../fields/rules';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { splitEntries, type EditDoc } from '../edit-logic';
import { INDEXER_NO_CURRENT_FIELD, currentOf, fieldAfter, fillOrder, planFill } from '../indexer-logic';
import { useIndexEditing } from '../use-index-editing';
import { EditAlerts, SaveCancel } from './edit-controls';
import { PanelFields } from './edit-panel';

/** What the panel says about filling (the same shape as the viewer's IndexerTarget). */
export interface FieldTarget {
  current: { id: number; name: string } | null;
  fill(value: string, confidence: number): { ok: true; next: { id: number; name: string } | null } | { ok: false; key: string };
}

export interface IndexerPanelProps {
  db: number;
  archiveId: number;
  /** The document as a grid page of one row (src/api/document-index.ts). */
  page: { Docs: readonly EditDoc[]; Fields: readonly unknown[] };
  /** When the page was fetched (ms): edits done after it stay laid over until it is fetched again. */
  fetchedAt: number;
  reload: () => void;
  onTarget: (target: FieldTarget | null) => void;
}

const NO_ROWS: unknown[][] = [];
const NO_COLUMNS: { fieldId?: number }[] = [];

export function IndexerPanel(p: IndexerPanelProps) {
  const { t } = useTranslation();
  const session = useSession();
  const doc = p.page.Docs[0] ?? null;
  const docs = useMemo(() => (doc ? [doc] : []), [doc]);
  const e = useIndexEditing({
    scope: sessionScope(session), dbId: p.db, archiveId: p.archiveId, docs, fields: p.page.Fields, columns: NO_COLUMNS, rows: NO_ROWS,
    licenceType: session?.licenceType, fetchedAt: p.fetchedAt, reload: p.reload, activeDocId: doc?.Id ?? null,
  });
  // The panel is for indexing: edit mode is on whenever the document may be edited.
  const mayEditDoc = doc !== null && e.canEditRow(doc);
  const { editMode, editRow } = e;
  useEffect(() => {
    if (doc && mayEditDoc && !editMode) editRow(doc);
  }, [doc, mayEditDoc, editMode, editRow]);

  // --- the current field -----------------------------------------------------------------------
  const order = useMemo(() => (doc ? fillOrder(e.fields, (f) => e.mayEdit(doc, f)) : []), [doc, e]);
  // undefined: none chosen yet (the first); null: past the last. fill() may be called twice before a
  // render: it reads and moves the choice through a ref, kept equal to the state.
  const [chosen, setChosen] = useState<number | null | undefined>(undefined);
  const chosenRef = useRef<number | null | undefined>(undefined);
  const current = currentOf(order, chosen);
  const choose = useCallback((id: number | null) => {
    chosenRef.current = id;
    setChosen(id);
  }, []);

  // fill() keeps its identity (the target changes only when the current field does); it reads the
  // panel as of the last render through this ref.
  const latest = useRef({ doc, e, order });
  useLayoutEffect(() => {
    latest.current = { doc, e, order };
  });
  const fill = useCallback(
    (value: string, confidence: number): ReturnType<FieldTarget['fill']> => {
      const { doc, e, order } = latest.current;
      const field = currentOf(order, chosenRef.current);
      if (!doc || !field) return { ok: false, key: INDEXER_NO_CURRENT_FIELD };
      const plan = planFill(field, value, confidence, {
        locale: e.locale,
        listItems: e.knownItems(doc, field),
        currentEntries: isMultiField(field) ? splitEntries(e.editText(doc, field)) : [],
      });
      if (!plan.ok) return plan;
      if (plan.uncertain) e.markUncertain(doc, field, plan.input);
      else e.edit(doc, field, plan.input);
      if (plan.refused) return { ok: false, key: plan.refused.key };
      const next = fieldAfter(order, field.ID);
      choose(next?.ID ?? null);
      return { ok: true, next: next && { id: next.ID, name: next.Name } };
    },
    [choose],
  );
  const currentId = current?.ID ?? null;
  const currentName = current?.Name ?? null;
  const target = useMemo<FieldTarget>(() => ({ current: currentId === null ? null : { id: currentId, name: currentName! }, fill }), [currentId, currentName, fill]);
  const { onTarget } = p;
  useEffect(() => onTarget(target), [onTarget, target]);
  useEffect(() => () => onTarget(null), [onTarget]);

  // The current field is kept in view in the panel.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('[data-current]')?.scrollIntoView?.({ block: 'nearest' });
  }, [currentId]);

  if (!doc) return null;
  return (
    <div ref={ref} className="indexer-panel">
      {mayEditDoc ? (
        <div className="indexer-actions" role="group" aria-label={t('EDIT_CONTROLS')}>
          <SaveCancel e={e} />
          <span className="edit-status" role="status" data-testid="indexer-status">
            {e.dirtyCount > 0 ? t('INDEXER_UNSAVED') : ''}
            {e.invalidCount > 0 ? ` ${t('EDIT_INVALID_ENTRIES', { count: e.invalidCount })}` : ''}
          </span>
        </div>
      ) : (
        <p className="indexer-note">{t('INDEXER_READ_ONLY')}</p>
      )}
      <EditAlerts e={e} />
      {mayEditDoc && (
        <p className="indexer-note" data-testid="indexer-current">
          {currentName ? t('INDEXER_CURRENT_FIELD', { field: currentName }) : t('INDEXER_ALL_FILLED')}
        </p>
      )}
      <PanelFields key={doc.Id} e={e} doc={doc} fields={e.fields} current={currentId} onCurrent={(id) => order.some((f) => f.ID === id) && choose(id)} />
    </div>
  );
}
