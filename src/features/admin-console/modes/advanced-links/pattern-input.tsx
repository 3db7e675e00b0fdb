import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADVANCED_LINK_SUGGEST_DELAY_MS, applyLinkSuggestion, linkSuggestionsAt } from '../../../../api/admin-advanced-links';
import { ADVANCED_LINK_PATTERN_MAX } from '../../../../api/advanced-links';
import { useDebounced } from '../../../../ui/use-debounced';
import { SuggestionList, comboboxProps, useSuggestionKeys } from '../../ui/suggestion-list';

/**
 * The advanced link's address template (the console spec §3, §9): while a placeholder is open
 * ('{' typed, not yet closed), the document id, the archive id and the archive's field names that
 * match what follows the brace are offered once typing has paused for 500 ms (at most 100).
 */
export function PatternInput(props: { value: string; onChange: (v: string) => void; fieldNames: readonly string[]; invalid: boolean; describedBy?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const ref = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(0);
  const [focused, setFocused] = useState(false);
  const [closed, setClosed] = useState(false);
  const now = `${caret}:${props.value}`;
  const settled = useDebounced(now, ADVANCED_LINK_SUGGEST_DELAY_MS);
  const paused = settled === now;
  const options = useMemo(
    () => (focused && paused && !closed ? linkSuggestionsAt(props.value, caret, props.fieldNames) : []),
    [focused, paused, closed, props.value, caret, props.fieldNames],
  );
  const open = options.length > 0;

  const choose = (s: string) => {
    const next = applyLinkSuggestion(props.value, caret, s);
    props.onChange(next.text);
    setCaret(next.caret);
    setClosed(true);
    requestAnimationFrame(() => ref.current?.setSelectionRange(next.caret, next.caret));
  };
  const keys = useSuggestionKeys(options, open, choose, () => setClosed(true));
  const track = (el: HTMLInputElement) => setCaret(el.selectionStart ?? el.value.length);

  return (
    <div className="field admin-combo">
      <label className="field-label" htmlFor={id}>
        {t('ADMIN_LINK_URL')}
      </label>
      <input
        ref={ref}
        id={id}
        className="admin-link-pattern"
        {...comboboxProps(listId, open, keys.active)}
        aria-invalid={props.invalid}
        aria-describedby={props.describedBy}
        maxLength={ADVANCED_LINK_PATTERN_MAX}
        value={props.value}
        inputMode="url"
        onFocus={(e) => {
          setFocused(true);
          track(e.currentTarget);
        }}
        onBlur={() => setFocused(false)}
        onChange={(e) => {
          props.onChange(e.target.value);
          track(e.currentTarget);
          setClosed(false);
          keys.setActive(-1);
        }}
        onSelect={(e) => track(e.currentTarget)}
        onKeyDown={keys.onKeyDown}
      />
      {open && <SuggestionList id={listId} label={t('ADMIN_LINK_SUGGESTIONS')} options={options} active={keys.active} onChoose={choose} testId="link-suggestions" />}
    </div>
  );
}
