import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Search } from '../../../api/search';
import { useSearchFields } from '../api/get-archive-fields';
import { buildCriteria, clampRecordsPerPage, emptyValue, emptyValues, toWire, type CriteriaItem, type FormValues, type PromptValue, type ValueError } from '../criteria';
import { formatIsoDate } from '../locale-format';
import { promptForField, type Prompt } from '../prompts';
import type { SearchLocaleFormat } from '../use-locale-format';
import { PromptField } from './prompt-field';
import type { DynamicSource, FormContext } from './value-input';

export interface SearchFormProps {
  search: Search;
  prompts: Prompt[];
  archiveIds: number[];
  initialValues: FormValues;
  initialRecordsPerPage: number;
  ctx: FormContext & { fmt: SearchLocaleFormat };
  onRun: (criteria: CriteriaItem[], recordsPerPage: number) => void;
}

/**
 * The prompt form of one search: every prompt, records per page, Search (also Enter) and Clear.
 * Invalid values are marked inline and the search does not run.
 */
export function SearchForm(props: SearchFormProps) {
  const { t } = useTranslation();
  const { prompts, ctx } = props;
  const fmt = ctx.fmt;
  const [values, setValues] = useState<FormValues>(props.initialValues);
  const [errors, setErrors] = useState<Record<string, ValueError>>({});
  const [rpp, setRpp] = useState(String(props.initialRecordsPerPage));
  const formRef = useRef<HTMLFormElement>(null);

  const hasDynamic = prompts.some((p) => p.list === 'dynamic');
  const fields = useSearchFields(ctx.scope, ctx.dbId, props.archiveIds, hasDynamic);

  const change = useCallback((key: string, v: PromptValue) => {
    setValues((prev) => ({ ...prev, [key]: v }));
    setErrors((prev) => {
      if (!(key in prev)) return prev;
      const next = { ...prev };
      delete next[key];
      return next;
    });
  }, []);

  /** A valid date is redrawn in the locale's format (1/2/24 becomes 01/02/2024). */
  const blurValue = useCallback(
    (key: string) => {
      const p = prompts.find((x) => x.key === key);
      if (!p || p.valueType !== 'date') return;
      const tidy = (s: string) => {
        const r = toWire('date', s, fmt);
        return 'wire' in r && r.wire !== '' ? formatIsoDate(r.wire, fmt.date) : s;
      };
      setValues((prev) => {
        const v = prev[p.key];
        if (!v) return prev;
        const next = { ...v, value: tidy(v.value), to: tidy(v.to), values: v.values.map(tidy) };
        const same = next.value === v.value && next.to === v.to && next.values.every((x, i) => x === v.values[i]);
        return same ? prev : { ...prev, [p.key]: next };
      });
    },
    [prompts, fmt],
  );

  const dynamicSources = useMemo(() => {
    const out: Record<string, DynamicSource> = {};
    for (const p of prompts) {
      if (p.list !== 'dynamic') continue;
      const field = fields.byId.get(p.fieldId);
      const valueOf = (fid: number | null | undefined) => {
        const src = promptForField(prompts, fid);
        const v = src ? values[src.key] : undefined;
        return (v?.value || v?.values[0] || '').trim();
      };
      out[p.key] = { ready: !!field || fields.settled, fieldId: p.fieldId, filter1: valueOf(field?.ListF1), filter2: valueOf(field?.ListF2) };
    }
    return out;
  }, [prompts, fields, values]);

  function errorText(e: ValueError | undefined): string | undefined {
    if (e === 'date') return t('ERROR_SEARCH_INVALID_DATE', { format: fmt.datePlaceholder });
    if (e === 'number') return t('ERROR_SEARCH_INVALID_NUMBER');
    if (e === 'decimal') return t('ERROR_SEARCH_INVALID_DECIMAL', { separator: fmt.decimalSeparator });
    return undefined;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const built = buildCriteria(prompts, values, fmt);
    setErrors(built.errors);
    const invalid = Object.keys(built.errors);
    if (invalid.length > 0) {
      // The inputs are marked on the next render; focus the first one then.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const n = clampRecordsPerPage(rpp);
    setRpp(String(n));
    props.onRun(built.items, n);
  }

  function clear() {
    setValues(emptyValues(prompts));
    setErrors({});
  }

  const hasErrors = Object.keys(errors).length > 0;
  return (
    <form ref={formRef} className="card search-form" aria-labelledby="search-form-title" noValidate onSubmit={submit}>
      <h2 id="search-form-title">{props.search.Name}</h2>
      {prompts.length === 0 && <p className="hint">{t('SEARCH_NO_PROMPTS')}</p>}
      <div className="search-prompts">
        {prompts.map((p) => (
          <PromptField
            key={p.key}
            prompt={p}
            value={values[p.key] ?? emptyValue()}
            onChange={change}
            onBlurValue={blurValue}
            error={errorText(errors[p.key])}
            ctx={ctx}
            dynamic={dynamicSources[p.key]}
          />
        ))}
      </div>
      {hasErrors && (
        <p className="callout callout-error" role="alert">
          {t('SEARCH_FORM_INVALID')}
        </p>
      )}
      <div className="search-actions">
        <div className="field search-rpp">
          <label className="field-label" htmlFor="search-rpp">
            {t('SEARCH_RECORDS_PER_PAGE')}
          </label>
          <input
            id="search-rpp"
            type="number"
            inputMode="numeric"
            min={1}
            max={10000}
            value={rpp}
            aria-describedby="search-rpp-hint"
            onChange={(e) => setRpp(e.target.value)}
            onBlur={() => setRpp(String(clampRecordsPerPage(rpp)))}
          />
          <span id="search-rpp-hint" className="search-hint">
            {t('SEARCH_RECORDS_PER_PAGE_HINT')}
          </span>
        </div>
        <div className="search-buttons">
          <button type="submit" className="button button-primary">
            {t('SEARCH_SUBMIT')}
          </button>
          <button type="button" className="button" onClick={clear}>
            {t('SEARCH_CLEAR')}
          </button>
        </div>
      </div>
    </form>
  );
}
