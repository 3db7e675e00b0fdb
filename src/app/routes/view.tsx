import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { validateLicenceQueryOptions } from '../../features/licence/api/validate-licence';
import { SearchScreen } from '../../features/search/components/search-screen';
import { useDatabases } from '../../features/select/api/get-databases';
import { getRememberedDatabase, rememberDatabase } from '../../features/select/select-logic';
import { getConfig } from '../config';
import { sessionScope } from '../../session/session';
import { useSession } from '../../session/use-session';
import { lazyNamed } from '../../ui/lazy-named';

/**
 * /view and /scan: the search screen of one database (saved searches and their prompts; /scan shows
 * the same list and says scanning itself comes later). Without db in the address the remembered
 * database is used; with none, /select. Query: db, search, criteria and rpp (refine search).
 */
export function ViewPage({ mode }: { mode: 'view' | 'scan' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const session = useSession();
  const token = session?.token ?? null;
  const scope = sessionScope(session);
  const dbs = useDatabases(scope);
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
      {dbId !== null && <SearchScreen key={dbId} dbId={dbId} mode={mode} scope={scope} />}
    </section>
  );
}

/** /view with ImportDoc: a burst's import document to index (routes/burst-index.tsx), loaded only then. */
const BurstIndexPage = lazyNamed(() => import('./burst-index'), 'Component');

export function Component() {
  const [params] = useSearchParams();
  if (params.has('ImportDoc')) return <BurstIndexPage />;
  return <ViewPage mode="view" />;
}
