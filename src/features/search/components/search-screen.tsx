import { useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { classifyError, handleError } from '../../../api/error-handler';
import type { Search, SearchDetail } from '../../../api/search';
import { useOnline } from '../../../ui/offline-indicator';
import { readLocalSettings } from '../../../db/local-settings';
import { searchQueryOptions } from '../api/get-search';
import { useSearches } from '../api/get-searches';
import { buildCriteria, clampRecordsPerPage, defaultValues, resultsUrl, type CriteriaItem } from '../criteria';
import { collapsePrompts } from '../prompts';
import { isDefaultSearch, searchArchiveIds, selectedSearchId, shownSearches } from '../search-list';
import { useLocaleFormat } from '../use-locale-format';
import { SearchList } from './search-list';
import { SearchPanel } from './search-panel';
import '../search.css';

/**
 * The search screen of one database (/view and /scan): the saved searches on the left, the prompts
 * of the selected one on the right. The selected search, refine criteria and records per page live
 * in the address (search, criteria, rpp), so a reload or the results screen's "refine" reopens it.
 */
export function SearchScreen({ dbId, mode, scope }: { dbId: number; mode: 'view' | 'scan'; scope: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const online = useOnline();
  const fmt = useLocaleFormat();
  const searches = useSearches(scope, dbId);
  const settings = useLiveQuery(readLocalSettings, []);

  const all = useMemo(() => searches.data ?? [], [searches.data]);
  const shown = useMemo(() => shownSearches(all), [all]);
  const fromAddress = Number(params.get('search'));
  const addressId = Number.isInteger(fromAddress) && fromAddress > 0 ? fromAddress : null;
  const selectedId = selectedSearchId(all, addressId);
  const criteria = addressId !== null && addressId === selectedId ? params.get('criteria') : null;
  const rpp = clampRecordsPerPage(params.get('rpp'));

  const error = searches.error;
  const authProblem = error ? classifyError(error).type !== 'notify' : false;
  useEffect(() => {
    if (error && authProblem) handleError(error);
  }, [error, authProblem]);

  function run(search: SearchDetail, items: CriteriaItem[], recordsPerPage: number) {
    const archive = searchArchiveIds(search)[0];
    if (archive === undefined) return;
    void navigate(resultsUrl({ hash: search.Hash, searchId: search.Id, db: dbId, archive, criteria: items, recordsPerPage, time: Date.now() }));
  }

  async function choose(s: Search) {
    setParams({ db: String(dbId), search: String(s.Id) });
    if (!isDefaultSearch(s)) return;
    const local = settings ?? (await readLocalSettings());
    if (!local.autoRunDefaultSearchOnClick) return;
    const options = searchQueryOptions(scope, dbId, s.Id);
    if (!online && queryClient.getQueryData(options.queryKey) === undefined) return;
    const detail = await queryClient.ensureQueryData(options).catch(() => undefined);
    if (!detail) return;
    const prompts = collapsePrompts(detail.Detail ?? []);
    const built = buildCriteria(prompts, defaultValues(prompts, fmt), fmt);
    if (Object.keys(built.errors).length === 0) run(detail, built.items, rpp);
  }

  const fetchedAt = searches.dataUpdatedAt ? new Intl.DateTimeFormat(fmt.locale, { dateStyle: 'short', timeStyle: 'short' }).format(searches.dataUpdatedAt) : '';

  return (
    <div className="search-screen">
      {mode === 'scan' && (
        <p className="callout search-wide" role="note" data-testid="scan-note">
          {t('SCAN_SEARCH_NOTE')}
        </p>
      )}
      <nav className="search-sidebar" aria-labelledby="search-list-title">
        <h2 id="search-list-title">{t('SEARCH_LIST_TITLE')}</h2>
        {!online && searches.data && (
          <p className="search-hint" role="status" data-testid="search-offline-from">
            {t('SEARCH_OFFLINE_FROM', { time: fetchedAt })}
          </p>
        )}
        {!searches.data && searches.fetchStatus === 'paused' && (
          <p className="callout" role="status">
            {t('SEARCH_OFFLINE_NOT_CACHED')}
          </p>
        )}
        {!searches.data && searches.fetchStatus === 'fetching' && <p role="status">{t('MESSAGE_LOADING')}</p>}
        {error && !authProblem && !searches.data && (
          <div className="callout callout-error" role="alert">
            <p>{t('ERROR_GET_SEARCHES')}</p>
            <button type="button" className="button" onClick={() => void searches.refetch()}>
              {t('RETRY')}
            </button>
          </div>
        )}
        {searches.data && shown.length === 0 && (
          <p className="callout" role="status" data-testid="no-searches">
            {t('ERROR_NO_ARCHIVE_SEARCHES')}
          </p>
        )}
        {shown.length > 0 && <SearchList searches={shown} selectedId={selectedId} onChoose={(s) => void choose(s)} />}
      </nav>
      <section className="search-main">
        {searches.data && shown.length > 0 && selectedId === null && (
          <p className="callout" role="status" data-testid="no-default-search">
            {t('ERROR_NO_DEFAULT_SEARCH')}
          </p>
        )}
        {selectedId !== null && (
          <SearchPanel scope={scope} dbId={dbId} searchId={selectedId} criteria={criteria} recordsPerPage={rpp} fmt={fmt} onRun={run} />
        )}
      </section>
    </div>
  );
}
