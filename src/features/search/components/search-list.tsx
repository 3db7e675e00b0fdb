import { useTranslation } from 'react-i18next';
import type { Search } from '../../../api/search';
import { isDefaultSearch } from '../search-list';

/** The saved searches as buttons named by the search name; the selected one is marked current. */
export function SearchList(props: { searches: readonly Search[]; selectedId: number | null; onChoose: (s: Search) => void }) {
  const { t } = useTranslation();
  return (
    <ul className="search-list" data-testid="search-list">
      {props.searches.map((s) => {
        const selected = s.Id === props.selectedId;
        return (
          <li key={s.Id} className={selected ? 'search-list-item search-list-selected' : 'search-list-item'}>
            <button type="button" className="choice-button search-list-button" aria-current={selected ? 'true' : undefined} onClick={() => props.onChoose(s)}>
              {s.Name}
            </button>
            {isDefaultSearch(s) && (
              <span className="badge" aria-hidden="true">
                {t('SEARCH_DEFAULT_BADGE')}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
