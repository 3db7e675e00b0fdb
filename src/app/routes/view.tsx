import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { validateLicenceQueryOptions } from '../../features/licence/api/validate-licence';
import { useDatabases } from '../../features/select/api/get-databases';
import { getRememberedDatabase, rememberDatabase } from '../../features/select/select-logic';
import { getConfig } from '../config';
import { sessionScope, useSession } from '../session';

/**
 * /view and /scan: the search (or scan) screen of one database. The search and scan features come
 * in the next issues; until then the screen names the database and says plainly it is not there yet.
 * Without db in the address the remembered database is used; with none, /select.
 */
export function ViewPage({ mode }: { mode: 'view' | 'scan' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const session = useSession();
  const token = session?.token ?? null;
  const dbs = useDatabases(sessionScope(session));
  // Opening a database checks the licence afresh: one released elsewhere ends here, not later.
  useQuery({ ...validateLicenceQueryOptions(token, getConfig().leaseRecheckSeconds), refetchOnMount: 'always' });
  const fromAddress = Number(params.get('db'));
  const remembered = useLiveQuery(async () => ({ id: await getRememberedDatabase() }), []);
  const dbId = Number.isInteger(fromAddress) && fromAddress > 0 ? fromAddress : (remembered?.id ?? null);

  useEffect(() => {
    if (dbId !== null && dbId === fromAddress) void rememberDatabase(dbId);
  }, [dbId, fromAddress]);

  if (remembered && dbId === null) return <Navigate to="/select" replace />;
  const database = dbs.data?.find((d) => d.Id === dbId);
  const name = database?.Name ?? (dbId !== null ? t('VIEW_UNKNOWN_DATABASE', { id: dbId }) : '');

  return (
    <section className="page" aria-labelledby="view-title">
      <h1 id="view-title">{mode === 'view' ? t('VIEW_TITLE') : t('SCAN_TITLE')}</h1>
      {dbId !== null && (
        <p className="subtitle" data-testid="current-database">
          {t('VIEW_DATABASE', { name })}
        </p>
      )}
      <div className="callout" role="status" data-testid="not-yet-available">
        <strong className="callout-title">{t('VIEW_NOT_AVAILABLE_TITLE')}</strong>
        <p>{mode === 'view' ? t('VIEW_NOT_AVAILABLE_MESSAGE') : t('SCAN_NOT_AVAILABLE_MESSAGE')}</p>
      </div>
    </section>
  );
}

export function Component() {
  return <ViewPage mode="view" />;
}
