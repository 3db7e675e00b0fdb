import { useTranslation } from 'react-i18next';
import { toggleField } from '../export-request';

export interface ExportField {
  id: number;
  name: string;
}

/**
 * Which fields go into the CSV or the workbook: one checkbox per field of the archive, in the grid's
 * column order (hidden columns too, unticked by default), with Select all / Select none. A scrolling
 * list of 44 px rows, so an archive of many fields keeps the dialog on a tablet's screen.
 */
export function ExportFieldSelect(props: { fields: readonly ExportField[]; selected: readonly number[]; onChange: (ids: number[]) => void; error?: string; errorId: string }) {
  const { t } = useTranslation();
  const order = props.fields.map((f) => f.id);
  const chosen = new Set(props.selected);
  return (
    <fieldset className="export-fields" aria-describedby={props.error ? props.errorId : undefined}>
      <legend>{t('EXPORT_FIELDS_LEGEND', { count: props.selected.length, total: props.fields.length })}</legend>
      <div className="export-fields-actions">
        <button type="button" className="button" onClick={() => props.onChange([...order])} disabled={props.selected.length === props.fields.length}>
          {t('EXPORT_FIELDS_ALL')}
        </button>
        <button type="button" className="button" onClick={() => props.onChange([])} disabled={props.selected.length === 0}>
          {t('EXPORT_FIELDS_NONE')}
        </button>
      </div>
      <div className="export-fields-list" data-testid="export-fields">
        {props.fields.map((f) => (
          <label key={f.id} className="check">
            <input type="checkbox" checked={chosen.has(f.id)} onChange={() => props.onChange(toggleField(props.selected, f.id, order))} />
            <span>{f.name}</span>
          </label>
        ))}
      </div>
      {props.error && (
        <p id={props.errorId} className="form-error" tabIndex={-1}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
