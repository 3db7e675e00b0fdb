import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '../../../api/export';
import { Modal } from '../../../ui/modal';
import { formProblems, initialForm, type ExportDefaults, type ExportForm, type ExportScope } from '../export-request';
import { ExportFieldSelect, type ExportField } from './export-field-select';
import { ExportOptions, optionInputId, problemText } from './export-options';

export interface ExportDialogProps {
  format: ExportFormat;
  /** Checked documents (every page). */
  checked: number;
  /** The search's results in this archive; null when not known. */
  results: number | null;
  initialScope: ExportScope;
  /** Every field of the archive in the grid's column order; `visible` ones start ticked. */
  fields: readonly (ExportField & { visible: boolean })[];
  defaults: ExportDefaults;
  onStart: (form: ExportForm) => void;
  onClose: () => void;
}

/**
 * The export dialogs (the user-app spec §2): what to export (the checked documents or all results), which
 * fields, the CSV options, the conversions and the names, starting from the Export tab's defaults.
 * A native modal <dialog> (focus stays inside, Escape closes). Start stays usable: with something to
 * fix it says what, in an alert, and moves focus to the first field to correct. Mounted fresh for
 * each opening (keyed by the caller), so it always starts from the current defaults and selection.
 */
export function ExportDialog(props: ExportDialogProps) {
  const { t } = useTranslation();
  const base = useId();
  const [form, setForm] = useState<ExportForm>(() =>
    initialForm(props.defaults, props.format, props.initialScope, props.fields.filter((f) => f.visible).map((f) => f.id)),
  );
  const [tried, setTried] = useState(false);
  const problems = formProblems(form, props.checked);
  // Inline errors are shown as the user types; the summary once Start was pressed.
  const shown = problems.filter((p) => p.field !== 'scope' || tried);
  const zip = form.format === 'zip';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problems.length > 0) {
      setTried(true);
      const first = problems[0]!;
      const id = first.field === 'scope' ? `${base}-scope-checked` : first.field === 'fields' ? `${base}-fields-error` : optionInputId(base, first.field);
      document.getElementById(id)?.focus();
      return;
    }
    props.onStart(form);
  };

  return (
    <Modal open title={t(zip ? 'EXPORT_TITLE' : 'EXPORT_EXCEL_TITLE')} onClose={props.onClose} className="export-modal">
      <form className="export-form" onSubmit={submit} noValidate>
        <fieldset>
          <legend>{t('EXPORT_WHAT')}</legend>
          <label className="check">
            <input
              id={`${base}-scope-checked`}
              type="radio"
              name={`${base}-scope`}
              checked={form.scope === 'checked'}
              disabled={props.checked === 0}
              onChange={() => setForm({ ...form, scope: 'checked' })}
            />
            <span>{props.checked === 0 ? t('EXPORT_SCOPE_NONE_CHECKED') : t('EXPORT_SCOPE_CHECKED', { count: props.checked })}</span>
          </label>
          <label className="check">
            <input type="radio" name={`${base}-scope`} checked={form.scope === 'all'} disabled={!props.results} onChange={() => setForm({ ...form, scope: 'all' })} />
            <span>{props.results ? t('EXPORT_SCOPE_ALL', { count: props.results }) : t('EXPORT_SCOPE_ALL_UNKNOWN')}</span>
          </label>
        </fieldset>
        <ExportFieldSelect
          fields={props.fields}
          selected={form.fieldIds}
          onChange={(fieldIds) => setForm({ ...form, fieldIds })}
          errorId={`${base}-fields-error`}
          error={shown.find((p) => p.field === 'fields') ? t('EXPORT_NO_FIELDS') : undefined}
        />
        <ExportOptions value={form} onChange={(v) => setForm({ ...form, ...v })} format={form.format} problems={shown} idBase={base} />
        {tried && problems.length > 0 && (
          <div role="alert" className="callout callout-error export-problems">
            <strong>{t('EXPORT_FIX_FIRST')}</strong>
            <ul>
              {problems.map((p, i) => (
                <li key={i}>{problemText(p, form, t)}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('DOCUMENTS_CANCEL')}
          </button>
          <button type="submit" className="button button-primary">
            {t('EXPORT_START')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
