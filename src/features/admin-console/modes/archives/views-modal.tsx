import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { randomHexColor, viewLabelProblem } from '../../../../api/admin-archives';
import type { ArchiveDraft } from '../../api/archives';
import type { ConsoleField } from '../../api/catalogue';
import { EditCopyModal } from '../../ui/edit-copy-modal';

type Views = NonNullable<ArchiveDraft['views']>;

/** The archive's views (§3): enabled, the status field, and values (label, value, colour; a new one gets a random colour). */
export function ViewsModal(props: { views: Views; fields: readonly ConsoleField[]; onCancel: () => void; onSave: (v: Views) => Promise<void> }) {
  const { t } = useTranslation();
  const id = useId();
  const problem = (v: Views) => {
    for (let i = 0; i < v.values.length; i++) {
      const p = viewLabelProblem(v.values, i);
      if (p) return t(p);
    }
    return null;
  };
  return (
    <EditCopyModal open className="admin-modal-wide" title={t('ADMIN_ARCHIVE_VIEWS')} value={props.views} onCancel={props.onCancel} onSave={props.onSave} problem={problem}>
      {(v, set) => {
        const setValue = (i: number, patch: Partial<Views['values'][number]>) => set({ ...v, values: v.values.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
        return (
          <>
            <label className="check">
              <input type="checkbox" checked={v.enabled} onChange={(e) => set({ ...v, enabled: e.target.checked })} />
              {t('ADMIN_VIEWS_ENABLED')}
            </label>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-status`}>
                {t('ADMIN_VIEWS_STATUS_FIELD')}
              </label>
              <select id={`${id}-status`} value={v.statusField ?? ''} onChange={(e) => set({ ...v, statusField: e.target.value ? Number(e.target.value) : null })}>
                <option value="">{t('ADMIN_NONE')}</option>
                {props.fields.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
            </div>
            {v.values.map((x, i) => {
              const p = viewLabelProblem(v.values, i);
              return (
                <div key={i} className="admin-view-row" role="group" aria-label={t('ADMIN_VIEW_VALUE_N', { n: i + 1 })}>
                  <input aria-label={t('ADMIN_VIEW_LABEL')} placeholder={t('ADMIN_VIEW_LABEL')} value={x.label} aria-invalid={p !== null} onChange={(e) => setValue(i, { label: e.target.value })} />
                  <input aria-label={t('ADMIN_VIEW_VALUE')} placeholder={t('ADMIN_VIEW_VALUE')} value={x.value} onChange={(e) => setValue(i, { value: e.target.value })} />
                  <input type="color" aria-label={t('ADMIN_VIEW_COLOR')} value={x.color} onChange={(e) => setValue(i, { color: e.target.value })} />
                  <button type="button" className="icon-button" aria-label={t('ADMIN_REMOVE_NAMED', { name: x.label || String(i + 1) })} onClick={() => set({ ...v, values: v.values.filter((_, j) => j !== i) })}>
                    ×
                  </button>
                </div>
              );
            })}
            <div>
              <button type="button" className="button" onClick={() => set({ ...v, values: [...v.values, { label: '', value: '', color: randomHexColor() }] })}>
                {t('ADMIN_VIEW_ADD_VALUE')}
              </button>
            </div>
          </>
        );
      }}
    </EditCopyModal>
  );
}
