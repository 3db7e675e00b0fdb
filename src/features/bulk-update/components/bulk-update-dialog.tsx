import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import { Modal } from '../../../ui/modal';
import { basicProblems, type BasicForm } from '../bulk-update-rules';
import { BasicTab } from './basic-tab';

export interface BulkUpdateDialogProps {
  fields: readonly Field[];
  searchId: number;
  checked: number;
  results: number | null;
  locale: string;
  /** The advanced tab's content (the CSV update), with its own Count button. */
  advanced: ReactNode;
  counting: boolean;
  onCountBasic: (form: BasicForm) => void;
  onClose: () => void;
}

type Tab = 'basic' | 'advanced';

/**
 * The bulk update dialogs (the user-app spec §2): Basic and Advanced tabs in one modal. Basic's Count stays
 * usable: with something to fix it says what and moves focus there (as the export dialog does).
 * Mounted fresh for each opening (keyed by the caller).
 */
export function BulkUpdateDialog(props: BulkUpdateDialogProps) {
  const { t } = useTranslation();
  const base = useId();
  const [tab, setTab] = useState<Tab>('basic');
  const [form, setForm] = useState<BasicForm>(() => ({ scope: props.checked > 0 || props.results === null ? 'checked' : 'all', values: {} }));
  const [tried, setTried] = useState(false);
  const problems = basicProblems(form, props.fields, { searchId: props.searchId, checked: props.checked }, props.locale);
  const inputId = (id: number) => `${base}-field-${id}`;
  const general = problems.filter((p) => typeof p.field !== 'number');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problems.length) {
      setTried(true);
      const first = problems.find((p) => typeof p.field === 'number');
      if (first) document.getElementById(inputId(first.field as number))?.focus();
      return;
    }
    props.onCountBasic(form);
  };

  const tabButton = (id: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`${base}-tab-${id}`}
      aria-selected={tab === id}
      aria-controls={`${base}-panel-${id}`}
      className="bulk-tab"
      onClick={() => setTab(id)}
    >
      {label}
    </button>
  );

  return (
    <Modal open title={t('BULK_UPDATE_TITLE')} onClose={props.onClose} className="bulk-update-modal">
      <div role="tablist" aria-label={t('BULK_UPDATE_TITLE')} className="bulk-tabs">
        {tabButton('basic', t('BULK_UPDATE_TAB_BASIC'))}
        {tabButton('advanced', t('BULK_UPDATE_TAB_ADVANCED'))}
      </div>
      {tab === 'basic' ? (
        <form id={`${base}-panel-basic`} role="tabpanel" aria-labelledby={`${base}-tab-basic`} onSubmit={submit} noValidate>
          <BasicTab form={form} onChange={setForm} fields={props.fields} checked={props.checked} results={props.results} problems={problems} inputId={inputId} />
          {tried && general.length > 0 && (
            <ul className="bulk-problems" role="alert">
              {general.map((p) => (
                <li key={String(p.field)}>{t(p.key as 'ERROR_UNKNOWN')}</li>
              ))}
            </ul>
          )}
          <div className="modal-actions">
            <button type="button" className="button" onClick={props.onClose}>
              {t('BULK_UPDATE_CANCEL')}
            </button>
            <button type="submit" className="button primary" disabled={props.counting}>
              {t(props.counting ? 'BULK_UPDATE_COUNTING' : 'BULK_UPDATE_COUNT')}
            </button>
          </div>
        </form>
      ) : (
        <div id={`${base}-panel-advanced`} role="tabpanel" aria-labelledby={`${base}-tab-advanced`}>
          {props.advanced}
        </div>
      )}
    </Modal>
  );
}
