import { useTranslation } from 'react-i18next';

export interface ColumnSelectProps {
  id: string;
  label: string;
  /** The CSV header's values. */
  columns: readonly string[];
  /** 0-based column; -1: not mapped. */
  value: number;
  onChange: (column: number) => void;
  disabled?: boolean;
}

/** A CSV column picked from its header (bulk update's and import's mappings); an empty header says "Column n". */
export function ColumnSelect({ id, label, columns, value, onChange, disabled }: ColumnSelectProps) {
  const { t } = useTranslation();
  return (
    <label htmlFor={id}>
      {label}
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))}>
        <option value={-1}>{t('CSV_NOT_MAPPED')}</option>
        {columns.map((c, i) => (
          <option key={i} value={i}>
            {c || t('CSV_COLUMN', { n: i + 1 })}
          </option>
        ))}
      </select>
    </label>
  );
}
