import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterDatabaseName } from '../../../../api/admin-databases';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { notify } from '../../../../ui/notifications';
import { adminDatabasesKey, createDatabase, deleteDatabase, rebuildDatabaseIndexes, updateDatabase, useAdminDatabases, type ConsoleDatabase, type DatabaseDraft } from '../../api/databases';
import type { ModeProps } from '../../mode-props';
import { useAdminError } from '../../ui/admin-error';
import { DeleteConfirmDialog } from '../../ui/delete-confirm-dialog';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { useAddButton } from '../../ui/use-add-button';
import { DatabaseForm } from './database-form';

type Editing = { id: number | null; draft: DatabaseDraft } | null;

/** DATABASES mode (the console spec §2): the databases, create, edit, delete (typed confirmation, drop), SQL index rebuild. */
export default function DatabasesMode(props: ModeProps) {
  const { t } = useTranslation();
  const scope = sessionScope(useSession());
  const client = useQueryClient();
  const databases = useAdminDatabases(scope);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ConsoleDatabase | null>(null);
  const [drop, setDrop] = useState(false);
  const [busy, setBusy] = useState(false);
  const onError = useAdminError();
  const refresh = () => client.invalidateQueries({ queryKey: adminDatabasesKey(scope) });

  // Creating and deleting databases is for administrators of all databases (the server refuses anyone else).
  useAddButton(props.registerAdd, props.isAdminAll ? { label: t('ADMIN_ADD_DATABASE'), onAdd: () => setEditing({ id: null, draft: { name: '', catalog: '', server: '', authType: 0 } }) } : null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };

  const save = (id: number | null, draft: DatabaseDraft) =>
    run(async () => {
      const body = { ...draft, name: filterDatabaseName(draft.name) };
      const saved = id === null ? await createDatabase(body) : await updateDatabase(id, body);
      await refresh();
      setEditing(null);
      notify('success', t('ADMIN_SAVED', { name: saved.name }));
      if (id === null) props.onSelectDb(saved.id);
    });

  return (
    <div className="admin-databases">
      {databases.data && databases.data.length === 0 && <p className="hint">{t('ADMIN_NO_DATABASES')}</p>}
      <ul className="admin-list admin-db-list" aria-label={t('ADMIN_MODE_DATABASES')}>
        {(databases.data ?? []).map((d) => (
          <li key={d.id} className="card admin-db-card">
            <div className="admin-row">
              <strong className="grow">{d.name}</strong>
              <span className="hint">{[d.catalog, d.server].filter(Boolean).join(' · ')}</span>
            </div>
            <div className="admin-row">
              <button type="button" className="button" aria-pressed={props.dbId === d.id} onClick={() => props.onSelectDb(d.id)}>
                {props.dbId === d.id ? t('ADMIN_DATABASE_SELECTED') : t('ADMIN_DATABASE_SELECT', { name: d.name })}
              </button>
              <button type="button" className="button" aria-label={t('ADMIN_EDIT_NAMED', { name: d.name })} onClick={() => setEditing({ id: d.id, draft: { name: d.name, catalog: d.catalog ?? '', server: d.server ?? '', authType: d.authType } })}>
                {t('ADMIN_EDIT')}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy}
                aria-label={t('ADMIN_REBUILD_INDEXES_NAMED', { name: d.name })}
                onClick={() =>
                  void run(async () => {
                    await rebuildDatabaseIndexes(d.id);
                    notify('success', t('ADMIN_REBUILD_INDEXES_DONE', { name: d.name }));
                  })
                }
              >
                {t('ADMIN_REBUILD_INDEXES')}
              </button>
              {props.isAdminAll && (
                <button
                  type="button"
                  className="button"
                  aria-label={t('ADMIN_DELETE_NAMED', { name: d.name })}
                  onClick={() => {
                    setDrop(false);
                    setDeleting(d);
                  }}
                >
                  {t('ADMIN_DELETE')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {editing && (
        <EditCopyModal
          open
          title={editing.id === null ? t('ADMIN_ADD_DATABASE') : t('ADMIN_EDIT_DATABASE')}
          value={editing.draft}
          onCancel={() => setEditing(null)}
          onSave={(copy) => save(editing.id, copy)}
          problem={(copy) => (filterDatabaseName(copy.name) ? null : t('DATABASE_NAME_REQUIRED'))}
        >
          {(copy, setCopy) => <DatabaseForm draft={copy} onChange={setCopy} />}
        </EditCopyModal>
      )}
      <DeleteConfirmDialog
        open={deleting !== null}
        name={deleting?.name ?? ''}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          void run(async () => {
            if (!deleting) return;
            await deleteDatabase(deleting.id, drop);
            if (props.dbId === deleting.id) props.onSelectDb(null);
            await refresh();
            notify('success', t('ADMIN_DELETED', { name: deleting.name }));
            setDeleting(null);
          })
        }
      >
        <label className="check">
          <input type="checkbox" checked={drop} onChange={(e) => setDrop(e.target.checked)} />
          {t('ADMIN_DATABASE_DROP')}
        </label>
      </DeleteConfirmDialog>
    </div>
  );
}
