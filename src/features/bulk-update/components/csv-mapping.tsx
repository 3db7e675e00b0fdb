import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import type { SearchPrompt } from '../../../api/search';
import { ColumnSelect } from '../../../ui/column-select';
import type { CsvForm } from '../csv-update';

export interface CsvMappingProps {
  form: CsvForm;
  onChange: (form: CsvForm) => void;
  columns: readonly string[];
  fields: readonly Field[];
  prompts: readonly SearchPrompt[];
}

/**
 * Column mapping from the CSV's header (the user-app spec §3 ReplaceInfo: FieldID to ColumnID): the key
 * columns (DocumentID and ArchiveID) or, for a search update, the search's prompts, then the fields.
 */
export function CsvMapping({ form, onChange, columns, fields, prompts }: CsvMappingProps) {
  const { t } = useTranslation();
  const base = useId();
  const select = (id: string, label: string, value: number, set: (col: number) => void) => (
    <ColumnSelect key={id} id={`${base}-${id}`} label={label} columns={columns} value={value} onChange={set} />
  );
  const mapped = (rec: Record<number, number>, id: number, col: number) => {
    const next = { ...rec };
    if (col < 0) delete next[id];
    else next[id] = col;
    return next;
  };
  return (
    <>
      <fieldset>
        <legend>{t(form.mode === 'direct' ? 'BULK_UPDATE_CSV_KEYS' : 'BULK_UPDATE_CSV_PROMPTS')}</legend>
        <div className="bulk-csv-grid">
          {form.mode === 'direct'
            ? [
                select('doc', t('BULK_UPDATE_CSV_DOCUMENT_ID'), form.docColumn, (c) => onChange({ ...form, docColumn: c })),
                select('archive', t('BULK_UPDATE_CSV_ARCHIVE_ID'), form.archiveColumn, (c) => onChange({ ...form, archiveColumn: c })),
              ]
            : prompts.map((p) => select(`p${p.ID}`, p.Prompt, form.prompts[p.ID] ?? -1, (c) => onChange({ ...form, prompts: mapped(form.prompts, p.ID, c) })))}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('BULK_UPDATE_CSV_FIELDS')}</legend>
        <div className="bulk-csv-grid">{fields.map((f) => select(`f${f.ID}`, f.Name, form.fields[f.ID] ?? -1, (c) => onChange({ ...form, fields: mapped(form.fields, f.ID, c) })))}</div>
      </fieldset>
    </>
  );
}
