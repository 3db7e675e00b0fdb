import { useTranslation } from 'react-i18next';
import { CONTENT_SEARCH_FIELD } from '../../../../api/admin-searches';
import type { ConsoleSearch, DesignerArchive } from '../../api/searches';
import { CONDITION_LABELS } from './parameters-table';

/** One search as the console shows it beside the list, with Edit and Delete. */
export function SearchDetailView(props: { search: ConsoleSearch; archives: readonly DesignerArchive[]; searches: readonly ConsoleSearch[]; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const s = props.search;
  const archiveName = (id: number) => props.archives.find((a) => a.id === id)?.name ?? `#${id}`;
  const fieldName = (id: number) => (id === CONTENT_SEARCH_FIELD ? t('ADMIN_SEARCH_CONTENT_FIELD') : (props.archives.flatMap((a) => a.fields).find((f) => f.id === id)?.name ?? `#${id}`));
  const parent = props.searches.find((x) => x.id === s.parent);
  return (
    <div className="admin-search-detail" data-testid="search-detail">
      <div className="admin-toolbar">
        <h3 className="admin-title">{s.name}</h3>
        <div className="admin-row">
          <button type="button" className="button button-primary" onClick={props.onEdit}>
            {t('ADMIN_EDIT')}
          </button>
          <button type="button" className="button" onClick={props.onDelete}>
            {t('ADMIN_DELETE')}
          </button>
        </div>
      </div>
      <dl className="admin-facts">
        <dt>{t('ADMIN_SEARCH_PARENT')}</dt>
        <dd>{parent ? parent.name : t('ADMIN_SEARCH_PARENT_NONE')}</dd>
        <dt>{t('ADMIN_SEARCH_ARCHIVES')}</dt>
        <dd>{s.archives.length ? s.archives.map(archiveName).join(', ') : '—'}</dd>
        <dt>{t('ADMIN_SEARCH_ICON')}</dt>
        <dd>{s.icon ?? '—'}</dd>
        <dt>{t('ADMIN_SEARCH_SHOWN')}</dt>
        <dd>{s.shownInList ? t('ADMIN_YES') : t('ADMIN_NO')}</dd>
      </dl>
      <h4>{t('ADMIN_SEARCH_PARAMETERS')}</h4>
      {s.parameters.length ? (
        <ol className="admin-param-summary">
          {s.parameters.map((p, i) => (
            <li key={i}>
              {p.prompt} — {fieldName(p.field)}, {t(CONDITION_LABELS[p.condition])}
            </li>
          ))}
        </ol>
      ) : (
        <p className="hint">—</p>
      )}
    </div>
  );
}
