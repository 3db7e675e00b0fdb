/**
 * The row edit panel: every visible field of one document as a labelled input, the robust way to
 * edit on tablets (Handsontable's in-cell editors fight the on-screen keyboard) and available on the
 * desktop too. A value is judged when the input is left (blur, Enter, or a select's change), through
 * the same path as a cell edit; its error is shown under the input.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { filterDecimalInput, filterNumericInput, isTextArea } from '../../../fields/masks';
import { editMultiValue, withTrailingEntry } from '../../../fields/multi-value';
import { FIELD_TYPE, isMultiField } from '../../../fields/rules';
import { documentLabel, isDropdownField, splitEntries, type EditDoc, type EditField } from '../edit-logic';
import type { GridEditingState } from '../use-grid-editing';

export function EditPanel({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  const doc = e.panelDoc;
  if (!doc) return null;
  const fields = e.columns.flatMap((c) => (c.fieldId === undefined ? [] : [e.fieldsById.get(c.fieldId)].filter((f): f is EditField => !!f)));
  const title = documentLabel(doc, e.fields);
  return (
    <aside id="edit-panel" className="edit-panel" aria-label={t('EDIT_PANEL', { title })}>
      <div className="edit-panel-head">
        <h2>{t('EDIT_PANEL', { title })}</h2>
        <button type="button" className="button" onClick={e.closePanel}>
          {t('EDIT_PANEL_CLOSE')}
        </button>
      </div>
      {/* Keyed by document: drafts start again from the current values for another row. */}
      <div key={doc.Id} className="edit-panel-fields">
        {fields.map((f) => (
          <PanelField key={f.ID} e={e} doc={doc} field={f} />
        ))}
      </div>
    </aside>
  );
}

function PanelField({ e, doc, field }: { e: GridEditingState; doc: EditDoc; field: EditField }) {
  const { t } = useTranslation();
  const id = `edit-${doc.Id}-${field.ID}`;
  const editable = e.mayEdit(doc, field);
  const cell = e.dirty.get(doc.Id)?.cells.get(field.ID);
  const pending = e.overlays.get(doc.Id)?.get(field.ID);
  const error = cell?.error ? (cell.error.message ?? t(cell.error.key as 'FIELD_INVALID_NUMBER')) : '';
  const errorId = `${id}-error`;
  const common = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined, readOnly: !editable, 'aria-readonly': !editable || undefined };
  const [draft, setDraft] = useState(() => e.editText(doc, field));

  let control: ReactNode;
  if (isMultiField(field)) {
    return (
      <fieldset className="edit-panel-field edit-panel-multi" data-pending={pending ? pending.state : undefined}>
        <legend>{field.Name}</legend>
        <MultiInput e={e} doc={doc} field={field} editable={editable} describedBy={error ? errorId : undefined} />
        {error && <p id={errorId} className="edit-panel-error">{error}</p>}
      </fieldset>
    );
  }
  const list = isDropdownField(field) ? e.listOf(field) : null;
  if (list && editable) {
    const options = ['', ...list, ...(draft && !list.includes(draft) ? [draft] : [])];
    control = (
      <select id={id} value={draft} {...common} onChange={(ev) => {
        setDraft(ev.target.value);
        e.edit(doc, field, ev.target.value);
      }}>
        {options.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </select>
    );
  } else if (isTextArea(field)) {
    control = <textarea id={id} value={draft} rows={4} {...common} onChange={(ev) => setDraft(ev.target.value)} onBlur={() => e.edit(doc, field, draft)} />;
  } else {
    const filter = field.Type === FIELD_TYPE.number ? filterNumericInput : field.Type === FIELD_TYPE.decimal ? filterDecimalInput : (s: string) => s;
    control = (
      <input
        id={id}
        type="text"
        inputMode={field.Type === FIELD_TYPE.number ? 'numeric' : field.Type === FIELD_TYPE.decimal ? 'decimal' : undefined}
        value={draft}
        {...common}
        onChange={(ev) => setDraft(filter(ev.target.value))}
        onBlur={() => {
          e.edit(doc, field, draft);
        }}
        onKeyDown={(ev) => {
          if (ev.key === 'Enter') e.edit(doc, field, draft);
        }}
      />
    );
  }
  return (
    <div className="edit-panel-field" data-pending={pending ? pending.state : undefined}>
      <label htmlFor={id}>{field.Name}</label>
      {control}
      {error && <p id={errorId} className="edit-panel-error">{error}</p>}
    </div>
  );
}

/** Multi-value entries: typing into the last entry adds an empty one (archive-inbox-ops.md §4). */
function MultiInput({ e, doc, field, editable, describedBy }: { e: GridEditingState; doc: EditDoc; field: EditField; editable: boolean; describedBy?: string }) {
  const [entries, setEntries] = useState(() => withTrailingEntry(splitEntries(e.editText(doc, field)).filter((s) => s !== '')));
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
            onChange={(ev) => setEntries((cur) => editMultiValue(cur, i, ev.target.value))}
            onBlur={() => e.edit(doc, field, entries)}
          />
        </li>
      ))}
    </ul>
  );
}
