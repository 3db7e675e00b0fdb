import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSuggestions, validIcon } from '../../../../api/admin-searches';
import { SuggestionList, comboboxProps, useSuggestionKeys } from '../../ui/suggestion-list';

/**
 * A search's icon (the console spec §3, §5): typed or picked from the Material Icons names, the
 * suggestions (at most 100, §9) filtered as the name is typed. A name not in the list is flagged
 * and keeps the search from being saved (the server refuses it too).
 */
export function IconPicker({ value, onChange }: { value: string | null; onChange: (icon: string | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const text = value ?? '';
  const options = useMemo(() => (open ? iconSuggestions(text) : []), [open, text]);
  const invalid = !validIcon(text.trim() || null);
  const choose = (name: string) => {
    onChange(name);
    setOpen(false);
  };
  const keys = useSuggestionKeys(options, open, choose, () => setOpen(false));

  return (
    <div className="field admin-combo">
      <label className="field-label" htmlFor={id}>
        {t('ADMIN_SEARCH_ICON')}
      </label>
      <input
        id={id}
        {...comboboxProps(listId, open && options.length > 0, keys.active)}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        value={text}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(e) => {
          onChange(e.target.value === '' ? null : e.target.value);
          setOpen(true);
          keys.setActive(-1);
        }}
        onKeyDown={keys.onKeyDown}
      />
      <p id={`${id}-hint`} className={invalid ? 'form-error' : 'hint'}>
        {invalid ? t('ADMIN_SEARCH_ICON_INVALID') : t('ADMIN_SEARCH_ICON_HINT')}
      </p>
      {open && <SuggestionList id={listId} label={t('ADMIN_SEARCH_ICON')} options={options} active={keys.active} onChoose={choose} testId="icon-suggestions" />}
    </div>
  );
}
