import { useTranslation } from 'react-i18next';
import type { ModeProps } from '../../mode-props';

/** Placeholder until this mode is built (issue 13): the shell can show it already. */
export default function Mode(_props: ModeProps) {
  const { t } = useTranslation();
  return <p className="hint">{t('ADMIN_MODE_LOADING')}</p>;
}
