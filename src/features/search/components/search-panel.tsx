import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchDetail } from '../../../api/search';
import { useSearch } from '../api/get-search';
import { defaultValues, parseCriteria, valuesFromCriteria, type CriteriaItem } from '../criteria';
import { collapsePrompts } from '../prompts';
import { searchArchiveIds } from '../search-list';
import type { SearchLocaleFormat } from '../use-locale-format';
import { SearchForm } from './search-form';

export interface SearchPanelProps {
  scope: string | null;
  dbId: number;
  searchId: number;
  /** SearchCriteria JSON from the address (refine search), filled in over the defaults. */
  criteria: string | null;
  recordsPerPage: number;
  fmt: SearchLocaleFormat;
  onRun: (search: SearchDetail, criteria: CriteriaItem[], recordsPerPage: number) => void;
}

/** Loads one search (from the persisted cache first) and shows its prompt form. */
export function SearchPanel(props: SearchPanelProps) {
  const { t } = useTranslation();
  const { fmt } = props;
  const q = useSearch(props.scope, props.dbId, props.searchId);
  const search = q.data;
  const prompts = useMemo(() => collapsePrompts(search?.Detail ?? []), [search]);
  const initialValues = useMemo(
    () => (props.criteria ? valuesFromCriteria(prompts, parseCriteria(props.criteria), fmt) : defaultValues(prompts, fmt)),
    [prompts, props.criteria, fmt],
  );

  if (!search) {
    if (q.fetchStatus === 'paused') return <p className="callout" role="status">{t('SEARCH_OFFLINE_NOT_CACHED')}</p>;
    if (q.isError) {
      return (
        <div className="callout callout-error" role="alert">
          <p>{t('ERROR_GET_SEARCH')}</p>
          <button type="button" className="button" onClick={() => void q.refetch()}>
            {t('RETRY')}
          </button>
        </div>
      );
    }
    return <p role="status">{t('MESSAGE_LOADING')}</p>;
  }
  const archiveIds = searchArchiveIds(search);
  return (
    <>
      {archiveIds.length === 0 && (
        <p className="callout" role="status">
          {t('SEARCH_NO_ARCHIVE')}
        </p>
      )}
      <SearchForm
        key={`${search.Id}|${props.criteria ?? ''}|${fmt.locale}`}
        search={search}
        prompts={prompts}
        archiveIds={archiveIds}
        initialValues={initialValues}
        initialRecordsPerPage={props.recordsPerPage}
        ctx={{ scope: props.scope, dbId: props.dbId, fmt }}
        onRun={(criteria, rpp) => props.onRun(search, criteria, rpp)}
      />
    </>
  );
}
