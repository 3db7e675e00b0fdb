import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import { IMPORT_KEYS } from '../../../api/import';
import { FIELD_CODES } from '../../../fields/codes';
import { CsvParseError } from '../../../platform/csv-parse';
import type { CsvProblem } from '../../../platform/csv';
import { downloadBlob } from '../../../platform/save-file';
import { Modal } from '../../../ui/modal';
import { useCsvHeader } from '../../../ui/use-csv-header';
import { ImportPlanError, planImport, type FileRefusal, type ImportPlan } from '../import-plan';
import { errorFileNameOf, guessFileColumn, guessMapping, importableFields, importProblems, initialImportForm, unmappedRequired, type ImportForm } from '../import-rules';
import { ImportMapping } from './import-mapping';

const NO_FIELDS: readonly Field[] = [];

export interface ImportDialogProps {
  /** Every field of the archive (the dialog picks those a column may fill); undefined while they load. */
  fields: readonly Field[] | undefined;
  /** The fields could not be loaded. */
  fieldsFailed?: boolean;
  locale: string;
  onClose: () => void;
  /** The confirmed import: the plan (rows, files) and the options the request names. */
  onConfirm: (confirmed: { plan: ImportPlan; form: ImportForm; fields: readonly Field[]; csvName: string; errorPath: string }) => void;
}

/**
 * The import dialog (the user-app spec §2; §3 Import options): the CSV and its delimiters, "Overwrite
 * system fields", the mapping read from its header (guessed by name), the document files. Check reads
 * the whole file in the CSV worker and says how many rows will be imported and how many are refused,
 * with the refused rows as a file to download; Import confirms. Any change after a check asks for a
 * new one. Mounted fresh for each opening.
 */
export function ImportDialog(props: ImportDialogProps) {
  const { t } = useTranslation();
  const base = useId();
  const [csvFile, setCsvFile] = useState<File | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [form, setFormState] = useState<ImportForm>(initialImportForm);
  const [columns, setColumns] = useState<string[]>([]);
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const all = props.fields ?? NO_FIELDS;
  const fields = importableFields(all, form.overwriteSystem);
  const setForm = (f: ImportForm) => {
    setFormState(f);
    setPlan(null);
  };

  // The header, read again when the file or its delimiters change; the mapping guessed from it.
  useCsvHeader(
    csvFile,
    form,
    (cols) => {
      setColumns(cols);
      setError(null);
      setFormState((f) => ({ ...f, mapping: guessMapping(cols, importableFields(all, f.overwriteSystem)), fileColumn: guessFileColumn(cols) }));
    },
    (e) => setError(describe(e)),
  );

  function describe(e: unknown): string {
    if (e instanceof CsvParseError) return t(e.code, { row: e.row, column: e.column });
    if (e instanceof ImportPlanError) return t(e.key, e.vars);
    return String((e as Error)?.message ?? e);
  }

  const fieldName = (column: number) => fields.find((f) => form.mapping[f.ID]?.column === column - 1 && form.mapping[f.ID]?.checked)?.Name ?? t('CSV_COLUMN', { n: column });
  const words = {
    // A value that does not fit: ERROR_IMPORT_DATATYPE_MISMATCH with the field's own message; an empty required one: ERROR_IMPORT_MISSING_FIELDS.
    problem: (p: CsvProblem) => {
      if (p.code === 0) return t(p.key as 'CSV_TOO_MANY_FIELDS', { row: p.row, column: p.column });
      const message = p.message ?? t(p.key as 'ERROR_UNKNOWN');
      const key = p.code === FIELD_CODES.required ? IMPORT_KEYS.missingFields : IMPORT_KEYS.datatypeMismatch;
      return t('IMPORT_ROW_REASON', { reason: t(key), field: fieldName(p.column), message });
    },
    file: (r: FileRefusal) => t(r.key, { name: r.name }),
    reasonHeader: t('CSV_ERROR_FILE_REASON'),
  };

  const problems = importProblems(form, fields, { csv: Boolean(csvFile), columns: columns.length });
  const missing = columns.length ? unmappedRequired(form, fields) : [];
  // The required fields are said at once (once the header is read); the rest when Check is pressed.
  const shown = problems.filter((p) => tried || p === IMPORT_KEYS.missingFields);
  const zeroByte = files.filter((f) => f.size === 0);
  const csvName = csvFile?.name ?? '';
  const errorPath = errorFileNameOf(csvName);

  const check = () => {
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setError(null);
    planImport(csvFile!, form, fields, files, {
      locale: props.locale,
      words,
      signal: controller.signal,
      onStatus: () => setStatus(t('IMPORT_CHECKING')),
    })
      .then((p) => {
        setPlan(p);
        setStatus(null);
      })
      .catch((e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') setError(describe(e));
        setStatus(null);
      })
      .finally(() => setBusy(false));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (busy) return;
    if (problems.length) {
      document.getElementById(`${base}-problems`)?.focus();
      return;
    }
    if (plan && plan.rows.length > 0) props.onConfirm({ plan, form, fields, csvName, errorPath });
    else check();
  };

  const delimiter = (id: 'fieldDelimiter' | 'stringDelimiter', label: string) => (
    <label htmlFor={`${base}-${id}`}>
      {label}
      <input id={`${base}-${id}`} type="text" maxLength={2} autoComplete="off" value={form[id]} onChange={(e) => setForm({ ...form, [id]: e.target.value })} />
    </label>
  );

  // One dialog from the click on: while the archive's fields load it says so (a second dialog
  // replacing a loading one would flash and move focus).
  if (!props.fields) {
    return (
      <Modal open title={t('IMPORT_TITLE')} onClose={props.onClose} className="import-modal">
        <p role={props.fieldsFailed ? 'alert' : 'status'}>{t(props.fieldsFailed ? 'IMPORT_FIELDS_FAILED' : 'IMPORT_FIELDS_LOADING')}</p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('IMPORT_CANCEL')}
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal open title={t('IMPORT_TITLE')} onClose={props.onClose} className="import-modal">
      <form onSubmit={submit} noValidate aria-busy={busy || undefined}>
        <div className="import-grid">
          <label htmlFor={`${base}-csv`}>
            {t('IMPORT_CSV_FILE')}
            <input
              id={`${base}-csv`}
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => {
                setCsvFile(e.target.files?.[0] ?? null);
                setColumns([]);
                setPlan(null);
              }}
            />
          </label>
          {delimiter('fieldDelimiter', t('IMPORT_FIELD_DELIMITER'))}
          {delimiter('stringDelimiter', t('IMPORT_STRING_DELIMITER'))}
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={form.overwriteSystem}
            onChange={(e) => {
              const overwriteSystem = e.target.checked;
              // The system fields it adds are guessed from the header too; what the user mapped stays.
              setForm({ ...form, overwriteSystem, mapping: { ...guessMapping(columns, importableFields(all, overwriteSystem)), ...form.mapping } });
            }}
          />
          {t('IMPORT_OVERWRITE_SYSTEM')}
        </label>
        <div className="import-grid">
          <label htmlFor={`${base}-files`}>
            {t('IMPORT_DOCUMENT_FILES')}
            <input
              id={`${base}-files`}
              type="file"
              multiple
              onChange={(e) => {
                setFiles(Array.from(e.target.files ?? []));
                setPlan(null);
              }}
            />
          </label>
        </div>
        {files.length > 0 && <p className="import-hint">{t('IMPORT_FILES_PICKED', { count: files.length })}</p>}
        {zeroByte.length > 0 && (
          <ul className="import-problems" role="alert">
            {zeroByte.map((f) => (
              <li key={f.name}>{t('ZERO_BYTE_FILE_REMOVED_MSG', { name: f.name })}</li>
            ))}
          </ul>
        )}
        {columns.length > 0 && <ImportMapping form={form} onChange={setForm} columns={columns} fields={fields} />}
        <div id={`${base}-problems`} tabIndex={-1}>
          {shown.length > 0 && (
            <ul className="import-problems" role="alert">
              {shown.map((p) => (
                <li key={p}>{p === IMPORT_KEYS.missingFields ? t('IMPORT_REQUIRED_UNMAPPED', { message: t(p), fields: missing.map((f) => f.Name).join(', ') }) : t(p)}</li>
              ))}
            </ul>
          )}
        </div>
        {error && (
          <p className="import-problems" role="alert">
            {error}
          </p>
        )}
        {status && <p role="status">{status}</p>}
        {plan && (
          <div className="import-plan" role="status" aria-live="polite">
            <p>{t('IMPORT_COUNTS', { count: plan.rows.length, refused: plan.refused })}</p>
            {plan.files.length > 0 && <p>{t('IMPORT_FILES_COUNT', { count: plan.files.length })}</p>}
            {plan.errorFile && (
              <button type="button" className="button" onClick={() => downloadBlob(plan.errorFile!, errorPath)}>
                {t('IMPORT_ERROR_FILE', { name: errorPath })}
              </button>
            )}
            {plan.rows.length === 0 && <p className="import-problems">{t('IMPORT_NO_GOOD_ROWS')}</p>}
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('IMPORT_CANCEL')}
          </button>
          <button type="submit" className="button primary" disabled={busy || (plan !== null && plan.rows.length === 0)}>
            {busy ? t('IMPORT_CHECKING') : plan ? t('IMPORT_CONFIRM', { count: plan.rows.length }) : t('IMPORT_CHECK')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
