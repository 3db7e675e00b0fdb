import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { moveItem } from '../document-rules';

export interface MergeDoc {
  id: number;
  hash: string;
  archiveId: number;
  title?: string;
}

export type AppendType = 'Remove' | 'Keep';
/** What a merge or append dialog starts with: Keep, as the server does when none is sent; removing deletes, so the user picks it. */
export const APPEND_TYPE_DEFAULT: AppendType = 'Keep';

const keyOf = (d: MergeDoc) => `${d.archiveId}|${d.id}`;
const nameOf = (d: MergeDoc) => d.title || `#${d.id}`;

/**
 * The merge dialog (the user-app spec §3 Merge object, §5): the checked documents, from every result page,
 * in the order their pages will be combined; the first is the base (it keeps its id, index data and
 * history). Up and Down buttons reorder them (44 px targets; keyboard focus stays on the moved
 * document's button, so repeated presses keep moving it). Then whether the others are removed or kept
 * (AppendType).
 */
export function MergeModal(props: { open: boolean; docs: readonly MergeDoc[]; onConfirm: (order: MergeDoc[], appendType: AppendType) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [order, setOrder] = useState<MergeDoc[]>(() => [...props.docs]);
  const [appendType, setAppendType] = useState<AppendType>(APPEND_TYPE_DEFAULT);
  const [focus, setFocus] = useState<{ key: string; dir: 'up' | 'down' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const name = useId();

  useEffect(() => {
    if (!focus || !list.current) return;
    const want = list.current.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(`${focus.key}|${focus.dir}`)}"]`);
    const other = list.current.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(`${focus.key}|${focus.dir === 'up' ? 'down' : 'up'}`)}"]`);
    (want && !want.disabled ? want : other)?.focus();
  }, [focus, order]);

  const move = (index: number, delta: number) => {
    const doc = order[index]!;
    setOrder((o) => moveItem(o, index, delta));
    setFocus({ key: keyOf(doc), dir: delta < 0 ? 'up' : 'down' });
  };

  return (
    <Modal open={props.open} title={t('DOCUMENTS_MERGE_TITLE', { count: order.length })} onClose={props.onClose} className="documents-modal">
      <p className="documents-merge-hint">{t('DOCUMENTS_MERGE_ORDER')}</p>
      <ol ref={list} className="documents-merge-list" aria-label={t('DOCUMENTS_MERGE_TITLE', { count: order.length })}>
        {order.map((d, i) => (
          <li key={keyOf(d)} className="documents-merge-item" data-testid="merge-item">
            {/* For the eye: a screen reader tells the position from the ordered list itself. */}
            <span className="documents-merge-pos" aria-hidden="true">
              {i + 1}.
            </span>
            <span className="documents-merge-name">
              {nameOf(d)}
              {i === 0 && <span className="badge documents-merge-base">{t('DOCUMENTS_MERGE_BASE')}</span>}
            </span>
            <span className="documents-merge-moves">
              <button type="button" className="button" data-move={`${keyOf(d)}|up`} aria-label={t('DOCUMENTS_MOVE_UP', { title: nameOf(d) })} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </button>
              <button type="button" className="button" data-move={`${keyOf(d)}|down`} aria-label={t('DOCUMENTS_MOVE_DOWN', { title: nameOf(d) })} disabled={i === order.length - 1} onClick={() => move(i, 1)}>
                ↓
              </button>
            </span>
          </li>
        ))}
      </ol>
      <AppendTypeChoice name={name} value={appendType} onChange={setAppendType} remove={t('DOCUMENTS_MERGE_REMOVE')} keep={t('DOCUMENTS_MERGE_KEEP')} />
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('DOCUMENTS_CANCEL')}
        </button>
        <button type="button" className="button button-primary" onClick={() => props.onConfirm(order, appendType)}>
          {t('DOCUMENTS_MERGE')}
        </button>
      </div>
    </Modal>
  );
}

/** Keep or Remove what is combined into the base (the Merge object's Target.AppendType). */
export function AppendTypeChoice(props: { name: string; value: AppendType; onChange: (v: AppendType) => void; remove: string; keep: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="documents-archives documents-append-type">
      <legend>{t('DOCUMENTS_AFTERWARDS')}</legend>
      {(['Remove', 'Keep'] as const).map((v) => (
        <label key={v} className="documents-archive">
          <input type="radio" name={props.name} value={v} checked={props.value === v} onChange={() => props.onChange(v)} />
          {v === 'Remove' ? props.remove : props.keep}
        </label>
      ))}
    </fieldset>
  );
}
