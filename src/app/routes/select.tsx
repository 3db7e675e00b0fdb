import { useEffect, useMemo, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Database } from '../../api/databases';
import { classifyError, handleError } from '../../api/error-handler';
import { useDatabases } from '../../features/select/api/get-databases';
import { DatabaseList } from '../../features/select/components/database-list';
import { getRememberedDatabase, initialSelection, rememberDatabase } from '../../features/select/select-logic';
import { sessionScope } from '../../session/session';
import { useSession } from '../../session/use-session';

/**
 * /select: the database list (GET api/dbs). One database opens at once; none shows
 * ERROR_NO_DATABASES; a failure shows ERROR_GET_DATABASES (licence problems go to the error handler).
 */
export function SelectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const dbs = useDatabases(sessionScope(session));
  const remembered = useLiveQuery(async () => ({ id: await getRememberedDatabase() }), []);
  const restricted = session?.restricted ?? false;

  const selection = useMemo(
    () => (dbs.data && remembered ? initialSelection(dbs.data, remembered.id) : null),
    [dbs.data, remembered],
  );

  function choose(d: Database) {
    void rememberDatabase(d.Id);
    void navigate(`/view?db=${d.Id}`);
  }

  // Open the one database once. Remembering it changes `remembered` (a live query), which makes a
  // new `selection`; while the next page's chunk still loads this page stays mounted, and a second
  // run of this effect would send a user who had already moved on (e.g. to Settings) back to /view.
  const autoOpened = useRef(false);
  useEffect(() => {
    if (autoOpened.current) return;
    if (selection?.autoOpen && selection.selectedId !== null && !restricted) {
      autoOpened.current = true;
      void rememberDatabase(selection.selectedId);
      void navigate(`/view?db=${selection.selectedId}`, { replace: true });
    }
  }, [selection, restricted, navigate]);

  const error = dbs.error;
  const authProblem = error ? classifyError(error).type !== 'notify' : false;
  useEffect(() => {
    if (error && authProblem) handleError(error);
  }, [error, authProblem]);

  return (
    <section className="page page-narrow" aria-labelledby="select-title">
      <h1 id="select-title">{t('SELECT_TITLE')}</h1>
      {dbs.isPending && dbs.fetchStatus !== 'idle' && <p role="status">{t('MESSAGE_LOADING')}</p>}
      {error && !authProblem && !dbs.data && (
        <div className="callout callout-error" role="alert">
          <p>{t('ERROR_GET_DATABASES')}</p>
          <button type="button" className="button" onClick={() => void dbs.refetch()}>
            {t('RETRY')}
          </button>
        </div>
      )}
      {dbs.data && dbs.data.length === 0 && (
        <p className="callout" role="alert">
          {t('ERROR_NO_DATABASES')}
        </p>
      )}
      {dbs.data && dbs.data.length > 0 && (
        <>
          <p className="hint">{t('SELECT_HINT')}</p>
          <DatabaseList databases={dbs.data} selectedId={selection?.selectedId ?? null} onChoose={choose} />
        </>
      )}
    </section>
  );
}

export { SelectPage as Component };
