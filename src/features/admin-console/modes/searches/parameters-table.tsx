import { useTranslation } from 'react-i18next';
import { CONTENT_SEARCH_FIELD, conditionsFor } from '../../../../api/admin-searches';
import type { SearchCondition } from '../../../../api/search';
import type { TranslationKey } from '../../../../i18n/resources';
import type { SearchDraft } from '../../api/searches';

type Parameter = SearchDraft['parameters'][number];

export const CONDITION_LABELS: Record<SearchCondition, TranslationKey> = {
  Contains: 'ADMIN_SEARCH_COND_CONTAINS',
  Equals: 'ADMIN_SEARCH_COND_EQUALS',
  IsEmpty: 'ADMIN_SEARCH_COND_IS_EMPTY',
  IsNotEmpty: 'ADMIN_SEARCH_COND_IS_NOT_EMPTY',
  Range: 'ADMIN_SEARCH_COND_RANGE',
};

/**
 * A search's parameters (the console spec §3: field, prompt, condition): one row each, in the order
 * the user app asks them. `fields` are those of the chosen archives; a parameter whose field is not
 * among them is marked (the server drops it on save, FIELD_DELETED_EDIT_SEARCH_MSG).
 */
export function ParametersTable(props: {
  value: Parameter[];
  onChange: (next: Parameter[]) => void;
  fields: readonly { id: number; name: string }[];
  contentSearch: boolean;
}) {
  const { t } = useTranslation();
  const { value, onChange, fields } = props;
  const set = (i: number, p: Partial<Parameter>) => onChange(value.map((x, j) => (j === i ? { ...x, ...p } : x)));
  const move = (i: number, by: number) => {
    const next = [...value];
    const [p] = next.splice(i, 1);
    next.splice(i + by, 0, p!);
    onChange(next);
  };
  const known = (f: number) => f === CONTENT_SEARCH_FIELD || fields.some((x) => x.id === f);
  const first = fields[0];

  return (
    <fieldset className="admin-section admin-params">
      <legend>{t('ADMIN_SEARCH_PARAMETERS')}</legend>
      {value.length > 0 && (
        <div className="admin-param-head" aria-hidden="true">
          <span>{t('ADMIN_SEARCH_PARAM_FIELD')}</span>
          <span>{t('ADMIN_SEARCH_PARAM_PROMPT')}</span>
          <span>{t('ADMIN_SEARCH_PARAM_CONDITION')}</span>
        </div>
      )}
      <ol className="admin-param-list">
        {value.map((p, i) => {
          const n = i + 1;
          const ok = known(p.field);
          return (
            <li key={i} className="admin-param-row" data-testid="search-parameter">
              <select
                aria-label={t('ADMIN_SEARCH_PARAM_FIELD_N', { n })}
                value={ok ? p.field : ''}
                aria-invalid={!ok}
                onChange={(e) => {
                  const field = Number(e.target.value);
                  const conds = conditionsFor(field);
                  // A prompt still named after the old field follows the new one.
                  const oldName = fields.find((x) => x.id === p.field)?.name;
                  const prompt = p.prompt === '' || p.prompt === oldName ? (fields.find((x) => x.id === field)?.name ?? '') : p.prompt;
                  set(i, { field, prompt, condition: conds.includes(p.condition) ? p.condition : conds[0]! });
                }}
              >
                {!ok && <option value="">{t('ADMIN_SEARCH_PARAM_MISSING', { id: p.field })}</option>}
                {props.contentSearch && <option value={CONTENT_SEARCH_FIELD}>{t('ADMIN_SEARCH_CONTENT_FIELD')}</option>}
                {fields.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
              <input aria-label={t('ADMIN_SEARCH_PARAM_PROMPT_N', { n })} value={p.prompt} maxLength={200} onChange={(e) => set(i, { prompt: e.target.value })} />
              <select aria-label={t('ADMIN_SEARCH_PARAM_CONDITION_N', { n })} value={p.condition} onChange={(e) => set(i, { condition: e.target.value as SearchCondition })}>
                {conditionsFor(p.field).map((c) => (
                  <option key={c} value={c}>
                    {t(CONDITION_LABELS[c])}
                  </option>
                ))}
              </select>
              <div className="admin-row admin-param-actions">
                <button type="button" className="button" aria-label={t('ADMIN_SEARCH_PARAM_UP', { n })} disabled={i === 0} onClick={() => move(i, -1)}>
                  ↑
                </button>
                <button type="button" className="button" aria-label={t('ADMIN_SEARCH_PARAM_DOWN', { n })} disabled={i === value.length - 1} onClick={() => move(i, 1)}>
                  ↓
                </button>
                <button type="button" className="button" aria-label={t('ADMIN_SEARCH_PARAM_REMOVE', { n })} onClick={() => onChange(value.filter((_, j) => j !== i))}>
                  ✕
                </button>
              </div>
              {!ok && (
                <p className="form-error admin-param-note" role="status">
                  {t('ADMIN_SEARCH_PARAM_NOT_IN_ARCHIVES')}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <div>
        <button
          type="button"
          className="button"
          disabled={!first && !props.contentSearch}
          onClick={() => onChange([...value, first ? { field: first.id, prompt: first.name, condition: 'Equals' } : { field: CONTENT_SEARCH_FIELD, prompt: '', condition: 'Contains' }])}
        >
          {t('ADMIN_SEARCH_PARAM_ADD')}
        </button>
      </div>
    </fieldset>
  );
}
