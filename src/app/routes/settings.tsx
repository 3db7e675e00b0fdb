import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { HISTORY_PAGE_SIZE } from '../../api/constants';
import type { TranslationKey } from '../../i18n/resources';
import { useServerVersion } from '../../features/admin-rights/api/get-admin-rights';
import { LanguageSwitcher } from '../../features/settings/components/language-switcher';
import { PasswordChange } from '../../features/settings/components/password-change';
import { ExportSettingsTab, exportDefaultsValid } from '../../features/export/components/export-settings-tab';
import { LocalSettings, readLocalSettings, writeLocalSettings } from '../../db/local-settings';
import { notify } from '../../ui/notifications';
import { getConfig } from '../config';
import { sessionScope } from '../../session/session';
import { useSession } from '../../session/use-session';

type Flag = 'autoRunDefaultSearchOnClick' | 'showGlobalActionTasks' | 'showVersionArchive';
const FLAGS: { key: Flag; label: TranslationKey }[] = [
  { key: 'autoRunDefaultSearchOnClick', label: 'SETTINGS_AUTO_RUN' },
  { key: 'showGlobalActionTasks', label: 'SETTINGS_SHOW_GLOBAL_TASKS' },
  { key: 'showVersionArchive', label: 'SETTINGS_SHOW_VERSION_ARCHIVE' },
];

type SearchFlag = 'multiArchiveCountSort' | 'multiArchiveHideEmpty' | 'openNewTab' | 'disableOpenDoc';
/** Search options (the user-app spec §3 searchSetting) that the results screen reads. */
const SEARCH_FLAGS: { key: SearchFlag; label: TranslationKey }[] = [
  { key: 'multiArchiveCountSort', label: 'SETTINGS_MULTI_ARCHIVE_COUNT_SORT' },
  { key: 'multiArchiveHideEmpty', label: 'SETTINGS_MULTI_ARCHIVE_HIDE_EMPTY' },
  // How the results grid opens a document in the viewer: a new tab, or not at all.
  { key: 'openNewTab', label: 'SETTINGS_OPEN_NEW_TAB' },
  { key: 'disableOpenDoc', label: 'SETTINGS_DISABLE_OPEN_DOC' },
];

/** Archive history page sizes offered (the spec's 25 first); a stored other size stays selectable. */
const HISTORY_PAGE_SIZES = [HISTORY_PAGE_SIZE, 50, 100];
const historyPageSizes = (current: number): number[] => (HISTORY_PAGE_SIZES.includes(current) ? HISTORY_PAGE_SIZES : [...HISTORY_PAGE_SIZES, current].sort((a, b) => a - b));

/** /settings: General (language, local flags, search options), the scanner's helper ports, Export defaults, and the own password. */
export function SettingsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const version = useServerVersion(sessionScope(session));
  const [settings, setSettings] = useState<LocalSettings | null>(null);

  useEffect(() => {
    void readLocalSettings().then(setSettings);
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!settings) return;
    // The Export tab shows what is wrong beside its field; nothing is saved until it is corrected.
    if (!exportDefaultsValid(settings.exportDefaults)) {
      notify('error', t('SETTINGS_INVALID'));
      return;
    }
    await writeLocalSettings(settings);
    notify('success', t('SETTINGS_SAVED'));
  }

  return (
    <section className="page page-narrow" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('SETTINGS_TITLE')}</h1>
      <form className="card" onSubmit={(e) => void save(e)}>
        <fieldset>
          <legend>{t('SETTINGS_GENERAL')}</legend>
          <LanguageSwitcher cdnUrl={getConfig().languageCdnUrl} />
          {settings &&
            FLAGS.map((f) => (
              <label key={f.key} className="check">
                <input type="checkbox" checked={settings[f.key]} onChange={(e) => setSettings({ ...settings, [f.key]: e.target.checked })} />
                <span>{t(f.label)}</span>
              </label>
            ))}
        </fieldset>
        {settings && (
          <fieldset>
            <legend>{t('SETTINGS_SEARCH_OPTIONS')}</legend>
            {SEARCH_FLAGS.map((f) => (
              <label key={f.key} className="check">
                <input
                  type="checkbox"
                  checked={settings.searchSetting[f.key]}
                  onChange={(e) => setSettings({ ...settings, searchSetting: { ...settings.searchSetting, [f.key]: e.target.checked } })}
                />
                <span>{t(f.label)}</span>
              </label>
            ))}
            <label className="field">
              <span className="field-label">{t('SETTINGS_ARCHIVE_HISTORY_PAGE_SIZE')}</span>
              <select
                value={settings.searchSetting.archHistoryPageSize}
                onChange={(e) => setSettings({ ...settings, searchSetting: { ...settings.searchSetting, archHistoryPageSize: Number(e.target.value) } })}
              >
                {historyPageSizes(settings.searchSetting.archHistoryPageSize).map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
        )}
        {settings && (
          <fieldset>
            <legend>{t('SETTINGS_SCANNER')}</legend>
            <label className="field">
              <span className="field-label">{t('SETTINGS_HELPER_PORT')}</span>
              <input type="number" min={1} max={65535} value={settings.scanner.port} onChange={(e) => setSettings({ ...settings, scanner: { ...settings.scanner, port: Number(e.target.value) } })} />
            </label>
            <label className="field">
              <span className="field-label">{t('SETTINGS_HELPER_SSL_PORT')}</span>
              <input type="number" min={1} max={65535} value={settings.scanner.sslPort} onChange={(e) => setSettings({ ...settings, scanner: { ...settings.scanner, sslPort: Number(e.target.value) } })} />
            </label>
            <label className="check">
              <input type="checkbox" checked={settings.scanner.useSsl} onChange={(e) => setSettings({ ...settings, scanner: { ...settings.scanner, useSsl: e.target.checked } })} />
              <span>{t('SETTINGS_HELPER_USE_SSL')}</span>
            </label>
          </fieldset>
        )}
        {settings && <ExportSettingsTab value={settings.exportDefaults} onChange={(exportDefaults) => setSettings({ ...settings, exportDefaults })} />}
        <button type="submit" className="button button-primary" disabled={!settings}>
          {t('SETTINGS_SAVE')}
        </button>
      </form>
      <PasswordChange />
      {version.data && <p className="hint">{t('SETTINGS_SERVER_VERSION', { version: version.data })}</p>}
    </section>
  );
}

export { SettingsPage as Component };
