import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { deleteConfirmationText, deleteConfirmed } from './delete-confirm';

interface DeleteConfirmProps {
  open: boolean;
  name: string;
  /** False for searches: just the name is typed. */
  withPrefix?: boolean;
  busy?: boolean;
  /** Options shown above the buttons (the database's drop check box). */
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The delete confirmation (the console spec §5): Delete is enabled only once 'DELETE {NAME}' (in
 * upper case; searches: the name) is typed exactly.
 */
export function DeleteConfirmDialog(props: DeleteConfirmProps) {
  const { t } = useTranslation();
  return (
    <Modal open={props.open} title={t('ADMIN_DELETE_TITLE', { name: props.name })} onClose={props.onCancel}>
      <DeleteConfirmForm {...props} />
    </Modal>
  );
}

function DeleteConfirmForm(props: DeleteConfirmProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const withPrefix = props.withPrefix ?? true;
  const expected = deleteConfirmationText(props.name, withPrefix);
  const ok = deleteConfirmed(typed, props.name, withPrefix);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ok && !props.busy) props.onConfirm();
  };
  return (
    <form onSubmit={submit} className="admin-form">
      <p>{t('ADMIN_DELETE_TYPE', { text: expected })}</p>
      <div className="field">
        <label className="field-label" htmlFor={inputId}>
          {t('ADMIN_DELETE_CONFIRM_LABEL')}
        </label>
        <input id={inputId} value={typed} autoComplete="off" autoCapitalize="characters" spellCheck={false} onChange={(e) => setTyped(e.target.value)} />
      </div>
      {props.children}
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('ADMIN_CANCEL')}
        </button>
        <button type="submit" className="button button-danger" disabled={!ok || props.busy}>
          {t('ADMIN_DELETE')}
        </button>
      </div>
    </form>
  );
}
