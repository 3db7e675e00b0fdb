/**
 * The row edit panel: every visible field of one document as a labelled input, the robust way to
 * edit on tablets (Handsontable's in-cell editors fight the on-screen keyboard) and available on the
 * desktop too. A value is judged when the input is left (blur, Enter, or a select's change), through
 * the same path as a cell edit; its error is shown under the input. Until then the input's text is a
 * draft (use-edit-save.ts): an unsaved change at once, which Save judges first and Cancel drops.
 * Close editing with unsaved changes asks first.
 *
 * Beside the grid where the screen is wide enough; on a narrow screen (a tablet in portrait) a sheet
 * over the grid, which would otherwise be pushed out of view: the sheet holds the edit controls
 * (Save, Cancel: the toolbar's are under it), takes focus when it opens and gives it back when it
 * closes. Previous / next row move the panel along the page's rows in both layouts.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isTextArea } from '../../../fields/masks';
import { editMultiValue, withTrailingEntry } from '../../../fields/multi-value';
import { FIELD_TYPE, isMultiField } from '../../../fields/rules';
import { listKindOf } from '../../../fields/lists';
import { documentLabel, isDropdownField, isTableColumn, markNote, markOf, splitEntries, type EditDoc, type EditField } from '../edit-logic';
import type { IndexEditingState as GridEditingState } from '../use-index-editing';
import { NARROW_SCREEN, useMediaQuery } from '../../../ui/use-media-query';
import { EditControls } from './edit-controls';
import { DynamicSelect, SuggestInput } from './list-inputs';
import { TableRows, tableName } from './table-editor';

export function EditPanel({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  const doc = e.panelDoc;
  const ref = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const sheet = useMediaQuery(NARROW_SCREEN);
  const open = doc !== null;
  // The side panel may start below the fold on a short screen: scrolled to, not focused (focus in an
  // input would raise the on-screen keyboard).
  const docId = doc?.Id;
  useEffect(() => {
    if (docId !== undefined && !sheet) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [docId, sheet]);
  // The sheet covers the grid: focus goes to its heading (not an input, for the same keyboard) and
  // back where it was, in the grid, when it closes. The grid's own scroll is never touched.
  useEffect(() => {
    if (!open || !sheet) return;
    const before = document.activeElement as HTMLElement | null;
    headingRef.current?.focus({ preventScroll: true });
    return () => {
      if (before?.isConnected && before !== document.body) before.focus({ preventScroll: true });
    };
  }, [open, sheet]);
  if (!doc) return null;
  const fields = e.columns.flatMap((c) => (c.fieldId === undefined ? [] : [e.fieldsById.get(c.fieldId)].filter((f): f is EditField => !!f)));
  const title = documentLabel(doc, e.fields);
  return (
    <aside ref={ref} id="edit-panel" className={sheet ? 'edit-panel edit-panel-sheet' : 'edit-panel'} aria-label={t('EDIT_PANEL', { title })}>
      <div className="edit-panel-bar">
        <div className="edit-panel-head">
          <h2 ref={headingRef} tabIndex={-1}>{t('EDIT_PANEL', { title })}</h2>
          <button type="button" className="button" onClick={e.closePanel}>
            {t('EDIT_PANEL_CLOSE')}
          </button>
        </div>
        <div className="edit-panel-nav">
          <button type="button" className="button" disabled={e.panelIndex <= 0} onClick={() => e.showPanelAt(e.panelIndex - 1)}>
            {t('EDIT_PANEL_PREVIOUS')}
          </button>
          <span data-testid="edit-panel-position">{t('EDIT_PANEL_POSITION', { row: e.panelIndex + 1, count: e.pageRows })}</span>
          <button type="button" className="button" disabled={e.panelIndex >= e.pageRows - 1} onClick={() => e.showPanelAt(e.panelIndex + 1)}>
            {t('EDIT_PANEL_NEXT')}
          </button>
        </div>
        {sheet && <EditControls e={e} inSheet />}
      </div>
      {/* Keyed by document: drafts start again from the current values for another row. */}
      <PanelFields key={doc.Id} e={e} doc={doc} fields={fields} />
    </aside>
  );
}

/**
 * The inputs of one document's fields (the grid's edit panel, the viewer's indexer panel). `current`:
 * the field marked as the one being filled (data-current); `onCurrent`: a field's input took focus.
 */
export function PanelFields({ e, doc, fields, current = null, onCurrent }: { e: GridEditingState; doc: EditDoc; fields: readonly EditField[]; current?: number | null; onCurrent?: (fieldId: number) => void }) {
  return (
    <div className="edit-panel-fields">
      {fields.map((f, i) =>
        // A table field is edited once, as aligned rows, where its first column is.
        isTableColumn(f) ? (
          fields.findIndex((x) => x.Parent === f.Parent) === i && <PanelTable key={f.ID} e={e} doc={doc} parent={f.Parent!} />
        ) : (
          <PanelField key={f.ID} e={e} doc={doc} field={f} isCurrent={current === f.ID} onFocus={onCurrent && (() => onCurrent(f.ID))} />
        ),
      )}
    </div>
  );
}

function PanelField({ e, doc, field, isCurrent, onFocus }: { e: GridEditingState; doc: EditDoc; field: EditField; isCurrent: boolean; onFocus?: () => void }) {
  const { t } = useTranslation();
  const id = `edit-${doc.Id}-${field.ID}`;
  const editable = e.mayEdit(doc, field);
  const cell = e.dirty.get(doc.Id)?.cells.get(field.ID);
  const pending = e.overlays.get(doc.Id)?.get(field.ID);
  const error = cell?.error ? (cell.error.message ?? t(cell.error.key as 'FIELD_INVALID_NUMBER')) : '';
  const errorId = `${id}-error`;
  // Pending, failed or conflicting values say so in words (the label's mark is decoration).
  const outboxNote = cell ? '' : markNote(markOf(undefined, pending), undefined, pending, t);
  const common = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    'aria-description': outboxNote || undefined,
    readOnly: !editable,
    'aria-readonly': !editable || undefined,
  };
  const [draft, setDraftText] = useState(() => e.editText(doc, field));
  useResetWhenClean(cell !== undefined || e.hasDraft(doc, field), () => setDraftText(e.editText(doc, field)));
  // Text typed, pasted or filled in is an unsaved change at once (Save and Cancel enable), judged
  // when the input is left or Save is tapped.
  const setDraft = (text: string) => {
    setDraftText(text);
    e.draft(doc, field, () => e.edit(doc, field, text));
  };
  // A value put into the field from elsewhere (the indexer's fill, a clamp, the server's spelling, a
  // pending value from the outbox read after the first render, the document fetched again): the input follows.
  useFollowCellText(e.editText(doc, field), (text) => setDraftText(text));
  // A dynamic-list value cleared because a parent changed: the input follows (adjusted while rendering).
  const cleared = cell?.cleared ?? false;
  const [seenCleared, setSeenCleared] = useState(cleared);
  if (cleared !== seenCleared) {
    setSeenCleared(cleared);
    if (cleared) setDraftText('');
  }

  let control: ReactNode;
  if (isMultiField(field)) {
    return (
      <fieldset className="edit-panel-field edit-panel-multi" data-pending={pending ? pending.state : undefined} data-current={isCurrent || undefined} onFocus={onFocus}>
        <legend>{field.Name}</legend>
        <MultiInput e={e} doc={doc} field={field} editable={editable} describedBy={error ? errorId : undefined} />
        {error && <p id={errorId} className="edit-panel-error">{error}</p>}
      </fieldset>
    );
  }
  const list = isDropdownField(field) ? e.listOf(field) : null;
  const kind = listKindOf(field);
  if (editable && (kind === 'dynamic' || kind === 'typeahead')) {
    const Input = kind === 'dynamic' ? DynamicSelect : SuggestInput;
    control = <Input e={e} doc={doc} field={field} id={id} draft={draft} setDraft={setDraft} common={common} />;
  } else if (list && editable) {
    const options = ['', ...list, ...(draft && !list.includes(draft) ? [draft] : [])];
    control = (
      <select id={id} value={draft} {...common} onChange={(ev) => {
        setDraftText(ev.target.value);
        e.edit(doc, field, ev.target.value);
      }}>
        {options.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </select>
    );
  } else if (isTextArea(field)) {
    control = <textarea id={id} value={draft} rows={4} {...common} onChange={(ev) => setDraft(ev.target.value)} onBlur={(ev) => e.edit(doc, field, ev.currentTarget.value)} />;
  } else {
    // No keystroke filter: letters typed into a number stay, and the field's rules flag them.
    control = (
      <input
        id={id}
        type="text"
        inputMode={field.Type === FIELD_TYPE.number ? 'numeric' : field.Type === FIELD_TYPE.decimal ? 'decimal' : undefined}
        value={draft}
        {...common}
        onChange={(ev) => setDraft(ev.target.value)}
        // What the input holds, not `draft`: on a loaded tablet the blur can come before React has
        // rendered the last keystroke, and the value typed last was then never judged or saved.
        onBlur={(ev) => e.edit(doc, field, ev.currentTarget.value)}
        onKeyDown={(ev) => {
          if (ev.key === 'Enter') e.edit(doc, field, ev.currentTarget.value);
        }}
      />
    );
  }
  return (
    <div className="edit-panel-field" data-pending={pending ? pending.state : undefined} data-current={isCurrent || undefined} onFocus={onFocus}>
      <label htmlFor={id}>{field.Name}</label>
      {control}
      {error && <p id={errorId} className="edit-panel-error">{error}</p>}
    </div>
  );
}

/** Multi-value entries: typing into the last entry adds an empty one (the archive-ops spec §4). */
function MultiInput({ e, doc, field, editable, describedBy }: { e: GridEditingState; doc: EditDoc; field: EditField; editable: boolean; describedBy?: string }) {
  const initial = () => withTrailingEntry(splitEntries(e.editText(doc, field)).filter((s) => s !== ''));
  const [entries, setEntries, latest] = useLatestState(initial);
  const cell = e.dirty.get(doc.Id)?.cells.get(field.ID);
  useResetWhenClean(cell !== undefined || e.hasDraft(doc, field), () => setEntries(initial()));
  useFollowCellText(e.editText(doc, field), (text) => {
    if (text !== latest.current.filter((v) => v !== '').join('; ')) setEntries(withTrailingEntry(splitEntries(text).filter((v) => v !== '')));
  });
  return (
    <ul className="edit-panel-entries">
      {entries.map((v, i) => (
        <li key={i}>
          <input
            type="text"
            aria-label={`${field.Name} ${i + 1}`}
            aria-describedby={describedBy}
            value={v}
            readOnly={!editable}
            onChange={(ev) => {
              setEntries((cur) => editMultiValue(cur, i, ev.target.value));
              e.draft(doc, field, () => e.edit(doc, field, latest.current));
            }}
            onBlur={() => e.edit(doc, field, latest.current)}
          />
        </li>
      ))}
    </ul>
  );
}

/** A table field of the panel's document: its columns as aligned rows, applied when an input is left or a row added or removed. */
function PanelTable({ e, doc, parent }: { e: GridEditingState; doc: EditDoc; parent: number }) {
  const { t } = useTranslation();
  const columns = e.tableColumns(parent);
  const [values, setValues, latest] = useLatestState(() => e.tableValues(doc, parent));
  useResetWhenClean(columns.some((f) => e.dirty.get(doc.Id)?.cells.has(f.ID) || e.hasDraft(doc, f)), () => setValues(e.tableValues(doc, parent)));
  const editable = columns.some((f) => e.mayEdit(doc, f));
  const errors: Record<number, string> = {};
  for (const f of columns) {
    const err = e.dirty.get(doc.Id)?.cells.get(f.ID)?.error;
    if (err) errors[f.ID] = err.message ?? t(err.key as 'FIELD_INVALID_NUMBER');
  }
  return (
    <fieldset className="edit-panel-field edit-panel-table">
      <legend>{tableName(columns)}</legend>
      <TableRows
        columns={columns}
        values={values}
        editable={editable}
        errors={errors}
        onValues={(update) => {
          const before = latest.current;
          setValues(update);
          const next = latest.current;
          if (Object.values(next)[0]?.length !== Object.values(before)[0]?.length) e.applyTable(doc, parent, next);
          // Judging the table judges each of its columns: the draft is kept under the first.
          else if (columns[0]) e.draft(doc, columns[0], () => e.applyTable(doc, parent, latest.current));
        }}
        onBlur={() => e.applyTable(doc, parent, latest.current)}
      />
    </fieldset>
  );
}

/**
 * Starts an input again from the current value when its dirty cell is dropped (Cancel, Save, the
 * invalid entries discarded): else it would go on showing the discarded text, and leaving it would
 * make the row dirty again. State adjusted while rendering, as for the cleared dynamic-list value.
 */
/**
 * State whose latest value event handlers read through `latest`: a blur can come before React has
 * rendered the keystroke before it (seen on a loaded tablet run), so a handler reading the rendered
 * value would judge and save what was typed one step earlier.
 */
function useLatestState<T>(init: () => T): [T, (next: T | ((cur: T) => T)) => void, { readonly current: T }] {
  const [first] = useState(init);
  const [value, setValue] = useState(first);
  const latest = useRef(first);
  const set = useCallback((next: T | ((cur: T) => T)) => {
    latest.current = typeof next === 'function' ? (next as (cur: T) => T)(latest.current) : next;
    setValue(latest.current);
  }, []);
  return [value, set, latest];
}

/** Calls `follow` when a field's text changes (adjusted while rendering, as useResetWhenClean). */
function useFollowCellText(text: string | undefined, follow: (text: string) => void) {
  const [seen, setSeen] = useState(text);
  if (text !== seen) {
    setSeen(text);
    if (text !== undefined) follow(text);
  }
}

function useResetWhenClean(dirty: boolean, reset: () => void) {
  const [was, setWas] = useState(dirty);
  if (dirty !== was) {
    setWas(dirty);
    if (!dirty) reset();
  }
}
