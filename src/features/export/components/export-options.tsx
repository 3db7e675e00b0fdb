import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '../../../api/export';
import { forbiddenCharsIn, type ExportDefaults, type ExportProblem, type ExportProblemField } from '../export-request';
import type { AppTFunction as TFunction } from '../../../i18n/t-function';

/** One problem in words; a forbidden name lists the characters the user typed. */
export function problemText(p: ExportProblem, value: Pick<ExportDefaults, 'FilePath' | 'Filename'>, t: TFunction): string {
  if (p.key === 'EXPORT_NAME_FORBIDDEN') {
    const name = p.field === 'FilePath' ? value.FilePath : value.Filename;
    return t('EXPORT_NAME_FORBIDDEN', { chars: forbiddenCharsIn(name).join(' ') });
  }
  return t(p.key);
}

/** The id of a field's input, so the dialog can move focus to the first thing to fix. */
export const optionInputId = (base: string, field: ExportProblemField): string => `${base}-${field}`;

/**
 * The Export settings a user may change (the user-app spec §3): folder and file name, the CSV options and
 * the conversions. Shared by the export dialog and the settings' Export tab (its defaults), so both
 * check names and delimiters the same way. Errors are shown inline beside their input as the user
 * types (aria-invalid + aria-describedby). `format` hides what an Excel export ignores.
 */
export function ExportOptions(props: { value: ExportDefaults; onChange: (v: ExportDefaults) => void; format: ExportFormat; problems: readonly ExportProblem[]; idBase?: string }) {
  const { t } = useTranslation();
  const own = useId();
  const base = props.idBase ?? own;
  const v = props.value;
  const set = (patch: Partial<ExportDefaults>) => props.onChange({ ...v, ...patch });
  const zip = props.format === 'zip';
  const problemOf = (f: ExportProblemField) => props.problems.find((p) => p.field === f);

  const text = (field: 'FilePath' | 'Filename' | 'FieldDelimiter' | 'StringDelimiter', label: string, extra: { maxLength?: number; className?: string } = {}): ReactNode => {
    const p = problemOf(field);
    const id = optionInputId(base, field);
    return (
      <label className={`field ${extra.className ?? ''}`}>
        <span className="field-label">{label}</span>
        <input
          id={id}
          type="text"
          value={v[field]}
          maxLength={extra.maxLength ?? 200}
          aria-invalid={p ? true : undefined}
          aria-describedby={p ? `${id}-error` : undefined}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => set({ [field]: e.target.value })}
        />
        {p && (
          <span id={`${id}-error`} className="form-error">
            {problemText(p, v, t)}
          </span>
        )}
      </label>
    );
  };
  const check = (field: 'ExportWithCSV' | 'UseString' | 'ExportWithMappedFields' | 'ConvertToPDF' | 'ConvertToBW' | 'WithAnnotations', label: string, disabled = false) => (
    <label className="check">
      <input type="checkbox" checked={v[field]} disabled={disabled} onChange={(e) => set({ [field]: e.target.checked })} />
      <span>{label}</span>
    </label>
  );

  return (
    <>
      <fieldset>
        <legend>{t('EXPORT_NAMES')}</legend>
        {zip && text('FilePath', t('EXPORT_FILE_PATH'))}
        {text('Filename', t('EXPORT_FILE_NAME'))}
      </fieldset>
      <fieldset>
        <legend>{t('EXPORT_INDEX_DATA')}</legend>
        {zip && check('ExportWithCSV', t('EXPORT_WITH_CSV'))}
        {zip && (
          <div className="export-delimiters">
            {text('FieldDelimiter', t('EXPORT_FIELD_DELIMITER'), { maxLength: 2, className: 'export-delimiter' })}
            {text('StringDelimiter', t('EXPORT_STRING_DELIMITER'), { maxLength: 2, className: 'export-delimiter' })}
          </div>
        )}
        {zip && check('UseString', t('EXPORT_USE_STRING'), !v.ExportWithCSV)}
        {check('ExportWithMappedFields', t('EXPORT_MAPPED_FIELDS'))}
      </fieldset>
      {zip && (
        <fieldset>
          <legend>{t('EXPORT_FILES')}</legend>
          {check('ConvertToPDF', t('EXPORT_CONVERT_PDF'))}
          {check('ConvertToBW', t('EXPORT_CONVERT_BW'))}
          {check('WithAnnotations', t('EXPORT_WITH_ANNOTATIONS'))}
        </fieldset>
      )}
    </>
  );
}
