import { useTranslation } from 'react-i18next';
import { withTrailingEmpty, type PromptValue } from '../criteria';
import type { Prompt } from '../prompts';
import { ValueInput, type DynamicSource, type FormContext } from './value-input';

export interface PromptFieldProps {
  prompt: Prompt;
  value: PromptValue;
  onChange: (key: string, value: PromptValue) => void;
  /** Translated error shown under the input, if the value is invalid. */
  error?: string;
  /** Dates are redrawn in the locale's format when the box is left. */
  onBlurValue?: (key: string) => void;
  ctx: FormContext;
  dynamic?: DynamicSource;
}

/** The accessible name of a prompt: its text, or "Content search" for an unnamed content prompt. */
export function usePromptLabel(p: Prompt): string {
  const { t } = useTranslation();
  return p.label || (p.valueType === 'content' ? t('SEARCH_CONTENT') : `#${p.ids[0]}`);
}

/** One prompt of the form with its visible label, by control: single, range, multi-value or condition. */
export function PromptField(props: PromptFieldProps) {
  const { t } = useTranslation();
  const { prompt, value, onChange, error, ctx } = props;
  const label = usePromptLabel(prompt);
  const id = `search-${prompt.key}`;
  const errorId = `${id}-error`;
  const set = (patch: Partial<PromptValue>) => onChange(prompt.key, { ...value, ...patch });
  const onBlur = () => props.onBlurValue?.(prompt.key);
  const errorText = error ? (
    <p id={errorId} className="form-error search-error">
      {error}
    </p>
  ) : null;
  const common = { prompt, ctx, dynamic: props.dynamic, invalid: !!error, describedBy: error ? errorId : undefined };

  if (prompt.control === 'check') {
    const condId = `${id}-condition`;
    const isEmpty = prompt.condition.toLowerCase() === 'isempty';
    return (
      <div className="search-field search-field-check">
        <label className="check">
          <input id={id} type="checkbox" checked={value.checked} aria-describedby={condId} onChange={(e) => set({ checked: e.target.checked })} />
          <span className="field-label">{label}</span>
        </label>
        <span id={condId} className="search-hint">
          {isEmpty ? t('SEARCH_MUST_BE_EMPTY') : t('SEARCH_MUST_NOT_BE_EMPTY')}
        </span>
      </div>
    );
  }

  if (prompt.control === 'range') {
    return (
      <div className="search-field search-field-range" role="group" aria-label={label} onBlur={onBlur}>
        <div className="search-range">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-from`}>
              {t('SEARCH_RANGE_FROM', { prompt: label })}
            </label>
            <ValueInput {...common} id={`${id}-from`} value={value.value} onChange={(v) => set({ value: v })} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-to`}>
              {t('SEARCH_RANGE_TO', { prompt: label })}
            </label>
            <ValueInput {...common} id={`${id}-to`} value={value.to} onChange={(v) => set({ to: v })} />
          </div>
        </div>
        {errorText}
      </div>
    );
  }

  if (prompt.control === 'multi') {
    const rows = value.values;
    const nameOf = (i: number) => (i === 0 ? label : t('SEARCH_MULTI_VALUE_ITEM', { prompt: label, n: i + 1 }));
    const change = (i: number, v: string) => set({ values: withTrailingEmpty(rows.map((r, j) => (j === i ? v : r))) });
    const remove = (i: number) => set({ values: withTrailingEmpty(rows.filter((_, j) => j !== i)) });
    return (
      <fieldset className="search-field search-field-multi" onBlur={onBlur}>
        <legend className="field-label">{label}</legend>
        {rows.map((r, i) => (
          <div key={i} className="search-multi-row">
            <ValueInput {...common} id={`${id}-${i}`} ariaLabel={nameOf(i)} value={r} onChange={(v) => change(i, v)} />
            {i < rows.length - 1 && (
              <button type="button" className="button search-remove" aria-label={t('SEARCH_REMOVE_VALUE', { name: nameOf(i) })} onClick={() => remove(i)}>
                <span aria-hidden="true">×</span>
              </button>
            )}
          </div>
        ))}
        {errorText}
      </fieldset>
    );
  }

  return (
    <div className="field search-field" onBlur={onBlur}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <ValueInput {...common} id={id} value={value.value} onChange={(v) => set({ value: v })} />
      {errorText}
    </div>
  );
}
