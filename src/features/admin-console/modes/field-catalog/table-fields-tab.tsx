import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dynamicListWarnings, removedFromTableField } from '../../../../fields/catalogue-rules';
import { deleteTableField, saveTableField, useRefreshCatalogue, type ConsoleField, type ConsoleTableField, type TableFieldDraft } from '../../api/catalogue';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ListDetail } from '../../ui/list-detail';
import { useAddButton } from '../../ui/use-add-button';
import type { ModeProps } from '../../mode-props';
import { CatalogueDelete, DetailActions, EditorError, FieldPicker, ItemList } from './catalogue-ui';
import { dependencyFields } from './field-draft';
import { useCatalogueEditor } from './use-catalogue-editor';

interface Props extends Pick<ModeProps, 'registerAdd' | 'onDirtyChange'> {
  scope: string | null;
  dbId: number;
  tableFields: readonly ConsoleTableField[];
  fields: readonly ConsoleField[];
}

/** TABLE_FIELDS: a table field's name and columns (fields); removing a column of a saved one asks REMOVE_FIELD_FROM_TABLEFIELD_MSG. */
export function TableFieldsTab(props: Props) {
  const { t } = useTranslation();
  const ed = useCatalogueEditor<ConsoleTableField>(props.onDirtyChange);
  const refresh = useRefreshCatalogue(props.scope, props.dbId);
  const [removing, setRemoving] = useState<{ fieldId: number; apply: () => void } | null>(null);
  useAddButton(props.registerAdd, { label: t('CATALOGUE_ADD_TABLE_FIELD'), onAdd: () => ed.edit(null) });
  const shown = props.tableFields.find((x) => x.id === ed.selected) ?? null;
  const saved = ed.editing?.item ?? null;
  const name = (id: number) => props.fields.find((f) => f.id === id)?.name ?? `#${id}`;
  const deps = dependencyFields(props.fields);
  const warningText = (before: readonly number[], after: readonly number[]) =>
    dynamicListWarnings(before, after, deps).map((w) => t(w.key, { field: w.field, other: w.other }));

  return (
    <>
      <ListDetail
        listLabel={t('CATALOGUE_TAB_TABLE_FIELDS')}
        list={<ItemList label={t('CATALOGUE_TAB_TABLE_FIELDS')} items={props.tableFields} selected={ed.selected} onSelect={ed.setSelected} />}
        detailLabel={shown?.name}
        detail={
          shown ? (
            <div className="catalogue-detail">
              <h3>{shown.name}</h3>
              <p>{t('CATALOGUE_COLUMNS')}</p>
              <ul className="catalogue-columns">{shown.fields.length ? shown.fields.map((id) => <li key={id}>{name(id)}</li>) : <li className="hint">{t('CATALOGUE_NONE')}</li>}</ul>
              <DetailActions ed={ed} item={shown} />
            </div>
          ) : (
            <p className="hint">{t('CATALOGUE_CHOOSE_TABLE_FIELD')}</p>
          )
        }
      />
      <EditCopyModal<TableFieldDraft>
        open={ed.editing !== null}
        title={saved ? t('CATALOGUE_EDIT_TABLE_FIELD', { name: saved.name }) : t('CATALOGUE_NEW_TABLE_FIELD')}
        value={{ name: saved?.name ?? '', fields: saved?.fields ?? [] }}
        onCancel={ed.close}
        onSave={(d) =>
          ed.save(async () => {
            const r = await saveTableField(props.dbId, saved?.id ?? null, { name: d.name.trim(), fields: d.fields });
            await refresh();
            return r;
          })
        }
        problem={(d) => (d.name.trim() ? null : t('CATALOGUE_NAME_REQUIRED'))}
      >
        {(copy, setCopy) => {
          // Columns may be plain fields that are in no other table field.
          const candidates = props.fields
            .filter((f) => !copy.fields.includes(f.id) && (f.systemField === '' || f.systemField === 'readOnly') && (f.tableField === null || f.tableField === saved?.id))
            .map((f) => ({ id: f.id, name: f.name }));
          const warnings = warningText(saved?.fields ?? [], copy.fields);
          return (
            <>
              <div className="field">
                <label className="field-label" htmlFor="catalogue-tf-name">
                  {t('CATALOGUE_NAME')}
                </label>
                <input id="catalogue-tf-name" value={copy.name} maxLength={200} onChange={(e) => setCopy({ ...copy, name: e.target.value })} />
              </div>
              <h4 className="catalogue-subtitle">{t('CATALOGUE_COLUMNS')}</h4>
              <ul className="admin-picklist" aria-label={t('CATALOGUE_COLUMNS')}>
                {copy.fields.map((id) => (
                  <li key={id}>
                    <span className="grow">{name(id)}</span>
                    <button
                      type="button"
                      className="button"
                      aria-label={t('CATALOGUE_REMOVE_COLUMN', { name: name(id) })}
                      onClick={() => {
                        const apply = () => setCopy({ ...copy, fields: copy.fields.filter((x) => x !== id) });
                        // A column of the saved table field: its values in documents are kept, but ask first.
                        if (removedFromTableField(saved?.fields ?? null, copy.fields.filter((x) => x !== id)).includes(id)) setRemoving({ fieldId: id, apply });
                        else apply();
                      }}
                    >
                      {t('CATALOGUE_REMOVE')}
                    </button>
                  </li>
                ))}
                {copy.fields.length === 0 && <li className="hint">{t('CATALOGUE_NONE')}</li>}
              </ul>
              <FieldPicker label={t('CATALOGUE_ADD_COLUMN')} fields={candidates} value={null} clearOnPick onChange={(id) => id !== null && setCopy({ ...copy, fields: [...copy.fields, id] })} />
              {warnings.length > 0 && (
                <ul className="catalogue-warnings" role="status">
                  {warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              )}
              <EditorError text={ed.error} />
            </>
          );
        }}
      </EditCopyModal>
      <ConfirmDialog
        open={removing !== null}
        title={t('CATALOGUE_REMOVE_COLUMN_TITLE')}
        message={t('REMOVE_FIELD_FROM_TABLEFIELD_MSG', { field: removing ? name(removing.fieldId) : '', name: saved?.name ?? '' })}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          removing?.apply();
          setRemoving(null);
        }}
      />
      <CatalogueDelete
        ed={ed}
        run={async (x) => {
          await deleteTableField(props.dbId, x.id);
          await refresh();
        }}
      />
    </>
  );
}
