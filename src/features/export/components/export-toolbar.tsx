import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '../../../api/export';
import type { ExportBlocked } from '../export-request';

/**
 * Export and Export to Excel beside the document actions. A button the user may not use stays
 * focusable (aria-disabled, not disabled) and says why, like Copy, Move and Delete, so a keyboard or
 * screen-reader user learns the reason too; pressing it says it again.
 */
export function ExportToolbar(props: { blocked: (format: ExportFormat) => ExportBlocked; onExport: (format: ExportFormat) => void }) {
  const { t } = useTranslation();
  const button = (format: ExportFormat, label: string) => {
    const reason = props.blocked(format);
    const why = reason ? t(reason) : undefined;
    return (
      <button type="button" className="button" aria-disabled={reason ? true : undefined} title={why} aria-description={why} onClick={() => props.onExport(format)}>
        {label}
      </button>
    );
  };
  return (
    <div role="group" aria-label={t('EXPORT_ACTIONS')} className="export-toolbar">
      {button('zip', t('EXPORT_BUTTON'))}
      {button('xlsx', t('EXPORT_EXCEL_BUTTON'))}
    </div>
  );
}
