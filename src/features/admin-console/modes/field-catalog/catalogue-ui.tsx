/**
 * Pieces the three tabs of the field catalogue share: the error text of a failed call (the
 * catalogue's keys translated, the rest as the one error handler words it), the filtered item
 * list (at most 100 shown, the console spec §9) and the field picker (a text box with at most 100
 * suggestions).
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CATALOGUE_ERROR_KEYS, type CatalogueErrorKey } from '../../../../api/admin-catalogue';
import { isApiError } from '../../../../api/api-error';
import { errorText } from '../../../../api/error-handler';
import { TEXT_COMPLETE_MAX } from '../../../../api/archives';
import { filterItems } from '../../../../fields/lists';
import type { AppTFunction } from '../../../../i18n/t-function';
import { DeleteConfirmDialog } from '../../ui/delete-confirm-dialog';
import { SuggestionList, comboboxProps, useSuggestionKeys } from '../../ui/suggestion-list';
import type { useCatalogueEditor } from './use-catalogue-editor';

const isCatalogueKey = (k: string | undefined): k is CatalogueErrorKey => (CATALOGUE_ERROR_KEYS as readonly string[]).includes(k ?? '');

/** The catalogue's own keys in the user's language (with the names the server listed after ': '); anything else as the error handler says it. */
export function catalogueErrorText(t: AppTFunction, e: unknown): string {
  if (isApiError(e) && isCatalogueKey(e.key)) {
    const detail = (e.serverMessage ?? '').split(': ').slice(1).join(': ');
    return detail ? `${t(e.key)}: ${detail}` : t(e.key);
  }
  return errorText(e);
}

/** A translated problem key of a draft (null: none). */
export const problemText = (t: AppTFunction, key: string | null): string | null => (key && isCatalogueKey(key) ? t(key) : null);

interface Item {
  id: number;
  name: string;
}

/** The tab's items, filtered by a typed text, at most 100 shown (the hint says when more match). */
export function ItemList<T extends Item>(props: { label: string; items: readonly T[]; selected: number | null; onSelect: (id: number) => void; describe?: (item: T) => string }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const names = useMemo(() => props.items.map((i) => i.name), [props.items]);
  const matches = useMemo(() => filterItems(names, text, Number.MAX_SAFE_INTEGER), [names, text]);
  const shown = useMemo(() => {
    const byName = new Map<string, T[]>();
    for (const i of props.items) byName.set(i.name, [...(byName.get(i.name) ?? []), i]);
    return [...new Set(matches.slice(0, TEXT_COMPLETE_MAX))].flatMap((n) => byName.get(n) ?? []);
  }, [matches, props.items]);
  return (
    <div className="admin-form">
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {t('CATALOGUE_FILTER', { what: props.label })}
        </label>
        <input id={id} type="search" value={text} autoComplete="off" onChange={(e) => setText(e.target.value)} />
      </div>
      {matches.length > TEXT_COMPLETE_MAX && <p className="hint">{t('CATALOGUE_MORE_ITEMS', { shown: TEXT_COMPLETE_MAX, n: matches.length })}</p>}
      {shown.length === 0 ? (
        <p className="hint">{t('CATALOGUE_NONE')}</p>
      ) : (
        <ul className="admin-list" aria-label={props.label}>
          {shown.map((i) => (
            <li key={i.id}>
              <button type="button" className="admin-list-item" aria-current={props.selected === i.id ? 'true' : undefined} onClick={() => props.onSelect(i.id)}>
                <span className="grow">{i.name}</span>
                {props.describe && <span className="hint catalogue-item-note">{props.describe(i)}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A field chosen by typing its name: suggestions (at most 100) among `fields`; Enter or a tap picks one. */
export function FieldPicker(props: { label: string; fields: readonly Item[]; value: number | null; onChange: (id: number | null) => void; clearOnPick?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-list`;
  const current = props.fields.find((f) => f.id === props.value)?.name ?? '';
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const shownText = text ?? current;
  const names = useMemo(() => props.fields.map((f) => f.name), [props.fields]);
  const options = useMemo(() => (open ? filterItems(names, text ?? '', TEXT_COMPLETE_MAX) : []), [open, names, text]);
  const choose = (name: string) => {
    const f = props.fields.find((x) => x.name === name);
    props.onChange(f?.id ?? null);
    setText(props.clearOnPick ? '' : null);
    setOpen(false);
  };
  const keys = useSuggestionKeys(options, open, choose, () => setOpen(false));
  return (
    <div className="field admin-combo">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <div className="admin-row">
        <input
          id={id}
          className="grow"
          {...comboboxProps(listId, open && options.length > 0, keys.active)}
          value={shownText}
          placeholder={t('CATALOGUE_TYPE_TO_FIND')}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setText(null);
          }}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            keys.setActive(-1);
          }}
          onKeyDown={keys.onKeyDown}
        />
        {!props.clearOnPick && props.value !== null && (
          <button type="button" className="button" onClick={() => props.onChange(null)} aria-label={t('CATALOGUE_CLEAR_FIELD', { what: props.label })}>
            {t('CATALOGUE_CLEAR')}
          </button>
        )}
      </div>
      {open && <SuggestionList id={listId} label={props.label} options={options} active={keys.active} onChoose={choose} />}
    </div>
  );
}

type Editor<T extends Item> = ReturnType<typeof useCatalogueEditor<T>>;

/** The shown item's Edit and Delete buttons (Edit left out where the item is not edited here). */
export function DetailActions<T extends Item>(props: { ed: Editor<T>; item: T; canEdit?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="admin-row">
      {props.canEdit !== false && (
        <button type="button" className="button button-primary" onClick={() => props.ed.edit(props.item)}>
          {t('CATALOGUE_EDIT')}
        </button>
      )}
      <button type="button" className="button button-danger" onClick={() => props.ed.askDelete(props.item)}>
        {t('ADMIN_DELETE')}
      </button>
    </div>
  );
}

/** The delete confirmation ('DELETE {NAME}' typed) of the item the editor asks to delete; `run` deletes it and refreshes. */
export function CatalogueDelete<T extends Item>(props: { ed: Editor<T>; run: (item: T) => Promise<void> }) {
  const { ed } = props;
  return (
    <DeleteConfirmDialog
      open={ed.deleting !== null}
      name={ed.deleting?.name ?? ''}
      busy={ed.busy}
      onCancel={() => ed.askDelete(null)}
      onConfirm={() => {
        const item = ed.deleting;
        if (item) void ed.remove(() => props.run(item));
      }}
    />
  );
}

/** A failed save's words inside the editor. */
export function EditorError({ text }: { text: string | null }) {
  return text ? (
    <p className="form-error" role="alert">
      {text}
    </p>
  ) : null;
}
