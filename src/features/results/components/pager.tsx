import { useTranslation } from 'react-i18next';
import { pagerWindow } from '../grid-logic';

/** First / previous, up to five page numbers (current ± 2), next / last. */
export function Pager(props: { page: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const { page, total, onPage } = props;
  const pages = pagerWindow(page, total);
  return (
    <nav className="results-pager" aria-label={t('RESULTS_PAGER')}>
      <button type="button" className="button pager-button" onClick={() => onPage(1)} disabled={page <= 1} aria-label={t('RESULTS_FIRST_PAGE')}>
        «
      </button>
      <button type="button" className="button pager-button" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label={t('RESULTS_PREVIOUS_PAGE')}>
        ‹
      </button>
      {pages.map((p) => (
        <button
          key={p}
          type="button"
          className={`button pager-button${p === page ? ' button-primary' : ''}`}
          onClick={() => onPage(p)}
          aria-label={t('RESULTS_PAGE_N', { page: p })}
          aria-current={p === page ? 'page' : undefined}
        >
          {p}
        </button>
      ))}
      <button type="button" className="button pager-button" onClick={() => onPage(page + 1)} disabled={page >= total} aria-label={t('RESULTS_NEXT_PAGE')}>
        ›
      </button>
      <button type="button" className="button pager-button" onClick={() => onPage(total)} disabled={page >= total} aria-label={t('RESULTS_LAST_PAGE')}>
        »
      </button>
    </nav>
  );
}
