import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inboxNameProblem, type Inbox } from '../../../api/inboxes';
import { Modal } from '../../../ui/modal';

/** Rename one inbox file: the new name is checked by the same rule as the server's (inboxNameProblem). */
export function RenameModal(props: { fileName: string | null; taken: readonly string[]; onClose: () => void; onRename: (newName: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(props.fileName ?? '');
  const [tried, setTried] = useState(false);
  const id = useId();
  const problem = inboxNameProblem(name);
  const taken = name !== props.fileName && props.taken.includes(name);
  const message = problem ? t(`INBOX_NAME_${problem.toUpperCase().replace('-', '_')}` as 'INBOX_NAME_EMPTY') : taken ? t('INBOX_FILE_EXISTS', { name }) : '';
  return (
    <Modal open={props.fileName !== null} title={t('INBOX_RENAME_TITLE', { name: props.fileName ?? '' })} onClose={props.onClose}>
      <form
        className="inbox-form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!message) props.onRename(name);
        }}
      >
        <label htmlFor={id}>{t('INBOX_NEW_NAME')}</label>
        <input id={id} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={message ? true : undefined} aria-describedby={message ? `${id}-error` : undefined} autoFocus />
        {message && (tried || name !== props.fileName) && (
          <p id={`${id}-error`} className="inbox-field-error" role="alert">
            {message}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('RESULTS_CANCEL')}
          </button>
          <button type="submit" className="button button-primary">
            {t('INBOX_RENAME')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Move the checked files to another inbox the user may change, keeping the originals or not. */
export function MoveModal(props: { open: boolean; count: number; inboxes: readonly Inbox[]; onClose: () => void; onMove: (targetId: number, deleteOriginal: boolean) => void }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<number | null>(null);
  const [keep, setKeep] = useState(false);
  const id = useId();
  const chosen = target ?? props.inboxes[0]?.Id ?? null;
  return (
    <Modal open={props.open} title={t('INBOX_MOVE_TITLE', { count: props.count })} onClose={props.onClose}>
      <form
        className="inbox-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen !== null) props.onMove(chosen, !keep);
        }}
      >
        {props.inboxes.length === 0 ? (
          <p>{t('INBOX_NO_OTHER_INBOX')}</p>
        ) : (
          <>
            <label htmlFor={id}>{t('INBOX_TARGET')}</label>
            <select id={id} value={chosen ?? ''} onChange={(e) => setTarget(Number(e.target.value))}>
              {props.inboxes.map((i) => (
                <option key={i.Id} value={i.Id}>
                  {i.Name}
                </option>
              ))}
            </select>
            <fieldset>
              <legend>{t('INBOX_ORIGINAL')}</legend>
              <label className="inbox-radio">
                <input type="radio" name={`${id}-keep`} checked={!keep} onChange={() => setKeep(false)} />
                {t('INBOX_DELETE_ORIGINAL')}
              </label>
              <label className="inbox-radio">
                <input type="radio" name={`${id}-keep`} checked={keep} onChange={() => setKeep(true)} />
                {t('INBOX_KEEP_ORIGINAL')}
              </label>
            </fieldset>
          </>
        )}
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('RESULTS_CANCEL')}
          </button>
          <button type="submit" className="button button-primary" disabled={chosen === null}>
            {t('INBOX_MOVE')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Delete the checked files, once confirmed. */
export function DeleteModal(props: { names: readonly string[]; onClose: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={props.names.length > 0} title={t('INBOX_DELETE_TITLE', { count: props.names.length })} onClose={props.onClose}>
      <p>{t('INBOX_DELETE_CONFIRM', { count: props.names.length, names: props.names.slice(0, 5).join(', ') + (props.names.length > 5 ? ' …' : '') })}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('RESULTS_CANCEL')}
        </button>
        <button type="button" className="button button-danger" onClick={props.onDelete}>
          {t('INBOX_DELETE')}
        </button>
      </div>
    </Modal>
  );
}
