import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDynamicList } from '../api/get-dynamic-list';
import { useListItems } from '../api/get-list-items';
import { filterDecimalInput, filterNumberInput } from '../locale-format';
import type { Prompt } from '../prompts';
import type { SearchLocaleFormat } from '../use-locale-format';
import { useDebounced } from '../../../ui/use-debounced';
import { isOnline } from '../../../api/connectivity';

/** What every value input of one form shares. */
export interface FormContext {
  scope: string | null;
  dbId: number;
  fmt: SearchLocaleFormat;
}

/** A dynamic list's source: the field and the current values of its ListF1 / ListF2 prompts. */
export interface DynamicSource {
  /** False until the archive fields are known (ListF1 / ListF2 come from them). */
  ready: boolean;
  fieldId: number;
  filter1: string;
  filter2: string;
}

export interface ValueInputProps {
  prompt: Prompt;
  id: string;
  /** Accessible name when no <label for> names the input (range and multi-value rows). */
  ariaLabel?: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
  ctx: FormContext;
  dynamic?: DynamicSource;
}

const TYPEAHEAD_DEBOUNCE_MS = 250;


/** One value of a prompt: a list of choices, a type-ahead box or a plain box filtered by type. */
export function ValueInput(props: ValueInputProps) {
  switch (props.prompt.list) {
    case 'fixed':
      return <FixedListInput {...props} />;
    case 'dynamic':
      return <DynamicListInput {...props} />;
    case 'typeahead':
      return <TypeaheadInput {...props} />;
    default:
      return <PlainInput {...props} />;
  }
}

function describedBy(...ids: (string | undefined | false)[]): string | undefined {
  const s = ids.filter(Boolean).join(' ');
  return s || undefined;
}

/** A text box keeping only what the prompt's type allows (digits and minus; the decimal separator). */
export function PlainInput(props: ValueInputProps & { listId?: string; onFocus?: () => void; hintId?: string }) {
  const { prompt, ctx } = props;
  const type = prompt.valueType;
  const filter = (s: string) => (type === 'number' ? filterNumberInput(s) : type === 'decimal' ? filterDecimalInput(s, ctx.fmt.decimalSeparator) : s);
  return (
    <input
      id={props.id}
      type={prompt.valueType === 'content' ? 'search' : 'text'}
      aria-label={props.ariaLabel}
      value={props.value}
      list={props.listId}
      autoComplete="off"
      inputMode={type === 'number' ? 'numeric' : type === 'decimal' ? 'decimal' : undefined}
      placeholder={type === 'date' ? ctx.fmt.datePlaceholder : undefined}
      aria-invalid={props.invalid || undefined}
      aria-describedby={describedBy(props.describedBy, props.hintId)}
      onFocus={props.onFocus}
      onChange={(e) => props.onChange(filter(e.target.value))}
    />
  );
}

function OfflineListHint({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <span id={id} className="search-hint">
      {t('SEARCH_LIST_OFFLINE_HINT')}
    </span>
  );
}

function ChoiceSelect(props: ValueInputProps & { items: readonly string[] }) {
  const { t } = useTranslation();
  const options = props.value !== '' && !props.items.includes(props.value) ? [props.value, ...props.items] : props.items;
  return (
    <select
      id={props.id}
      aria-label={props.ariaLabel}
      value={props.value}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <option value="">{t('SEARCH_ANY_VALUE')}</option>
      {options.map((item) => (
        <option key={item} value={item}>
          {item}
        </option>
      ))}
    </select>
  );
}

/** Prop 64: a drop-down of the list's items. Offline with no saved copy: a text box and a hint. */
function FixedListInput(props: ValueInputProps) {
  const hintId = useId();
  const q = useListItems(props.ctx.scope, props.ctx.dbId, props.prompt.listId, '');
  // While the first answer is on its way the drop-down is already there (no box swapped under the finger).
  if (q.data || q.fetchStatus === 'fetching') return <ChoiceSelect {...props} items={q.data ?? []} />;
  const offline = q.fetchStatus === 'paused' || q.isError;
  return (
    <>
      <PlainInput {...props} hintId={offline ? hintId : undefined} />
      {offline && <OfflineListHint id={hintId} />}
    </>
  );
}

/**
 * Prop 128: the items for the current values of the ListF1 / ListF2 prompts. A value not in the
 * refreshed list is cleared (the archive-ops spec §4), and so is any value of a list left empty.
 */
function DynamicListInput(props: ValueInputProps) {
  const hintId = useId();
  const d = props.dynamic ?? { ready: false, fieldId: props.prompt.fieldId, filter1: '', filter2: '' };
  const q = useDynamicList(d.ready ? props.ctx.scope : null, { dbId: props.ctx.dbId, fieldId: d.fieldId, filter1: d.filter1, filter2: d.filter2 });
  const items = q.data;
  const fresh = items !== undefined && !q.isPlaceholderData;
  const { value, onChange } = props;
  useEffect(() => {
    if (fresh && value !== '' && !items.includes(value)) onChange('');
  }, [fresh, items, value, onChange]);
  if (items || q.fetchStatus === 'fetching') return <ChoiceSelect {...props} items={items ?? []} />;
  const offline = q.fetchStatus === 'paused' || q.isError || (!d.ready && !isOnline());
  return (
    <>
      <PlainInput {...props} hintId={offline ? hintId : undefined} />
      {offline && <OfflineListHint id={hintId} />}
    </>
  );
}

/** A list without Prop 64: a text box suggesting up to 100 items for what is typed (debounced). */
function TypeaheadInput(props: ValueInputProps) {
  const listId = useId();
  const hintId = useId();
  const [active, setActive] = useState(false);
  const typed = useDebounced(props.value.trim(), TYPEAHEAD_DEBOUNCE_MS);
  const q = useListItems(props.ctx.scope, props.ctx.dbId, props.prompt.listId, typed, active);
  const offline = active && !q.data && (q.fetchStatus === 'paused' || q.isError);
  return (
    <>
      <PlainInput {...props} listId={listId} onFocus={() => setActive(true)} hintId={offline ? hintId : undefined} />
      <datalist id={listId} data-testid={`suggestions-${props.prompt.key}`}>
        {(q.data ?? []).map((item) => (
          <option key={item} value={item} />
        ))}
      </datalist>
      {offline && <OfflineListHint id={hintId} />}
    </>
  );
}
