import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { filterDatabaseName } from '../../../../api/admin-databases';
import type { DatabaseDraft } from '../../api/databases';

/** The database's name (filtered as typed, §5), catalogue and server. */
export function DatabaseForm(props: { draft: DatabaseDraft; onChange: (next: DatabaseDraft) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const { draft } = props;
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('ADMIN_NAME')}
        </label>
        <input id={`${id}-name`} value={draft.name} autoComplete="off" onChange={(e) => props.onChange({ ...draft, name: filterDatabaseName(e.target.value) })} />
        <span className="hint">{t('ADMIN_DATABASE_NAME_HINT')}</span>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-catalog`}>
          {t('ADMIN_DATABASE_CATALOG')}
        </label>
        <input id={`${id}-catalog`} value={draft.catalog ?? ''} autoComplete="off" onChange={(e) => props.onChange({ ...draft, catalog: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-server`}>
          {t('ADMIN_DATABASE_SERVER')}
        </label>
        <input id={`${id}-server`} value={draft.server ?? ''} autoComplete="off" onChange={(e) => props.onChange({ ...draft, server: e.target.value })} />
      </div>
    </>
  );
}
