import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import type { BasicForm, BasicProblem } from '../bulk-update-rules';

export interface BasicTabProps {
  form: BasicForm;
  onChange: (form: BasicForm) => void;
  fields: readonly Field[];
  checked: number;
  results: number | null;
  problems: readonly BasicProblem[];
  /** Field id -> its input's id, so the dialog can move focus to the first value to correct. */
  inputId: (fieldId: number) => string;
}

/**
 * The basic tab (the user-app spec §2, §5): which documents (the checked ones or every result of the
 * search), and for each updatable field of the archive a tick and its new value, checked by the
 * field rules as it is typed. A ticked field with an empty value empties the field.
 */
export function BasicTab({ form, onChange, fields, checked, results, problems, inputId }: BasicTabProps) {
  const { t } = useTranslation();
  const base = useId();
  const problemOf = (id: number) => problems.find((p) => p.field === id);
  const setScope = (scope: BasicForm['scope']) => onChange({ ...form, scope });
  const toggle = (id: number, on: boolean) => {
    const values = { ...form.values };
    if (on) values[id] = values[id] ?? '';
    else delete values[id];
    onChange({ ...form, values });
  };
  return (
    <div className="bulk-basic">
      <fieldset>
        <legend>{t('BULK_UPDATE_SCOPE')}</legend>
        <label className="check">
          <input type="radio" name={`${base}-scope`} checked={form.scope === 'checked'} onChange={() => setScope('checked')} />
          {t('BULK_UPDATE_SCOPE_CHECKED', { count: checked })}
        </label>
        <label className="check">
          <input type="radio" name={`${base}-scope`} checked={form.scope === 'all'} onChange={() => setScope('all')} disabled={results === null} />
          {results === null ? t('BULK_UPDATE_SCOPE_ALL_UNKNOWN') : t('BULK_UPDATE_SCOPE_ALL', { count: results })}
        </label>
      </fieldset>
      <fieldset>
        <legend>{t('BULK_UPDATE_FIELDS')}</legend>
        <ul className="bulk-fields">
          {fields.map((f) => {
            const on = f.ID in form.values;
            const problem = on ? problemOf(f.ID) : undefined;
            const errorId = `${inputId(f.ID)}-error`;
            return (
              <li key={f.ID} className="bulk-field">
                <label className="check">
                  <input type="checkbox" checked={on} onChange={(e) => toggle(f.ID, e.target.checked)} />
                  {t('BULK_UPDATE_CHANGE_FIELD', { field: f.Name })}
                </label>
                {on && (
                  <>
                    <input
                      id={inputId(f.ID)}
                      className="bulk-value"
                      type="text"
                      aria-label={t('BULK_UPDATE_NEW_VALUE', { field: f.Name })}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={problem ? errorId : undefined}
                      value={form.values[f.ID] ?? ''}
                      onChange={(e) => onChange({ ...form, values: { ...form.values, [f.ID]: e.target.value } })}
                    />
                    {problem && (
                      <span id={errorId} className="field-error" role="alert">
                        {problem.message ?? t(problem.key as 'ERROR_UNKNOWN')}
                      </span>
                    )}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>
    </div>
  );
}
