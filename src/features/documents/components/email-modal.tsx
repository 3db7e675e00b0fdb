import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { EMAIL_NOT_CONFIGURED_KEY } from '../../../api/documents';
import { errorText } from '../../../api/error-handler';
import { notify } from '../../../ui/notifications';
import { Modal } from '../../../ui/modal';
import { useOnline } from '../../../ui/offline-indicator';
import { emailDocument } from '../api/email-document';

export interface EmailDoc {
  id: number;
  hash: string;
  archiveId: number;
  title?: string;
}

/**
 * E-mail one document: the address (one), a subject and a message, then the server sends it. It needs
 * the server now, so offline it says so instead of queueing. A refusal keeps the form open with the
 * server's Message, so the user can read it or correct the address. A server without e-mail is said
 * before (the action is disabled with the reason: use-document-actions.tsx); should it still answer so
 * (set up meanwhile, or not known yet), the same words.
 */
export function EmailModal(props: {
  dbId: number;
  doc: EmailDoc | null;
  onClose: () => void;
  /** Where the device can share files to another app: "Share instead" hands the file to, e.g., a mail app. */
  onShare?: (doc: EmailDoc) => void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const doc = props.doc;
  const title = doc ? doc.title || `#${doc.id}` : '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!doc || sending) return;
    setSending(true);
    setError(null);
    emailDocument(props.dbId, doc, { to: to.trim(), subject: subject.trim(), message })
      .then(() => {
        notify('info', t('DOCUMENTS_EMAIL_SENT', { title, address: to.trim() }));
        props.onClose();
      })
      .catch((err: unknown) =>
        setError(isApiError(err) && err.kind === 'network' ? t('DOCUMENTS_EMAIL_OFFLINE') : isApiError(err) && err.key === EMAIL_NOT_CONFIGURED_KEY ? t('DOCUMENTS_EMAIL_NOT_SET_UP') : errorText(err)),
      )
      .finally(() => setSending(false));
  };

  return (
    <Modal open={doc !== null} title={t('DOCUMENTS_EMAIL_TITLE', { title })} onClose={props.onClose} className="documents-modal">
      <form className="documents-email" onSubmit={submit}>
        <label>
          {t('DOCUMENTS_EMAIL_TO')}
          <input type="email" required autoComplete="email" value={to} onChange={(e) => setTo(e.target.value)} maxLength={254} />
        </label>
        <label>
          {t('DOCUMENTS_EMAIL_SUBJECT')}
          <input type="text" value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={200} />
        </label>
        <label>
          {t('DOCUMENTS_EMAIL_MESSAGE')}
          <textarea rows={4} value={message} onChange={(e) => setMessage(e.target.value)} maxLength={10_000} />
        </label>
        {!online && <p role="status">{t('DOCUMENTS_EMAIL_OFFLINE')}</p>}
        {error && (
          <p role="alert" className="documents-email-error">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('DOCUMENTS_CANCEL')}
          </button>
          {props.onShare && doc && (
            <button
              type="button"
              className="button"
              disabled={!online}
              onClick={() => {
                props.onShare!(doc);
                props.onClose();
              }}
            >
              {t('DOCUMENTS_SHARE_INSTEAD')}
            </button>
          )}
          <button type="submit" className="button button-primary" disabled={sending || !online}>
            {sending ? t('DOCUMENTS_EMAIL_SENDING') : t('DOCUMENTS_EMAIL_SEND')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
