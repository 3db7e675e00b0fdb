import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-handler';
import { INBOX_PAGE_DEFAULTS, type InboxDocument } from '../../../api/inboxes';
import { Modal } from '../../../ui/modal';
import { useInboxFiles, useInboxes } from '../api/get-inboxes';
import { APPEND_TYPE_DEFAULT, AppendTypeChoice, type AppendType } from './merge-modal';

export interface ChosenInboxFile {
  inboxId: number;
  inboxName: string;
  path: string;
  fileName: string;
}

const PAGE_SIZE = INBOX_PAGE_DEFAULTS.numberOfDocuments;

/**
 * The inbox-document selector for append (the user-app spec §2; the archive-ops spec "Modals"): pick one of
 * the user's inboxes (those of this database), then one of its files from a paged list showing the
 * inbox's fixed columns (file name, format, dates), then whether the file stays in its inbox. Listing
 * needs the server; the append itself is queued in the outbox.
 */
export function AppendModal(props: { open: boolean; scope: string | null; dbId: number; title: string; onConfirm: (file: ChosenInboxFile, appendType: AppendType) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const inboxes = useInboxes(props.scope, props.open);
  const mine = useMemo(() => (inboxes.data ?? []).filter((i) => i.DatabaseId == null || i.DatabaseId === props.dbId), [inboxes.data, props.dbId]);
  const [picked, setPicked] = useState<number | null>(null);
  const inbox = mine.find((i) => i.Id === picked) ?? mine[0] ?? null;
  const [page, setPage] = useState(1);
  const files = useInboxFiles(props.scope, inbox?.Id ?? null, page, PAGE_SIZE);
  const [chosen, setChosen] = useState<string | null>(null);
  const [appendType, setAppendType] = useState<AppendType>(APPEND_TYPE_DEFAULT);
  const radios = useId();
  const keep = useId();
  const selectId = useId();
  const date = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }), [i18n.language]);
  const shown = (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : '');
  const list = files.data?.Files ?? [];
  const pages = Math.max(1, Math.ceil((files.data?.Count ?? 0) / PAGE_SIZE));
  const file = list.find((f) => (f.Path ?? f.FileName) === chosen) ?? null;
  const offline = (inboxes.data === undefined && inboxes.fetchStatus === 'paused') || (files.data === undefined && files.fetchStatus === 'paused');

  const chooseInbox = (id: number) => {
    setPicked(id);
    setPage(1);
    setChosen(null);
  };
  const confirm = (f: InboxDocument) => inbox && props.onConfirm({ inboxId: inbox.Id, inboxName: inbox.Name, path: f.Path ?? f.FileName, fileName: f.FileName }, appendType);

  let body;
  if (offline) body = <p role="status">{t('DOCUMENTS_INBOX_OFFLINE')}</p>;
  else if (inboxes.isPending) body = <p role="status">{t('MESSAGE_LOADING')}</p>;
  else if (inboxes.isError)
    body = (
      <p role="alert" className="documents-email-error">
        {errorText(inboxes.error)}
      </p>
    );
  else if (mine.length === 0) body = <p role="status">{t('DOCUMENTS_NO_INBOXES')}</p>;
  else
    body = (
      <>
        <label htmlFor={selectId} className="documents-inbox-label">
          {t('DOCUMENTS_INBOX')}
        </label>
        <select id={selectId} className="documents-inbox-select" value={inbox?.Id ?? ''} onChange={(e) => chooseInbox(Number(e.target.value))}>
          {mine.map((i) => (
            <option key={i.Id} value={i.Id}>
              {i.Count !== undefined ? `${i.Name} (${i.Count})` : i.Name}
            </option>
          ))}
        </select>
        <fieldset className="documents-inbox-files" aria-busy={files.isFetching}>
          <legend>{t('DOCUMENTS_INBOX_FILES', { inbox: inbox?.Name ?? '' })}</legend>
          <div className="documents-inbox-row documents-inbox-head" aria-hidden="true">
            <span />
            <span>{t('DOCUMENTS_INBOX_FILE_NAME')}</span>
            <span>{t('DOCUMENTS_INBOX_FILE_FORMAT')}</span>
            <span>{t('DOCUMENTS_INBOX_DATE_CREATED')}</span>
            <span>{t('DOCUMENTS_INBOX_DATE_MODIFIED')}</span>
          </div>
          {files.isPending ? (
            <p role="status">{t('MESSAGE_LOADING')}</p>
          ) : files.isError ? (
            <p role="alert" className="documents-email-error">
              {errorText(files.error)}
            </p>
          ) : list.length === 0 ? (
            <p role="status">{t('DOCUMENTS_INBOX_EMPTY')}</p>
          ) : (
            list.map((f) => {
              const path = f.Path ?? f.FileName;
              return (
                <label key={path} className="documents-inbox-row">
                  <input type="radio" name={radios} value={path} checked={chosen === path} onChange={() => setChosen(path)} />
                  <span className="documents-inbox-name">{f.FileName}</span>
                  <span>{f.FileType ?? ''}</span>
                  <span>{shown(f.DateCreated)}</span>
                  <span>{shown(f.DateModified)}</span>
                </label>
              );
            })
          )}
        </fieldset>
        {pages > 1 && (
          <nav className="documents-inbox-pager" aria-label={t('DOCUMENTS_INBOX_FILES', { inbox: inbox?.Name ?? '' })}>
            <button type="button" className="button" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
              {t('DOCUMENTS_PREVIOUS_PAGE')}
            </button>
            <span role="status">{t('DOCUMENTS_PAGE_OF', { page, pages })}</span>
            <button type="button" className="button" disabled={page >= pages} onClick={() => setPage((p) => Math.min(pages, p + 1))}>
              {t('DOCUMENTS_NEXT_PAGE')}
            </button>
          </nav>
        )}
        <AppendTypeChoice name={keep} value={appendType} onChange={setAppendType} remove={t('DOCUMENTS_APPEND_REMOVE')} keep={t('DOCUMENTS_APPEND_KEEP')} />
      </>
    );

  return (
    <Modal open={props.open} title={t('DOCUMENTS_APPEND_TITLE', { title: props.title })} onClose={props.onClose} className="documents-modal documents-append-modal">
      {body}
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('DOCUMENTS_CANCEL')}
        </button>
        <button type="button" className="button button-primary" disabled={file === null} onClick={() => file && confirm(file)}>
          {t('DOCUMENTS_APPEND')}
        </button>
      </div>
    </Modal>
  );
}
