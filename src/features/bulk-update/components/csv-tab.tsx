import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../../api/archives';
import { BULK_UPDATE_BATCH_ROWS, type BulkCountCall, type BulkUpdateCall, type CsvBulkUpdate, type CsvRow } from '../../../api/bulk-update';
import type { SearchPrompt } from '../../../api/search';
import { CsvParseError } from '../../../platform/csv-parse';
import { CsvFile, type CsvColumnRule } from '../../../platform/csv';
import { sendCsvRows } from '../api/bulk-count';
import { fetchSearchPrompts } from '../api/search-prompts';
import { csvProblems, csvRowOf, guessKeyColumns, initialCsvForm, mappablePrompts, type CsvForm } from '../csv-update';
import { useCsvHeader } from '../../../ui/use-csv-header';
import { CsvMapping } from './csv-mapping';

export interface CsvTabProps {
  dbId: number;
  searchId: number;
  archiveId: number;
  fields: readonly Field[];
  locale: string;
  counting: boolean;
  /** The refused rows as a CSV (with a reason column), or null when none. */
  onErrorFile: (file: Blob | null, refused: number) => void;
  onCount: (call: BulkCountCall, body: CsvBulkUpdate, update: BulkUpdateCall) => void;
}

/** The key columns are numbers; the worker checks them as it checks the fields. */
const KEY_RULE = { Type: 2 } as const;

/**
 * The advanced tab (the user-app spec §2 "csv update or csv search update"): a picked file, its delimiters,
 * the mapping from its header; Count validates every row in the CSV worker (the refused rows become
 * the error file), sends the good rows to the server in batches and asks for the count.
 */
export function CsvTab(props: CsvTabProps) {
  const { t, i18n } = useTranslation();
  const base = useId();
  const [file, setFile] = useState<File | null>(null);
  const [form, setForm] = useState<CsvForm>(initialCsvForm);
  const [columns, setColumns] = useState<string[]>([]);
  const [prompts, setPrompts] = useState<SearchPrompt[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  // The header, read again when the file or its delimiters change.
  const { fieldDelimiter, stringDelimiter } = form;
  useCsvHeader(
    file,
    form,
    (cols) => {
      setColumns(cols);
      setError(null);
      setForm((f) => ({ ...f, ...guessKeyColumns(cols), fields: {}, prompts: {} }));
    },
    (e) => setError(describe(e)),
  );

  useEffect(() => {
    if (form.mode !== 'search' || !props.searchId) return;
    let live = true;
    void fetchSearchPrompts(props.dbId, props.searchId).then((p) => live && setPrompts(mappablePrompts(p)), () => undefined);
    return () => {
      live = false;
    };
  }, [form.mode, props.dbId, props.searchId]);

  function describe(e: unknown): string {
    // The CSV worker's own words for a broken file (CSV_UNCLOSED_QUOTE ...), naming the row and column.
    if (e instanceof CsvParseError) return t(e.code, { row: e.row, column: e.column });
    if (e instanceof Error && i18n.exists(e.message)) return t(e.message as 'ERROR_UNKNOWN');
    return String((e as Error)?.message ?? e);
  }

  const problems = csvProblems(form, { file: Boolean(file), searchId: props.searchId });

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    const { signal } = controller;
    const csv = await CsvFile.open(file!, { fieldDelimiter, stringDelimiter }, { signal });
    try {
      // 1. Every mapped column through the field rules in the worker: the refused rows, for the error file.
      setStatus(t('BULK_UPDATE_CSV_CHECKING'));
      const rules: CsvColumnRule[] = [
        ...props.fields.flatMap((f) => (form.fields[f.ID] !== undefined ? [{ column: form.fields[f.ID]!, field: f }] : [])),
        ...(form.mode === 'direct' ? [{ column: form.docColumn, field: { ...KEY_RULE, Prop: 2 } }, { column: form.archiveColumn, field: { ...KEY_RULE, Prop: 2 } }] : []),
      ];
      const checked = await csv.validate(rules, { locale: props.locale, signal, keepProblems: Number.MAX_SAFE_INTEGER });
      const refusedLines = new Set(checked.problems.map((p) => p.row));
      props.onErrorFile(
        checked.errorFile((p) => p.message ?? t(p.key as 'ERROR_UNKNOWN', { row: p.row, column: p.column }), t('BULK_UPDATE_CSV_REASON')),
        checked.refusedRows,
      );
      // 2. The good rows to the server, BULK_UPDATE_BATCH_ROWS at a time, under one key.
      const key = globalThis.crypto.randomUUID();
      const good = checked.rows - checked.refusedRows;
      if (good <= 0) throw new Error('BULK_UPDATE_CSV_NO_GOOD_ROWS');
      let batch: CsvRow[] = [];
      let index = 0;
      let sent = 0;
      const flush = async () => {
        if (!batch.length) return;
        await sendCsvRows(props.dbId, { Key: key, Index: index++, Total: good, Rows: batch }, signal);
        sent += batch.length;
        batch = [];
        setStatus(t('BULK_UPDATE_CSV_SENDING', { sent, total: good }));
      };
      let total = 0;
      await csv.scan(
        async (rows) => {
          for (let r = 0; r < rows.length; r++) {
            const line = rows.rowNumber(r);
            if (refusedLines.has(line)) continue;
            const row = csvRowOf(form, props.fields, prompts, (c) => rows.value(r, c), line, props.locale);
            if (!row) continue;
            batch.push(row);
            total++;
            if (batch.length === BULK_UPDATE_BATCH_ROWS) await flush();
          }
        },
        { signal },
      );
      await flush();
      if (total !== good) throw new Error(`${good - total} rows could not be read`);
      const replace = Object.entries(form.fields).map(([id, col]) => ({ FieldID: Number(id), ColumnID: col }));
      const body: CsvBulkUpdate = {
        DatabaseID: props.dbId,
        Key: key,
        Total: total,
        ReplaceInfo: replace,
        ...(form.mode === 'search' ? { SearchID: props.searchId, ArchiveID: props.archiveId } : {}),
      };
      setStatus(null);
      props.onCount(form.mode === 'direct' ? 'CSVUpdateCount' : 'BulkUpdateSearchCount', body, form.mode === 'direct' ? 'BulkUpdateDirect' : 'BulkUpdateSearch');
    } finally {
      csv.close();
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.length || busy) return;
    setBusy(true);
    setError(null);
    run()
      .catch((err: unknown) => {
        if ((err as Error)?.name !== 'AbortError') setError(describe(err));
        setStatus(null);
      })
      .finally(() => setBusy(false));
  };

  const input = (id: keyof Pick<CsvForm, 'fieldDelimiter' | 'stringDelimiter'>, label: string) => (
    <label htmlFor={`${base}-${id}`}>
      {label}
      <input id={`${base}-${id}`} type="text" maxLength={2} value={form[id]} onChange={(e) => setForm({ ...form, [id]: e.target.value })} />
    </label>
  );

  return (
    <form className="bulk-csv" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{t('BULK_UPDATE_CSV_MODE')}</legend>
        {(['direct', 'search'] as const).map((m) => (
          <label key={m} className="check">
            <input type="radio" name={`${base}-mode`} checked={form.mode === m} onChange={() => setForm({ ...form, mode: m })} />
            {t(m === 'direct' ? 'BULK_UPDATE_CSV_DIRECT' : 'BULK_UPDATE_CSV_SEARCH')}
          </label>
        ))}
      </fieldset>
      <div className="bulk-csv-grid">
        <label htmlFor={`${base}-file`}>
          {t('BULK_UPDATE_CSV_FILE')}
          <input id={`${base}-file`} type="file" accept=".csv,text/csv,text/plain" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        {input('fieldDelimiter', t('BULK_UPDATE_CSV_FIELD_DELIMITER'))}
        {input('stringDelimiter', t('BULK_UPDATE_CSV_STRING_DELIMITER'))}
      </div>
      {columns.length > 0 && <CsvMapping form={form} onChange={setForm} columns={columns} fields={props.fields} prompts={prompts} />}
      {tried && problems.length > 0 && (
        <ul className="bulk-problems" role="alert">
          {problems.map((p) => (
            <li key={p}>{t(p as 'ERROR_UNKNOWN')}</li>
          ))}
        </ul>
      )}
      {error && (
        <p className="bulk-problems" role="alert">
          {error}
        </p>
      )}
      {status && <p role="status">{status}</p>}
      <div className="modal-actions">
        <button type="submit" className="button primary" disabled={busy || props.counting}>
          {t(busy || props.counting ? 'BULK_UPDATE_COUNTING' : 'BULK_UPDATE_COUNT')}
        </button>
      </div>
    </form>
  );
}
