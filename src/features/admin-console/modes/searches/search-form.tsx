import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FUZZINESS_MAX, SEARCH_NAME_MAX, warnsNoArchives } from '../../../../api/admin-searches';
import type { TranslationKey } from '../../../../i18n/resources';
import type { ConsoleSearch, DesignerArchive, SearchDraft } from '../../api/searches';
import { IconPicker } from './icon-picker';
import { ParametersTable } from './parameters-table';
import { searchFieldChoices } from './search-rules';

type Flag = 'advancedGrouping' | 'grantAll' | 'multiValue' | 'displayViewTabs' | 'useTime' | 'shownInList' | 'isDefault';
const FLAGS: [Flag, TranslationKey][] = [
  ['shownInList', 'ADMIN_SEARCH_SHOWN'],
  ['isDefault', 'ADMIN_SEARCH_DEFAULT'],
  ['grantAll', 'ADMIN_SEARCH_GRANT_ALL'],
  ['advancedGrouping', 'ADMIN_SEARCH_ADVANCED_GROUPING'],
  ['multiValue', 'ADMIN_SEARCH_MULTI_VALUE'],
  ['displayViewTabs', 'ADMIN_SEARCH_VIEW_TABS'],
  ['useTime', 'ADMIN_SEARCH_USE_TIME'],
];

/**
 * The fields of one search in its editor (the console spec §3 Search): name, parent, archives
 * (versions archives are not offered, §5), icon, parameters, the flags and the content-search
 * options, with the §5 warning for a top-level search without archives.
 */
export function SearchForm(props: { copy: SearchDraft; setCopy: (next: SearchDraft) => void; selfId: number | null; searches: readonly ConsoleSearch[]; archives: readonly DesignerArchive[] }) {
  const { t } = useTranslation();
  const id = useId();
  const { copy, setCopy } = props;
  const set = (p: Partial<SearchDraft>) => setCopy({ ...copy, ...p });
  const offered = props.archives.filter((a) => !a.isVersions);
  const choices = searchFieldChoices(props.archives, copy.archives);
  const parents = props.searches.filter((s) => s.id !== props.selfId);

  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('ADMIN_SEARCH_NAME')}
        </label>
        <input id={`${id}-name`} value={copy.name} maxLength={SEARCH_NAME_MAX} required onChange={(e) => set({ name: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-parent`}>
          {t('ADMIN_SEARCH_PARENT')}
        </label>
        <select id={`${id}-parent`} value={copy.parent} onChange={(e) => set({ parent: Number(e.target.value) })}>
          <option value={0}>{t('ADMIN_SEARCH_PARENT_NONE')}</option>
          {parents.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="admin-section">
        <legend>{t('ADMIN_SEARCH_ARCHIVES')}</legend>
        <ul className="admin-picklist">
          {offered.map((a) => (
            <li key={a.id}>
              <input
                type="checkbox"
                id={`${id}-a${a.id}`}
                checked={copy.archives.includes(a.id)}
                onChange={(e) => set({ archives: e.target.checked ? [...copy.archives, a.id] : copy.archives.filter((x) => x !== a.id) })}
              />
              <label htmlFor={`${id}-a${a.id}`} className="grow">
                {a.parent !== null ? '— ' : ''}
                {a.name}
              </label>
            </li>
          ))}
        </ul>
        {warnsNoArchives(copy.parent, copy.archives) && (
          <p className="callout" role="status" data-testid="search-no-archives">
            {t('ADMIN_SEARCH_WARN_NO_ARCHIVES')}
          </p>
        )}
      </fieldset>
      <IconPicker value={copy.icon} onChange={(icon) => set({ icon })} />
      <ParametersTable value={copy.parameters} onChange={(parameters) => set({ parameters })} fields={choices.fields} contentSearch={choices.contentSearch} />
      <fieldset className="admin-section">
        <legend>{t('ADMIN_SEARCH_OPTIONS')}</legend>
        <div className="admin-checks">
          {FLAGS.map(([flag, label]) => (
            <label key={flag} className="admin-check">
              <input type="checkbox" checked={copy[flag]} onChange={(e) => set({ [flag]: e.target.checked })} />
              {t(label)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="admin-section">
        <legend>{t('ADMIN_SEARCH_CONTENT_OPTIONS')}</legend>
        <div className="admin-checks">
          <label className="admin-check">
            <input type="checkbox" checked={copy.contentSearch.phonics} onChange={(e) => set({ contentSearch: { ...copy.contentSearch, phonics: e.target.checked } })} />
            {t('ADMIN_SEARCH_PHONICS')}
          </label>
          <label className="admin-check">
            <input type="checkbox" checked={copy.contentSearch.stemming} onChange={(e) => set({ contentSearch: { ...copy.contentSearch, stemming: e.target.checked } })} />
            {t('ADMIN_SEARCH_STEMMING')}
          </label>
          <label className="admin-check">
            {t('ADMIN_SEARCH_FUZZINESS', { max: FUZZINESS_MAX })}
            <input
              type="number"
              min={0}
              max={FUZZINESS_MAX}
              value={copy.contentSearch.fuzziness}
              onChange={(e) => set({ contentSearch: { ...copy.contentSearch, fuzziness: Math.max(0, Math.min(FUZZINESS_MAX, Math.trunc(Number(e.target.value) || 0))) } })}
            />
          </label>
        </div>
      </fieldset>
    </>
  );
}
