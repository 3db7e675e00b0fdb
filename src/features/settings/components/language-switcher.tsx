import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, applyLanguage, resolveLanguage, type LanguageCode } from '../../../i18n/languages';

/** Language choice; the map is fetched (CDN, then server) or taken from the offline cache. */
export function LanguageSwitcher({ cdnUrl }: { cdnUrl: string }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const current = resolveLanguage(i18n.language);
  return (
    <label className="field">
      <span className="field-label">{t('SETTINGS_LANGUAGE')}</span>
      <select
        value={current}
        disabled={busy}
        onChange={(e) => {
          setBusy(true);
          void applyLanguage(e.target.value as LanguageCode, { cdnUrl }).finally(() => setBusy(false));
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {t(`LANGUAGE_${code}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
