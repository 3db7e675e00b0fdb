import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ASSEMBLY_PREFIX_OPTIONS, LIST_KINDS } from '../../../../api/admin-catalogue';
import { assemblyProblem, cleanListValues, composeAssemblyPath, splitAssemblyPath, type AssemblyPrefix } from '../../../../fields/catalogue-rules';
import { deleteList, saveList, testList, useRefreshCatalogue, type ConsoleField, type ConsoleList, type ListDraft } from '../../api/catalogue';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ListDetail } from '../../ui/list-detail';
import { useAddButton } from '../../ui/use-add-button';
import type { ModeProps } from '../../mode-props';
import { CatalogueDelete, DetailActions, EditorError, ItemList, catalogueErrorText } from './catalogue-ui';
import { useCatalogueEditor } from './use-catalogue-editor';

interface Props extends Pick<ModeProps, 'registerAdd' | 'onDirtyChange'> {
  scope: string | null;
  dbId: number;
  lists: readonly ConsoleList[];
  fields: readonly ConsoleField[];
}

/** The list editor's copy: values one a line, the assembly path split into its prefix and the rest. */
interface ListForm {
  name: string;
  values: string;
  assemblyBound: boolean;
  prefix: AssemblyPrefix;
  path: string;
  parameters: string;
}

const toForm = (l: ConsoleList | null): ListForm => {
  const { prefix, path } = splitAssemblyPath(l?.assemblyPath);
  return { name: l?.name ?? '', values: (l?.values ?? []).join('\n'), assemblyBound: Boolean(l?.assemblyPath), prefix, path, parameters: l?.assemblyParameters ?? '' };
};
const toDraft = (f: ListForm): ListDraft => ({
  name: f.name.trim(),
  values: cleanListValues(f.values.split('\n')),
  assemblyPath: f.assemblyBound ? composeAssemblyPath(f.prefix, f.path) : '',
  assemblyParameters: f.assemblyBound ? f.parameters.trim() : '',
});

/** LISTS: a list's values (empty ones dropped on save) or its assembly (path with [SQL]/[MONGODB], parameters, a test call). */
export function ListsTab(props: Props) {
  const { t } = useTranslation();
  const ed = useCatalogueEditor<ConsoleList>(props.onDirtyChange);
  const refresh = useRefreshCatalogue(props.scope, props.dbId);
  useAddButton(props.registerAdd, { label: t('CATALOGUE_ADD_LIST'), onAdd: () => ed.edit(null) });
  const shown = props.lists.find((l) => l.id === ed.selected) ?? null;
  const saved = ed.editing?.item ?? null;
  const fieldName = (id: number) => props.fields.find((f) => f.id === id)?.name ?? `#${id}`;

  return (
    <>
      <ListDetail
        listLabel={t('CATALOGUE_TAB_LISTS')}
        list={<ItemList label={t('CATALOGUE_TAB_LISTS')} items={props.lists} selected={ed.selected} onSelect={ed.setSelected} describe={(l) => (l.kind === LIST_KINDS.dynamic ? t('CATALOGUE_LIST_DYNAMIC') : '')} />}
        detailLabel={shown?.name}
        detail={
          shown ? (
            <div className="catalogue-detail">
              <h3>{shown.name}</h3>
              {shown.assemblyPath && (
                <p>
                  {t('CATALOGUE_ASSEMBLY_PATH')}: <code>{shown.assemblyPath}</code>
                </p>
              )}
              {shown.kind === LIST_KINDS.dynamic ? (
                <>
                  <p className="hint">{t('CATALOGUE_DYNAMIC_ROWS_HINT')}</p>
                  <table className="catalogue-rows">
                    <thead>
                      <tr>
                        <th scope="col">{t('CATALOGUE_ROW_VALUE')}</th>
                        <th scope="col">{t('CATALOGUE_MAPPING_PRIMARY', { n: '' })}</th>
                        <th scope="col">{t('CATALOGUE_MAPPING_SECONDARY', { n: '' })}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {(shown.rows ?? []).slice(0, 100).map((r, i) => (
                        <tr key={i}>
                          <td>{r.value}</td>
                          <td>{r.filter1 ?? ''}</td>
                          <td>{r.filter2 ?? ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              ) : (
                <ul className="catalogue-columns" aria-label={t('CATALOGUE_VALUES')}>
                  {shown.values.length ? shown.values.slice(0, 100).map((v, i) => <li key={i}>{v}</li>) : <li className="hint">{t('CATALOGUE_NONE')}</li>}
                </ul>
              )}
              <p>
                {t('CATALOGUE_USED_BY_FIELDS')}: {shown.fields.map(fieldName).join(', ') || '—'}
              </p>
              <DetailActions ed={ed} item={shown} canEdit={shown.kind !== LIST_KINDS.dynamic} />
            </div>
          ) : (
            <p className="hint">{t('CATALOGUE_CHOOSE_LIST')}</p>
          )
        }
      />
      <EditCopyModal<ListForm>
        open={ed.editing !== null}
        title={saved ? t('CATALOGUE_EDIT_LIST', { name: saved.name }) : t('CATALOGUE_NEW_LIST')}
        value={toForm(saved)}
        onCancel={ed.close}
        onSave={(f) =>
          ed.save(async () => {
            const r = await saveList(props.dbId, saved?.id ?? null, toDraft(f));
            await refresh();
            return r;
          })
        }
        problem={(f) => {
          if (!f.name.trim()) return t('CATALOGUE_NAME_REQUIRED');
          // Ticked but still empty: the path is what is missing first.
          const p = f.assemblyBound && !f.path.trim() ? 'CATALOGUE_ASSEMBLY_PATH_REQUIRED' : assemblyProblem(toDraft(f));
          return p ? t(p) : null;
        }}
      >
        {(copy, setCopy) => <ListEditor dbId={props.dbId} form={copy} onChange={setCopy} error={ed.error} />}
      </EditCopyModal>
      <CatalogueDelete
        ed={ed}
        run={async (x) => {
          await deleteList(props.dbId, x.id);
          await refresh();
        }}
      />
    </>
  );
}

function ListEditor(props: { dbId: number; form: ListForm; onChange: (f: ListForm) => void; error: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  const f = props.form;
  const set = (patch: Partial<ListForm>) => props.onChange({ ...f, ...patch });
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const runTest = async () => {
    setTest(null);
    try {
      const r = await testList(props.dbId, toDraft(f));
      setTest({ ok: r.ran, text: `${t(r.key === 'CATALOGUE_ASSEMBLY_NOT_RUN' ? 'CATALOGUE_ASSEMBLY_NOT_RUN' : 'CATALOGUE_ASSEMBLY_TESTED')} ${t('CATALOGUE_TEST_VALUES', { n: r.values.length })}` });
    } catch (e) {
      setTest({ ok: false, text: catalogueErrorText(t, e) });
    }
  };
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('CATALOGUE_NAME')}
        </label>
        <input id={`${id}-name`} value={f.name} maxLength={200} onChange={(e) => set({ name: e.target.value })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-values`}>
          {t('CATALOGUE_VALUES')}
        </label>
        <textarea id={`${id}-values`} value={f.values} rows={8} aria-describedby={`${id}-values-hint`} onChange={(e) => set({ values: e.target.value })} />
        <p id={`${id}-values-hint`} className="hint">
          {t('CATALOGUE_VALUES_HINT')}
        </p>
      </div>
      <fieldset className="admin-section catalogue-fieldset">
        <legend>{t('CATALOGUE_ASSEMBLY')}</legend>
        <label className="check catalogue-check">
          <input type="checkbox" checked={f.assemblyBound} onChange={(e) => set({ assemblyBound: e.target.checked })} />
          {t('CATALOGUE_ASSEMBLY_BOUND')}
        </label>
        {f.assemblyBound && (
          <>
            <div className="catalogue-grid">
              <div className="field">
                <label className="field-label" htmlFor={`${id}-prefix`}>
                  {t('CATALOGUE_ASSEMBLY_KIND')}
                </label>
                <select id={`${id}-prefix`} value={f.prefix} onChange={(e) => set({ prefix: e.target.value as AssemblyPrefix })}>
                  {ASSEMBLY_PREFIX_OPTIONS.map((p) => (
                    <option key={p} value={p}>
                      {p ? `[${p}]` : t('CATALOGUE_ASSEMBLY_PLAIN')}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field-label" htmlFor={`${id}-path`}>
                  {t('CATALOGUE_ASSEMBLY_PATH')}
                </label>
                <input id={`${id}-path`} value={f.path} spellCheck={false} onChange={(e) => set({ path: e.target.value })} />
              </div>
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-params`}>
                {t('CATALOGUE_ASSEMBLY_PARAMETERS')}
              </label>
              <textarea id={`${id}-params`} value={f.parameters} spellCheck={false} onChange={(e) => set({ parameters: e.target.value })} />
            </div>
            <div className="admin-row">
              <button type="button" className="button" onClick={() => void runTest()}>
                {t('CATALOGUE_ASSEMBLY_TEST')}
              </button>
            </div>
            {test && (
              <p className={test.ok ? 'hint' : 'form-error'} role="status">
                {test.text}
              </p>
            )}
          </>
        )}
      </fieldset>
      <EditorError text={props.error} />
    </>
  );
}
