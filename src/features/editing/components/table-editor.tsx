/**
 * Table fields edited as aligned rows (the archive-ops spec §5, §8): the columns of one table field
 * keep the same number of entries; adding or removing a row changes every column; the last row
 * cannot be removed ('Can not have less than 1 Row.'). TableRows is the editor (in the side panel
 * and in the dialog the grid opens for a table cell); TableDialog is that dialog.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addTableRow, removeTableRow, tableRowCount } from '../../../fields/multi-value';
import { FIELD_TYPE } from '../../../fields/rules';
import { Modal } from '../../../ui/modal';
import type { EditField } from '../edit-logic';
import type { IndexEditingState as GridEditingState } from '../use-index-editing';

type Table = Record<number, string[]>;

const inputModeOf = (f: EditField) => (f.Type === FIELD_TYPE.number ? 'numeric' : f.Type === FIELD_TYPE.decimal ? 'decimal' : undefined);

/** The table's name as the user sees it: its columns' names (the result set does not name tables). */
export const tableName = (columns: readonly EditField[]): string => columns.map((c) => c.Name).join(', ');

export function TableRows(props: {
  columns: readonly EditField[];
  values: Table;
  /** Gets an update of the current rows (not a finished table: two keystrokes may come before a render). */
  onValues: (update: (cur: Table) => Table) => void;
  editable: boolean;
  /** A cell input left: the side panel applies then. */
  onBlur?: () => void;
  /** Per column id: its error text. */
  errors?: Readonly<Record<number, string>>;
}) {
  const { t } = useTranslation();
  const { columns, values, onValues, editable } = props;
  const [refused, setRefused] = useState(false);
  const rows = tableRowCount(values);
  const name = tableName(columns);
  const change = (update: (cur: Table) => Table) => {
    setRefused(false);
    onValues(update);
  };
  const remove = (row: number) => {
    const r = removeTableRow(values, row);
    if (!r.ok) setRefused(true);
    else change(() => r.columns);
  };
  return (
    <div className="edit-table">
      <table aria-label={name}>
        <thead>
          <tr>
            <th scope="col">{t('EDIT_TABLE_ROW')}</th>
            {columns.map((f) => (
              <th key={f.ID} scope="col">
                {f.Name}
              </th>
            ))}
            {editable && <td />}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, r) => (
            <tr key={r}>
              <th scope="row">{r + 1}</th>
              {columns.map((f) => (
                <td key={f.ID}>
                  <input
                    type="text"
                    aria-label={t('EDIT_TABLE_CELL', { field: f.Name, row: r + 1 })}
                    inputMode={inputModeOf(f)}
                    value={values[f.ID]?.[r] ?? ''}
                    readOnly={!editable}
                    aria-invalid={props.errors?.[f.ID] ? true : undefined}
                    onChange={(ev) => {
                      const typed = ev.target.value;
                      change((cur) => {
                        const col = [...(cur[f.ID] ?? [])];
                        while (col.length < tableRowCount(cur)) col.push('');
                        // As typed: the field's rules judge it (no keystroke filter that drops letters).
                        col[r] = typed;
                        return { ...cur, [f.ID]: col };
                      });
                    }}
                    onBlur={props.onBlur}
                  />
                </td>
              ))}
              {editable && (
                <td>
                  <button type="button" className="button edit-table-remove" onClick={() => remove(r)}>
                    {t('EDIT_TABLE_REMOVE_ROW', { row: r + 1 })}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {editable && (
        <button type="button" className="button" onClick={() => change(addTableRow)}>
          {t('EDIT_TABLE_ADD_ROW')}
        </button>
      )}
      {refused && (
        <p role="alert" className="edit-panel-error">
          {t('EDIT_TABLE_MIN_ROWS')}
        </p>
      )}
      {columns.map((f) =>
        props.errors?.[f.ID] ? (
          <p key={f.ID} className="edit-panel-error">
            {f.Name}: {props.errors[f.ID]}
          </p>
        ) : null,
      )}
    </div>
  );
}

/** The dialog the grid opens for a table cell: the document's table, applied as one edit of its columns. */
export function TableDialog({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  const open = e.table?.doc ?? null;
  const parent = e.table?.parent ?? 0;
  const columns = open ? e.tableColumns(parent) : [];
  return (
    <Modal open={open !== null} title={t('EDIT_TABLE_TITLE', { table: tableName(columns) })} onClose={e.closeTable} className="edit-table-dialog">
      {open && <TableDialogBody key={`${open.Id}-${parent}`} e={e} />}
    </Modal>
  );
}

function TableDialogBody({ e }: { e: GridEditingState }) {
  const { t } = useTranslation();
  const doc = e.table!.doc!;
  const parent = e.table!.parent;
  const columns = e.tableColumns(parent);
  const [values, setValues] = useState(() => e.tableValues(doc, parent));
  return (
    <>
      <TableRows columns={columns} values={values} onValues={setValues} editable />
      <div className="modal-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            e.applyTable(doc, parent, values);
            e.closeTable();
          }}
        >
          {t('EDIT_TABLE_APPLY')}
        </button>
        <button type="button" className="button" onClick={e.closeTable}>
          {t('EDIT_TABLE_CANCEL')}
        </button>
      </div>
    </>
  );
}
