import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { needsTypeChangeConfirm } from '../../../../fields/catalogue-rules';
import { deleteField, saveField, useRefreshCatalogue, type ConsoleField, type ConsoleList } from '../../api/catalogue';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ListDetail } from '../../ui/list-detail';
import { useAddButton } from '../../ui/use-add-button';
import type { ModeProps } from '../../mode-props';
import { CatalogueDelete, DetailActions, EditorError, ItemList, problemText } from './catalogue-ui';
import { FieldEditor } from './field-editor';
import { draftToWire, fieldDraftProblem, fieldToDraft, type FieldDraft } from './field-draft';
import { useCatalogueEditor } from './use-catalogue-editor';

interface Props extends Pick<ModeProps, 'registerAdd' | 'onDirtyChange'> {
  scope: string | null;
  dbId: number;
  fields: readonly ConsoleField[];
  lists: readonly ConsoleList[];
}

/** FIELDS: the database's fields, one shown with its settings; add, edit (a copy, in a modal) and delete. */
export function FieldsTab(props: Props) {
  const { t } = useTranslation();
  const ed = useCatalogueEditor<ConsoleField>(props.onDirtyChange);
  const refresh = useRefreshCatalogue(props.scope, props.dbId);
  const [confirming, setConfirming] = useState<FieldDraft | null>(null);
  useAddButton(props.registerAdd, { label: t('CATALOGUE_ADD_FIELD'), onAdd: () => ed.edit(null) });
  const listKinds = new Map(props.lists.map((l) => [l.id, l.kind]));
  const shown = props.fields.find((f) => f.id === ed.selected) ?? null;
  const saved = ed.editing?.item ?? null;

  const doSave = (draft: FieldDraft) =>
    ed.save(async () => {
      const r = await saveField(props.dbId, saved?.id ?? null, draftToWire(draft));
      await refresh();
      return r;
    });
  const onSave = (draft: FieldDraft) => {
    // A saved field's type or multi-value changed: CONFIRM_FIELDTYPE_CHANGE first.
    if (needsTypeChangeConfirm(saved && { type: saved.type, multiValue: saved.multiValue }, draft)) {
      setConfirming(draft);
      return;
    }
    return doSave(draft);
  };

  return (
    <>
      <ListDetail
        listLabel={t('CATALOGUE_TAB_FIELDS')}
        list={<ItemList label={t('CATALOGUE_TAB_FIELDS')} items={props.fields} selected={ed.selected} onSelect={ed.setSelected} describe={(f) => t(`CATALOGUE_TYPE_${f.type}`)} />}
        detailLabel={shown?.name}
        detail={shown ? <FieldDetail field={shown} fields={props.fields} lists={props.lists} actions={<DetailActions ed={ed} item={shown} />} /> : <p className="hint">{t('CATALOGUE_CHOOSE_FIELD')}</p>}
      />
      <EditCopyModal<FieldDraft>
        open={ed.editing !== null}
        title={saved ? t('CATALOGUE_EDIT_FIELD', { name: saved.name }) : t('CATALOGUE_NEW_FIELD')}
        value={fieldToDraft(saved)}
        className="admin-modal-wide"
        onCancel={ed.close}
        onSave={onSave}
        problem={(d) => problemText(t, fieldDraftProblem(d, listKinds))}
      >
        {(copy, setCopy) => (
          <>
            <FieldEditor draft={copy} onChange={setCopy} self={saved?.id ?? null} fields={props.fields} lists={props.lists} />
            <EditorError text={ed.error} />
          </>
        )}
      </EditCopyModal>
      <ConfirmDialog
        open={confirming !== null}
        title={t('CATALOGUE_TYPE_CHANGE_TITLE')}
        message={t('CONFIRM_FIELDTYPE_CHANGE')}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const d = confirming;
          setConfirming(null);
          if (d) void doSave(d);
        }}
      />
      <CatalogueDelete
        ed={ed}
        run={async (f) => {
          await deleteField(props.dbId, f.id);
          await refresh();
        }}
      />
    </>
  );
}

function FieldDetail(props: { field: ConsoleField; fields: readonly ConsoleField[]; lists: readonly ConsoleList[]; actions: ReactNode }) {
  const { t } = useTranslation();
  const f = props.field;
  const name = (id: number | null) => props.fields.find((x) => x.id === id)?.name ?? '';
  const list = props.lists.find((l) => l.id === f.list?.listId);
  const rows: [string, string][] = [
    [t('CATALOGUE_TYPE'), t(`CATALOGUE_TYPE_${f.type}`)],
    [t('CATALOGUE_LENGTH'), String(f.length)],
    [t('CATALOGUE_FORMAT'), f.format || '—'],
    [t('CATALOGUE_MULTI_VALUE'), f.multiValue ? t('CATALOGUE_YES') : t('CATALOGUE_NO')],
    [t('CATALOGUE_REQUIRED'), f.required ? t('CATALOGUE_YES') : t('CATALOGUE_NO')],
    [t('CATALOGUE_SYSTEM_FIELD'), f.systemField ? t(`CATALOGUE_SYSTEM_${f.systemField}`) : t('CATALOGUE_SYSTEM_NONE')],
    [t('CATALOGUE_REGEX'), f.regex || '—'],
    [t('CATALOGUE_LIVE_FIELD'), f.extendedConfig.liveField ? f.extendedConfig.liveField.url : '—'],
    [t('CATALOGUE_LIST_BINDING'), f.list ? `${t(`CATALOGUE_LIST_${f.list.type.toUpperCase() as 'DROPDOWN' | 'TYPEAHEAD' | 'DYNAMIC'}`)}${list ? `: ${list.name}` : ''}` : t('CATALOGUE_LIST_NONE')],
    ...(f.list?.type === 'dynamic' ? ([[t('CATALOGUE_PRIMARY_FIELD'), name(f.list.primary)], [t('CATALOGUE_SECONDARY_FIELD'), name(f.list.secondary) || '—']] as [string, string][]) : []),
    [t('CATALOGUE_USED_BY_ARCHIVES'), String(f.archives.length)],
  ];
  return (
    <div className="catalogue-detail">
      <h3>{f.name}</h3>
      <dl className="catalogue-props">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {props.actions}
    </div>
  );
}
