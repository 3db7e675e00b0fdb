import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '../../../api/export';
import type { ExportBlocked } from '../export-request';
import { ReasonedButton } from '../../../ui/reasoned-button';

/**
 * Export and Export to Excel beside the document actions. A button the user may not use says why,
 * on a tap too, like Copy, Move and Delete (ui/reasoned-button.tsx).
 */
export function ExportToolbar(props: { blocked: (format: ExportFormat) => ExportBlocked; onExport: (format: ExportFormat) => void }) {
  const { t } = useTranslation();
  const button = (format: ExportFormat, label: string) => {
    const reason = props.blocked(format);
    return (
      <ReasonedButton reason={reason ? t(reason) : null} onClick={() => props.onExport(format)}>
        {label}
      </ReasonedButton>
    );
  };
  return (
    <div role="group" aria-label={t('EXPORT_ACTIONS')} className="export-toolbar">
      {button('zip', t('EXPORT_BUTTON'))}
      {button('xlsx', t('EXPORT_EXCEL_BUTTON'))}
    </div>
  );
}
