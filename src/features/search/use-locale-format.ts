import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocaleFormat } from './criteria';
import { browserAppLocale } from '../../i18n/locale';
import { datePattern, datePlaceholder, decimalSeparator } from './locale-format';

export interface SearchLocaleFormat extends LocaleFormat {
  locale: string;
  /** The date format shown as placeholder and in errors, e.g. MM/DD/YYYY or TT.MM.JJJJ. */
  datePlaceholder: string;
}

/** Date order and decimal separator for the app's language in the browser's region. */
export function useLocaleFormat(): SearchLocaleFormat {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const letters = { day: t('DATE_PART_DAY'), month: t('DATE_PART_MONTH'), year: t('DATE_PART_YEAR') };
  const key = `${letters.day}|${letters.month}|${letters.year}`;
  return useMemo(() => {
    const [day = 'DD', month = 'MM', year = 'YYYY'] = key.split('|');
    const locale = browserAppLocale(language);
    const date = datePattern(locale);
    return { locale, date, decimalSeparator: decimalSeparator(locale), datePlaceholder: datePlaceholder(date, { day, month, year }) };
  }, [language, key]);
}
