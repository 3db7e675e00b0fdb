import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';

interface EditCopyProps<T> {
  open: boolean;
  title: string;
  value: T;
  onSave: (copy: T) => void | Promise<void>;
  onCancel: () => void;
  children: (copy: T, setCopy: (next: T) => void) => ReactNode;
  problem?: (copy: T) => string | null;
  saveLabel?: string;
  className?: string;
}

/**
 * A modal that edits a copy (the console spec §2 "Each modal keeps a copy of the edited object so
 * cancel restores the original"): the copy is made when the modal opens (structuredClone, so nested
 * lists are not shared with the original); Cancel or Escape throws it away; Save hands it over.
 * `problem` names what keeps it from being saved (shown, and Save disabled).
 */
export function EditCopyModal<T>(props: EditCopyProps<T>) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel} className={`admin-modal ${props.className ?? ''}`}>
      {/* Mounted while open only (Modal renders its children then): each opening starts from a new copy. */}
      <EditCopyForm {...props} />
    </Modal>
  );
}

function EditCopyForm<T>(props: EditCopyProps<T>) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<T>(() => structuredClone(props.value));
  const [saving, setSaving] = useState(false);
  const problem = props.problem?.(copy) ?? null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problem || saving) return;
    setSaving(true);
    try {
      await props.onSave(copy);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)}>
      {props.children(copy, setCopy)}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('ADMIN_CANCEL')}
        </button>
        <button type="submit" className="button button-primary" disabled={problem !== null || saving}>
          {props.saveLabel ?? t('ADMIN_SAVE')}
        </button>
      </div>
    </form>
  );
}
