import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { Modal } from '../../../ui/modal';
import { notify } from '../../../ui/notifications';
import { createDxc, deleteDxc, dxcKey, updateDxc, useDxcSources, type ConsoleDxc, type DxcDraft } from '../api/dxc';
import { useDesigner } from '../api/searches';
import { DeleteConfirmDialog } from '../ui/delete-confirm-dialog';
import { useAdminError } from '../ui/admin-error';
import { EditCopyModal } from '../ui/edit-copy-modal';
import { useConfirmedDelete } from '../ui/mode-state';
import { DxcSourceForm, dxcProblem } from './dxc-source-form';
import '../modes/searches/searches.css';

interface Editing {
  id: number | null;
  draft: DxcDraft;
}

/**
 * The DXC sources of an archive (the console spec §2 modals "DXC sources list and DXC source edit",
 * §3, §5, §7): the list with Edit and Delete, and the editor on a copy (unique name, connection
 * string with its test, mapping [archive field, source column, required]). Opened by the archive
 * editor; mounted while shown.
 */
export function DxcSourcesDialog({ dbId, archiveId, onClose }: { dbId: number; archiveId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const scope = sessionScope(useSession());
  const client = useQueryClient();
  const adminError = useAdminError();
  const sources = useDxcSources(scope, dbId, archiveId);
  const designer = useDesigner(scope, dbId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const archive = designer.data?.archives.find((a) => a.id === archiveId);
  const fields = (archive?.fields ?? []).map((f) => ({ id: f.id, name: f.name }));
  const list = sources.data ?? [];
  const refresh = () => client.invalidateQueries({ queryKey: dxcKey(scope, dbId, archiveId) });

  const save = async (draft: DxcDraft) => {
    if (!editing) return;
    try {
      const saved = editing.id === null ? await createDxc(dbId, archiveId, draft) : await updateDxc(dbId, archiveId, editing.id, draft);
      await refresh();
      notify('success', t('ADMIN_DXC_SAVED', { name: saved.name }));
      setEditing(null);
    } catch (e) {
      adminError(e);
    }
  };

  const del = useConfirmedDelete(async (d: ConsoleDxc) => {
    await deleteDxc(dbId, archiveId, d.id);
    await refresh();
    notify('success', t('ADMIN_DXC_DELETED', { name: d.name }));
  });

  return (
    <Modal open title={t('ADMIN_DXC_TITLE', { archive: archive?.name ?? '' })} onClose={onClose} className="admin-modal">
      {sources.isPending || designer.isPending ? (
        <p role="status">{t('ADMIN_MODE_LOADING')}</p>
      ) : sources.isError || designer.isError ? (
        <p className="callout callout-error" role="alert">
          {t('ADMIN_DXC_LOAD_FAILED')}
        </p>
      ) : list.length ? (
        <ul className="admin-picklist" data-testid="dxc-list">
          {list.map((s) => (
            <li key={s.id}>
              <span className="grow">{s.name}</span>
              <button type="button" className="button" aria-label={t('ADMIN_DXC_EDIT_N', { name: s.name })} onClick={() => setEditing({ id: s.id, draft: { name: s.name, connectionString: s.connectionString, mapping: s.mapping } })}>
                {t('ADMIN_EDIT')}
              </button>
              <button type="button" className="button" aria-label={t('ADMIN_DXC_DELETE_N', { name: s.name })} onClick={() => del.setDeleting(s)}>
                {t('ADMIN_DELETE')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('ADMIN_DXC_NONE')}</p>
      )}
      <div className="modal-actions">
        <button type="button" className="button" disabled={!designer.data} onClick={() => setEditing({ id: null, draft: { name: '', connectionString: '', mapping: [] } })}>
          {t('ADMIN_DXC_ADD')}
        </button>
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('CLOSE')}
        </button>
      </div>
      <EditCopyModal<DxcDraft>
        open={editing !== null}
        title={editing?.id ? t('ADMIN_DXC_EDIT_TITLE', { name: editing.draft.name }) : t('ADMIN_DXC_NEW_TITLE')}
        value={editing?.draft ?? { name: '', connectionString: '', mapping: [] }}
        problem={(c) => {
          const key = dxcProblem(c, list, editing?.id ?? null);
          return key ? t(key) : null;
        }}
        onSave={save}
        onCancel={() => setEditing(null)}
      >
        {(copy, setCopy) => <DxcSourceForm copy={copy} setCopy={setCopy} fields={fields} />}
      </EditCopyModal>
      <DeleteConfirmDialog open={del.deleting !== null} name={del.deleting?.name ?? ''} busy={del.busy} onConfirm={del.confirm} onCancel={() => del.setDeleting(null)} />
    </Modal>
  );
}
