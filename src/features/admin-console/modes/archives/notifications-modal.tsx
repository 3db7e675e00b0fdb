import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationDraft } from '../../api/archives';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { RichTextEditor } from '../../ui/rich-text-editor';

/** The archive's notification (§3): to, from, subject and the message in the rich-text editor with its insert-field menu. */
export function NotificationsModal(props: { value: NotificationDraft; fieldNames: readonly string[]; onCancel: () => void; onSave: (n: NotificationDraft) => Promise<void> }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <EditCopyModal open className="admin-modal-wide" title={t('ADMIN_ARCHIVE_NOTIFICATIONS')} value={props.value} onCancel={props.onCancel} onSave={props.onSave}>
      {(n, set) => (
        <>
          {(['to', 'from', 'subject'] as const).map((k) => (
            <div className="field" key={k}>
              <label className="field-label" htmlFor={`${id}-${k}`}>
                {t(k === 'to' ? 'ADMIN_NOTIFY_TO' : k === 'from' ? 'ADMIN_NOTIFY_FROM' : 'ADMIN_NOTIFY_SUBJECT')}
              </label>
              <input id={`${id}-${k}`} value={n[k]} autoComplete="off" onChange={(e) => set({ ...n, [k]: e.target.value })} />
            </div>
          ))}
          <RichTextEditor label={t('ADMIN_NOTIFY_MESSAGE')} value={n.message} fields={props.fieldNames} onChange={(message) => set({ ...n, message })} />
        </>
      )}
    </EditCopyModal>
  );
}
