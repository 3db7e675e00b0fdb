/**
 * Handsontable pieces of in-cell editing: a text editor that opens with the field's edit text (locale
 * dates and decimals, not the wire form), and the cell meta of an editable field cell. The value typed
 * is never written into Handsontable's data: results-grid.tsx hands it to the editing hook, which
 * validates it and lays it over the rows.
 *
 * Number and decimal cells take any keystroke: what is typed stays in the cell and the field's rules
 * judge it (FIELD_INVALID_NUMBER), as for every other invalid value. A keystroke filter dropped
 * letters silently, so "abc" typed into a number cell committed '' and emptied the field.
 */
import { registerEditor, SelectEditor, TextEditor } from 'handsontable/editors';
import { FIELD_EDITOR, type FieldCellMeta, type ListCellMeta } from './grid-cell-meta';

export class FieldEditor extends TextEditor {
  open(): void {
    const mode = (this.cellProperties as unknown as FieldCellMeta | undefined)?.inputMode;
    if (mode) this.TEXTAREA.setAttribute('inputmode', mode);
    else this.TEXTAREA.removeAttribute('inputmode');
    super.open();
  }

  beginEditing(newInitialValue?: unknown, event?: Event): void {
    const meta = this.cellProperties as unknown as FieldCellMeta | undefined;
    const initial = typeof newInitialValue === 'string' ? newInitialValue : (meta?.editText?.() ?? undefined);
    super.beginEditing(initial, event);
  }
}

const LIST_DEBOUNCE_MS = 150;
const LIST_SHORTCUTS = 'archive-list';
let listboxIds = 0;

/**
 * The field editor as registered (FIELD_EDITOR): FieldEditor, and for cells whose meta has a
 * listSource (dynamic and type-ahead lists) a listbox of the list's items under the text (the ARIA
 * combobox pattern): typing filters (dynamic lists) or asks for suggestions (type-ahead lists);
 * ArrowDown/ArrowUp move through the items, Enter or a click takes the active item, Escape cancels.
 * What is committed is judged like any typed value: a value outside the list is refused by the list
 * check. One editor for both, so the grid has one text area (tests and assistive technology find it).
 */
export class ListEditor extends FieldEditor {
  // Declared, not a class field: createElements runs in the base constructor, and a field
  // initialiser would reset it afterwards.
  declare LISTBOX: HTMLUListElement;
  private items: string[] = [];
  private active = -1;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  createElements(type?: string): void {
    super.createElements(type);
    const doc = this.hot.rootDocument;
    this.LISTBOX = doc.createElement('ul');
    this.LISTBOX.id = `edit-listbox-${++listboxIds}`;
    this.LISTBOX.className = 'edit-listbox';
    this.LISTBOX.setAttribute('role', 'listbox');
    this.LISTBOX.hidden = true;
    this.TEXTAREA_PARENT.appendChild(this.LISTBOX);
    // mousedown, not click: the text area keeps the focus, so the grid does not close the editor first.
    this.LISTBOX.addEventListener('mousedown', (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      const li = (ev.target as HTMLElement).closest<HTMLElement>('li[data-index]');
      if (li) this.pick(Number(li.dataset.index));
    });
  }

  bindEvents(): void {
    super.bindEvents();
    this.TEXTAREA.addEventListener('input', () => {
      if (!this.listMeta?.listSource) return;
      // What was active belongs to the items of the text before: Enter now commits what is typed.
      this.active = -1;
      this.mark();
      this.load(this.TEXTAREA.value, LIST_DEBOUNCE_MS);
    });
  }

  private get listMeta(): ListCellMeta | undefined {
    return this.cellProperties as unknown as ListCellMeta | undefined;
  }

  open(): void {
    super.open();
    const m = this.listMeta;
    const ta = this.TEXTAREA;
    if (!m?.listSource) {
      for (const a of ['role', 'aria-autocomplete', 'aria-controls', 'aria-expanded', 'aria-label', 'aria-activedescendant']) ta.removeAttribute(a);
      return;
    }
    ta.setAttribute('role', 'combobox');
    ta.setAttribute('aria-autocomplete', 'list');
    ta.setAttribute('aria-controls', this.LISTBOX.id);
    ta.setAttribute('aria-expanded', 'false');
    this.LISTBOX.setAttribute('aria-label', m.listLabel ?? '');
    ta.setAttribute('aria-label', m.listLabel ?? '');
    // Opened with Enter or a double click: every item (the current one active); opened by typing: what matches.
    const typed = this.TEXTAREA.value !== (m?.editText?.() ?? '');
    this.load(typed ? this.TEXTAREA.value : '', 0);
    const ctx = this.hot.getShortcutManager().getContext('editor');
    ctx?.addShortcuts(
      [
        { keys: [['ArrowDown']], callback: () => (this.items.length ? (this.move(1), false) : undefined) },
        { keys: [['ArrowUp']], callback: () => (this.items.length ? (this.move(-1), false) : undefined) },
        {
          keys: [['Enter']],
          preventDefault: false,
          callback: () => {
            const v = this.active >= 0 ? this.items[this.active] : undefined;
            if (v !== undefined) this.TEXTAREA.value = v;
          },
        },
      ],
      { group: LIST_SHORTCUTS, relativeToGroup: 'editorManager.handlingEditor', position: 'before' },
    );
  }

  close(): void {
    this.hot.getShortcutManager().getContext('editor')?.removeShortcutsByGroup(LIST_SHORTCUTS);
    clearTimeout(this.timer);
    this.abort?.abort();
    this.abort = null;
    this.show([], false);
    super.close();
  }

  private load(text: string, delay: number): void {
    clearTimeout(this.timer);
    const source = this.listMeta?.listSource;
    if (!source) return;
    this.timer = setTimeout(() => {
      this.abort?.abort();
      const ac = new AbortController();
      this.abort = ac;
      source(text, ac.signal).then(
        (items) => {
          if (!ac.signal.aborted && this.isOpened()) this.show(items, true);
        },
        () => undefined,
      );
      // Only a slow answer shows the loading text.
      setTimeout(() => {
        if (this.abort === ac && !ac.signal.aborted && this.items.length === 0 && this.isOpened()) this.status(this.listMeta?.listLoading ?? '', true);
      }, 200);
    }, delay);
  }

  private status(text: string, open: boolean): void {
    this.LISTBOX.replaceChildren();
    this.items = [];
    this.active = -1;
    this.TEXTAREA.removeAttribute('aria-activedescendant');
    if (text) {
      const li = this.hot.rootDocument.createElement('li');
      li.className = 'edit-listbox-status';
      li.setAttribute('aria-live', 'polite');
      li.textContent = text;
      this.LISTBOX.appendChild(li);
    }
    this.LISTBOX.hidden = !open;
    this.TEXTAREA.setAttribute('aria-expanded', String(open));
  }

  private show(items: string[], open: boolean): void {
    this.status(open && items.length === 0 ? (this.listMeta?.listEmpty ?? '') : '', open);
    this.items = items;
    const current = this.TEXTAREA.value.trim().toLowerCase();
    items.forEach((v, i) => {
      const li = this.hot.rootDocument.createElement('li');
      li.id = `${this.LISTBOX.id}-${i}`;
      li.setAttribute('role', 'option');
      li.dataset.index = String(i);
      li.textContent = v;
      this.LISTBOX.appendChild(li);
      if (this.active < 0 && current && v.toLowerCase() === current) this.active = i;
    });
    this.LISTBOX.style.top = `${this.TEXTAREA.offsetHeight}px`;
    this.mark();
  }

  private move(delta: number): void {
    const n = this.items.length;
    this.active = this.active < 0 ? (delta > 0 ? 0 : n - 1) : Math.min(n - 1, Math.max(0, this.active + delta));
    this.mark();
  }

  private mark(): void {
    this.LISTBOX.querySelectorAll('li[role="option"]').forEach((li, i) => li.setAttribute('aria-selected', String(i === this.active)));
    const li = this.active >= 0 ? this.LISTBOX.querySelector<HTMLElement>(`li[data-index="${this.active}"]`) : null;
    if (li) {
      this.TEXTAREA.setAttribute('aria-activedescendant', li.id);
      li.scrollIntoView?.({ block: 'nearest' });
    } else this.TEXTAREA.removeAttribute('aria-activedescendant');
  }

  private pick(i: number): void {
    const v = this.items[i];
    if (v === undefined) return;
    this.TEXTAREA.value = v;
    this.finishEditing(false);
  }
}

let registered = false;
export function registerFieldEditors(): void {
  if (registered) return;
  registered = true;
  registerEditor(FIELD_EDITOR, ListEditor);
  registerEditor(SelectEditor);
}

