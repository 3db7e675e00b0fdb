/**
 * The side panel's list inputs, made for touch (44 px targets) and labelled like the panel's other
 * inputs: a dynamic list's drop-down (its items refreshed for the row's current parent values) and
 * a type-ahead input whose suggestions (at most 100) are listed under it as tappable options.
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dynamicListOptions } from '../api/get-dynamic-list';
import { useSuggestions } from '../api/get-list-items';
import type { EditDoc, EditField } from '../edit-logic';
import type { IndexEditingState as GridEditingState } from '../use-index-editing';
import { useDebounced } from '../../../ui/use-debounced';

interface InputProps {
  e: GridEditingState;
  doc: EditDoc;
  field: EditField;
  id: string;
  draft: string;
  setDraft: (v: string) => void;
  common: Record<string, unknown>;
}

export function DynamicSelect({ e, doc, field, id, draft, setDraft, common }: InputProps) {
  const { t } = useTranslation();
  const key = e.dynamicKey(doc, field);
  const q = useQuery(dynamicListOptions(e.scope, key));
  const items = q.data ?? [];
  const options = ['', ...items, ...(draft && !items.includes(draft) ? [draft] : [])];
  return (
    <>
      <select
        id={id}
        value={draft}
        {...common}
        aria-busy={q.isFetching || undefined}
        onChange={(ev) => {
          setDraft(ev.target.value);
          e.edit(doc, field, ev.target.value);
        }}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {q.isFetched && items.length === 0 && <p className="edit-panel-hint">{t('EDIT_LIST_EMPTY')}</p>}
    </>
  );
}


export function SuggestInput({ e, doc, field, id, draft, setDraft, common }: InputProps) {
  const { t } = useTranslation();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const text = useDebounced(draft, 150);
  const q = useSuggestions(e.scope, e.dbId, field.List ?? null, text, open);
  const items = open ? (q.data ?? []) : [];
  const commit = (v: string) => {
    setDraft(v);
    setOpen(false);
    setActive(-1);
    e.edit(doc, field, v);
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="edit-combobox">
      <input
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 && active < items.length ? optionId(active) : undefined}
        autoComplete="off"
        value={draft}
        {...common}
        onFocus={() => setOpen(!common.readOnly)}
        onChange={(ev) => {
          setDraft(ev.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={(ev) => {
          setOpen(false);
          // What the input holds: the blur may come before the last keystroke is rendered.
          e.edit(doc, field, ev.currentTarget.value);
        }}
        onKeyDown={(ev) => {
          if (ev.key === 'ArrowDown' && items.length) {
            ev.preventDefault();
            setActive((a) => Math.min(items.length - 1, a + 1));
          } else if (ev.key === 'ArrowUp' && items.length) {
            ev.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (ev.key === 'Enter') {
            ev.preventDefault();
            commit(active >= 0 && items[active] !== undefined ? items[active]! : draft);
          } else if (ev.key === 'Escape') setOpen(false);
        }}
      />
      <ul id={listId} role="listbox" aria-label={t('EDIT_LIST_SUGGESTIONS', { field: field.Name })} className="edit-panel-suggestions" hidden={!open || items.length === 0}>
        {items.map((v, i) => (
          <li
            key={v}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // The input keeps the focus (no blur committing the typed text first); the click or tap picks the item.
            onMouseDown={(ev) => ev.preventDefault()}
            onClick={() => commit(v)}
          >
            {v}
          </li>
        ))}
      </ul>
    </div>
  );
}
