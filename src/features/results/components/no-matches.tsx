import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * What the results screen shows instead of an empty grid when the search matched nothing: that it
 * matched nothing, and the way back to the search form with the criteria kept (`refine`, the same
 * address as the header's Refine search).
 */
export function NoMatches({ refine }: { refine: string }) {
  const { t } = useTranslation();
  return (
    <div className="results-no-matches" role="status" data-testid="results-no-matches">
      <h2 className="results-no-matches-title">{t('RESULTS_NO_MATCHES')}</h2>
      <p>{t('RESULTS_NO_MATCHES_HINT')}</p>
      <Link className="button button-primary" to={refine}>
        {t('RESULTS_NO_MATCHES_REFINE')}
      </Link>
    </div>
  );
}
