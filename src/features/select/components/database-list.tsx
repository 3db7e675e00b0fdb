import { useTranslation } from 'react-i18next';
import type { Database } from '../../../api/databases';

/** The databases as buttons named by the database name; the remembered one is marked. */
export function DatabaseList(props: { databases: readonly Database[]; selectedId: number | null; onChoose: (db: Database) => void }) {
  const { t } = useTranslation();
  return (
    <ul className="choice-list" data-testid="database-list">
      {props.databases.map((d) => {
        const selected = d.Id === props.selectedId;
        return (
          <li key={d.Id} className={selected ? 'choice choice-selected' : 'choice'}>
            <button type="button" className="choice-button" aria-current={selected ? 'true' : undefined} onClick={() => props.onChoose(d)}>
              {d.Name}
            </button>
            {selected && (
              <span className="badge" aria-hidden="true">
                {t('SELECT_LAST_USED')}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
