/**
 * The results grid as a chunk of its own: Handsontable (about 180 KB gzip of code and 24 KB of
 * styles) loads while the results or inbox screen already shows its toolbar, so the screen's first
 * paint stays within the first-screen budget. Its place holds the loading line meanwhile; once
 * loaded (or precached, offline) the grid shows at once.
 */
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../../../ui/lazy-named';
import type { ResultsGridProps } from './results-grid';

const Grid = lazyNamed(() => import('./results-grid'), 'ResultsGrid');

export function LazyResultsGrid(props: ResultsGridProps) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="results-loading-page">{t('MESSAGE_LOADING')}</p>}>
      <Grid {...props} />
    </Suspense>
  );
}
