import { useTranslation } from 'react-i18next';
import { defaultsProblems, type ExportDefaults } from '../export-request';
import { ExportOptions } from './export-options';

/** Whether the Export tab's values may be saved (the settings form asks before it writes them). */
export const exportDefaultsValid = (d: ExportDefaults): boolean => defaultsProblems(d).length === 0;

/**
 * The settings' Export tab (the user-app spec §2 Settings dialog, §3 Export settings): the defaults every
 * export dialog opens with, checked by the same rules as the dialog. Kept with the other local
 * settings (src/db/local-settings.ts exportDefaults); the settings form saves them.
 */
export function ExportSettingsTab(props: { value: ExportDefaults; onChange: (v: ExportDefaults) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="export-settings">
      <legend>{t('SETTINGS_EXPORT')}</legend>
      <p className="hint">{t('SETTINGS_EXPORT_HINT')}</p>
      <ExportOptions value={props.value} onChange={props.onChange} format="zip" problems={defaultsProblems(props.value)} idBase="settings-export" />
    </fieldset>
  );
}
