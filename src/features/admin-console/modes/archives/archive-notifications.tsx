import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { notify } from '../../../../ui/notifications';
import { notificationsKey, saveNotifications, useArchiveNotifications, type ConsoleArchive, type NotificationDraft } from '../../api/archives';
import { useAdminError } from '../../ui/admin-error';
import { sanitizeTemplate } from '../../ui/sanitize';
import { NotificationsModal } from './notifications-modal';

/** The archive's notification as it is stored (the message shown sanitised), and its edit modal. */
export function ArchiveNotificationsSection(props: { dbId: number; archive: ConsoleArchive; fieldNames: readonly string[] }) {
  const { t } = useTranslation();
  const id = useId();
  const scope = sessionScope(useSession());
  const client = useQueryClient();
  const notifications = useArchiveNotifications(scope, props.dbId, props.archive.id);
  const [editing, setEditing] = useState(false);
  const onError = useAdminError();
  const n = notifications.data;
  const save = async (draft: NotificationDraft) => {
    try {
      await saveNotifications(props.dbId, props.archive.id, draft);
      await client.invalidateQueries({ queryKey: notificationsKey(scope, props.dbId, props.archive.id) });
      setEditing(false);
      notify('success', t('ADMIN_SAVED', { name: t('ADMIN_ARCHIVE_NOTIFICATIONS') }));
    } catch (e) {
      onError(e);
    }
  };
  return (
    <section className="admin-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('ADMIN_ARCHIVE_NOTIFICATIONS')}</h3>
      {n && (
        <dl className="admin-notification">
          <dt>{t('ADMIN_NOTIFY_TO')}</dt>
          <dd>{n.to || '—'}</dd>
          <dt>{t('ADMIN_NOTIFY_SUBJECT')}</dt>
          <dd>{n.subject || '—'}</dd>
          <dt>{t('ADMIN_NOTIFY_MESSAGE')}</dt>
          {/* Sanitised on display as well as on save: a stored <script> shows as inert text. */}
          <dd className="admin-preview" data-testid="notification-preview" dangerouslySetInnerHTML={{ __html: sanitizeTemplate(n.message) }} />
        </dl>
      )}
      <div>
        <button type="button" className="button" disabled={!n} onClick={() => setEditing(true)}>
          {t('ADMIN_ARCHIVE_EDIT_NOTIFICATIONS')}
        </button>
      </div>
      {editing && n && (
        <NotificationsModal value={{ to: n.to, from: n.from, subject: n.subject, message: n.message }} fieldNames={props.fieldNames} onCancel={() => setEditing(false)} onSave={save} />
      )}
    </section>
  );
}
