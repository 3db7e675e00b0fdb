import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_COMPLETE_MAX } from '../../../../api/archives';
import { dynamicListWarnings } from '../../../../fields/catalogue-rules';
import type { ConsoleField } from '../../api/catalogue';
import { dependencyFields } from '../field-catalog/field-draft';
import '../field-catalog/field-catalog.css';

/**
 * The archive's fields in order (move up/down, remove) and the database's other fields to add,
 * filtered by name (at most 100 shown, the console spec §9). A dynamic list field without a field it
 * depends on, or a saved field removed that one needs, is warned about
 * (DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD / DYNAMIC_LIST_FIELD_REQUIRED_BY); `saved`: the fields as saved.
 */
export function FieldPicker(props: { all: readonly ConsoleField[]; chosen: readonly number[]; saved?: readonly number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [filter, setFilter] = useState('');
  const byId = new Map(props.all.map((f) => [f.id, f]));
  const chosen = props.chosen;
  const needle = filter.trim().toLowerCase();
  const available = props.all.filter((f) => !chosen.includes(f.id) && f.tableField == null && (!needle || f.name.toLowerCase().includes(needle))).slice(0, TEXT_COMPLETE_MAX);
  const warnings = dynamicListWarnings(props.saved ?? [], chosen, dependencyFields(props.all));
  const move = (i: number, by: number) => {
    const next = [...chosen];
    const [x] = next.splice(i, 1);
    next.splice(i + by, 0, x!);
    props.onChange(next);
  };
  return (
    <div className="admin-field-picker">
      <h3 id={`${id}-chosen`}>{t('ADMIN_ARCHIVE_FIELDS_CHOSEN', { count: chosen.length })}</h3>
      <ul className="admin-picklist" aria-labelledby={`${id}-chosen`}>
        {chosen.length === 0 && <li className="hint">{t('ADMIN_ARCHIVE_FIELDS_REQUIRED_HINT')}</li>}
        {chosen.map((fid, i) => {
          const name = byId.get(fid)?.name ?? `#${fid}`;
          return (
            <li key={fid}>
              <span className="grow">{name}</span>
              <button type="button" className="icon-button" aria-label={t('ADMIN_MOVE_UP', { name })} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </button>
              <button type="button" className="icon-button" aria-label={t('ADMIN_MOVE_DOWN', { name })} disabled={i === chosen.length - 1} onClick={() => move(i, 1)}>
                ↓
              </button>
              <button type="button" className="icon-button" aria-label={t('ADMIN_REMOVE_NAMED', { name })} onClick={() => props.onChange(chosen.filter((x) => x !== fid))}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {warnings.length > 0 && (
        <ul className="catalogue-warnings" role="status">
          {warnings.map((w) => (
            <li key={`${w.key} ${w.field} ${w.other}`}>{t(w.key, { field: w.field, other: w.other })}</li>
          ))}
        </ul>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-filter`}>
          {t('ADMIN_ARCHIVE_FIELDS_ADD')}
        </label>
        <input id={`${id}-filter`} type="search" value={filter} placeholder={t('ADMIN_FILTER')} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <ul className="admin-picklist" aria-label={t('ADMIN_ARCHIVE_FIELDS_AVAILABLE')}>
        {available.map((f) => (
          <li key={f.id}>
            <span className="grow">{f.name}</span>
            <span className="hint">{f.type}</span>
            <button type="button" className="button" aria-label={t('ADMIN_ADD_NAMED', { name: f.name })} onClick={() => props.onChange([...chosen, f.id])}>
              {t('ADMIN_ADD')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
