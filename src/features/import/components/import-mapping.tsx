import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import { isRequiredField } from '../../../fields/rules';
import { ColumnSelect } from '../../../ui/column-select';
import type { ImportForm } from '../import-rules';

export interface ImportMappingProps {
  form: ImportForm;
  onChange: (form: ImportForm) => void;
  columns: readonly string[];
  /** The fields a column may fill (importableFields). */
  fields: readonly Field[];
}

/**
 * FieldMapping of Import options (the user-app spec §3: FieldID, RowID, Checked): each field a tick and a
 * column select; and the column holding each row's document file (optional: without it every row is
 * a document of index data only).
 */
export function ImportMapping({ form, onChange, columns, fields }: ImportMappingProps) {
  const { t } = useTranslation();
  const base = useId();
  const setField = (id: number, change: Partial<{ column: number; checked: boolean }>) => {
    const was = form.mapping[id] ?? { column: -1, checked: false };
    const next = { ...was, ...change };
    // Picking a column ticks the field; "not mapped" unticks it.
    if (change.column !== undefined) next.checked = change.column >= 0;
    onChange({ ...form, mapping: { ...form.mapping, [id]: next } });
  };
  return (
    <>
      <div className="import-grid">
        <ColumnSelect id={`${base}-file`} label={t('IMPORT_FILE_COLUMN')} columns={columns} value={form.fileColumn} onChange={(c) => onChange({ ...form, fileColumn: c })} />
      </div>
      <p className="import-hint">{t('IMPORT_FILE_COLUMN_HINT')}</p>
      <fieldset>
        <legend>{t('IMPORT_MAPPING')}</legend>
        <ul className="import-fields">
          {fields.map((f) => {
            const m = form.mapping[f.ID] ?? { column: -1, checked: false };
            const name = isRequiredField(f) ? t('IMPORT_FIELD_REQUIRED', { name: f.Name }) : f.Name;
            return (
              <li key={f.ID} className="import-field">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={m.checked}
                    disabled={m.column < 0}
                    aria-label={t('IMPORT_FIELD_TICK', { name: f.Name })}
                    onChange={(e) => setField(f.ID, { checked: e.target.checked })}
                  />
                </label>
                <ColumnSelect id={`${base}-f${f.ID}`} label={name} columns={columns} value={m.column} onChange={(c) => setField(f.ID, { column: c })} />
              </li>
            );
          })}
        </ul>
      </fieldset>
    </>
  );
}
