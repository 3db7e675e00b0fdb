import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INDEX_REBUILD_JOB_KIND } from '../../../../api/admin-archives';
import { useSession } from '../../../../session/use-session';
import { trackJob } from '../../../../sync/jobs';
import { notify } from '../../../../ui/notifications';
import { archiveDraft, deleteArchive, descendantIds, saveArchive, startIndexRebuild, type ArchiveDraft, type ConsoleArchive } from '../../api/archives';
import type { ConsoleField } from '../../api/catalogue';
import { DxcSourcesDialog } from '../../dxc/dxc-sources-dialog';
import { useAdminError } from '../../ui/admin-error';
import { DeleteConfirmDialog } from '../../ui/delete-confirm-dialog';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ArchiveNotificationsSection } from './archive-notifications';
import { FieldPicker } from './field-picker';
import { ParentSelect } from './new-archive-modal';
import { ViewsModal } from './views-modal';

type Modal = 'fields' | 'views' | 'relocate' | 'delete' | 'dxc' | null;

/** One archive: its settings (saved with Save; unsaved changes reported to the shell) and the modals of its parts. */
export function ArchiveDetail(props: {
  dbId: number;
  archive: ConsoleArchive;
  archives: readonly ConsoleArchive[];
  fields: readonly ConsoleField[];
  onDirtyChange: (dirty: boolean) => void;
  onChanged: () => Promise<void>;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const session = useSession();
  const { archive, dbId, onDirtyChange } = props;
  const [draft, setDraft] = useState<ArchiveDraft>(() => archiveDraft(archive));
  const [modal, setModal] = useState<Modal>(null);
  const [busy, setBusy] = useState(false);
  const onError = useAdminError();
  const saved = archiveDraft(archive);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const fieldName = new Map(props.fields.map((f) => [f.id, f.name]));
  const archiveFields = props.fields.filter((f) => archive.fields.includes(f.id));

  /** Saves the archive as it is with `patch` (a modal's part, or the settings form). */
  const save = async (patch: Partial<ArchiveDraft>, base: ArchiveDraft = saved) => {
    setBusy(true);
    try {
      const next = await saveArchive(dbId, archive.id, { ...base, ...patch });
      setDraft((d) => ({ ...archiveDraft(next), ...(base === saved ? diff(d, saved) : {}) }));
      await props.onChanged();
      setModal(null);
      notify('success', t('ADMIN_SAVED', { name: next.name }));
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };

  const rebuild = async () => {
    try {
      const started = await startIndexRebuild(dbId, archive.id);
      await trackJob({ id: started.jobId, dbId, kind: INDEX_REBUILD_JOB_KIND, total: started.count, owner: session?.userName ?? null, title: t('ADMIN_INDEX_REBUILD_JOB', { name: archive.name }), archiveId: archive.id });
      notify('info', t('ADMIN_INDEX_REBUILD_STARTED', { name: archive.name, count: started.count }));
    } catch (e) {
      onError(e);
    }
  };

  return (
    <div className="admin-archive-detail">
      <form
        className="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save(draft, draft);
        }}
      >
        <div className="field">
          <label className="field-label" htmlFor={`${id}-name`}>
            {t('ADMIN_NAME')}
          </label>
          <input id={`${id}-name`} value={draft.name} autoComplete="off" onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-path`}>
            {t('ADMIN_ARCHIVE_BASE_PATH')}
          </label>
          <input
            id={`${id}-path`}
            value={draft.basePath?.path ?? ''}
            disabled={draft.basePath?.default ?? true}
            onChange={(e) => setDraft({ ...draft, basePath: { default: false, path: e.target.value } })}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.basePath?.default ?? true} onChange={(e) => setDraft({ ...draft, basePath: { path: draft.basePath?.path ?? '', default: e.target.checked } })} />
          {t('ADMIN_ARCHIVE_BASE_PATH_DEFAULT')}
        </label>
        <label className="check">
          {/* §4: content search and PDF conversion exclude each other; turning content search on turns PDF conversion off. */}
          <input type="checkbox" checked={draft.contentSearch ?? false} onChange={(e) => setDraft({ ...draft, contentSearch: e.target.checked, convertPdf: e.target.checked ? false : draft.convertPdf })} />
          {t('ADMIN_ARCHIVE_CONTENT_SEARCH')}
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.convertPdf ?? false} disabled={draft.contentSearch ?? false} onChange={(e) => setDraft({ ...draft, convertPdf: e.target.checked })} />
          {t('ADMIN_ARCHIVE_CONVERT_PDF')}
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.revisionControl === 1} onChange={(e) => setDraft({ ...draft, revisionControl: e.target.checked ? 1 : 0 })} />
          {t('ADMIN_ARCHIVE_REVISION_CONTROL')}
        </label>
        <div className="admin-row">
          <button type="submit" className="button button-primary" disabled={!dirty || busy || !draft.name.trim()}>
            {t('ADMIN_SAVE')}
          </button>
          <button type="button" className="button" disabled={!dirty} onClick={() => setDraft(saved)}>
            {t('ADMIN_UNDO_CHANGES')}
          </button>
        </div>
      </form>

      <section className="admin-section" aria-labelledby={`${id}-fields`}>
        <h3 id={`${id}-fields`}>{t('ADMIN_ARCHIVE_FIELDS')}</h3>
        <p className="hint" data-testid="archive-field-names">
          {archive.fields.map((f) => fieldName.get(f) ?? `#${f}`).join(', ')}
        </p>
        <div className="admin-row">
          <button type="button" className="button" onClick={() => setModal('fields')}>
            {t('ADMIN_ARCHIVE_EDIT_FIELDS')}
          </button>
          <button type="button" className="button" onClick={() => setModal('views')}>
            {t('ADMIN_ARCHIVE_VIEWS')}
          </button>
          <button type="button" className="button" onClick={() => setModal('relocate')}>
            {t('ADMIN_ARCHIVE_RELOCATE')}
          </button>
          <button type="button" className="button" onClick={() => setModal('dxc')}>
            {t('ADMIN_ARCHIVE_DXC')}
          </button>
          <button type="button" className="button" disabled={!archive.contentSearch} title={archive.contentSearch ? undefined : t('ADMIN_INDEX_REBUILD_NEEDS_CONTENT_SEARCH')} onClick={() => void rebuild()}>
            {t('ADMIN_INDEX_REBUILD')}
          </button>
          <button type="button" className="button" onClick={() => setModal('delete')}>
            {t('ADMIN_DELETE')}
          </button>
        </div>
        <p className="hint">{archive.views.enabled ? t('ADMIN_VIEWS_SUMMARY', { count: archive.views.values.length }) : t('ADMIN_VIEWS_OFF')}</p>
      </section>

      <ArchiveNotificationsSection dbId={dbId} archive={archive} fieldNames={archiveFields.map((f) => f.name)} />

      {modal === 'fields' && (
        <EditCopyModal
          open
          className="admin-modal-wide"
          title={t('ADMIN_ARCHIVE_EDIT_FIELDS')}
          value={archive.fields}
          onCancel={() => setModal(null)}
          onSave={(fields) => save({ fields })}
          problem={(f) => (f.length === 0 ? t('ARCHIVE_FIELDS_REQUIRED') : null)}
        >
          {(f, set) => <FieldPicker all={props.fields} chosen={f} saved={archive.fields} onChange={set} />}
        </EditCopyModal>
      )}
      {modal === 'views' && <ViewsModal views={archive.views} fields={archiveFields} onCancel={() => setModal(null)} onSave={(views) => save({ views })} />}
      {modal === 'relocate' && (
        <EditCopyModal open title={t('ADMIN_ARCHIVE_RELOCATE')} value={{ parent: archive.parent }} onCancel={() => setModal(null)} onSave={(p) => save({ parent: p.parent })}>
          {(p, set) => <ParentSelect archives={props.archives} value={p.parent} exclude={descendantIds(props.archives, archive.id)} onChange={(parent) => set({ parent })} />}
        </EditCopyModal>
      )}
      {modal === 'dxc' && <DxcSourcesDialog dbId={dbId} archiveId={archive.id} onClose={() => setModal(null)} />}
      <DeleteConfirmDialog
        open={modal === 'delete'}
        name={archive.name}
        busy={busy}
        onCancel={() => setModal(null)}
        onConfirm={() =>
          void (async () => {
            setBusy(true);
            try {
              await deleteArchive(dbId, archive.id);
              notify('success', t('ADMIN_DELETED', { name: archive.name }));
              setModal(null);
              props.onDeleted();
            } catch (e) {
              onError(e);
            } finally {
              setBusy(false);
            }
          })()
        }
      />
    </div>
  );
}

/** The settings form's unsaved edits (kept when a modal saves another part). */
function diff(d: ArchiveDraft, saved: ArchiveDraft): Partial<ArchiveDraft> {
  const out: Partial<ArchiveDraft> = {};
  for (const k of ['name', 'basePath', 'contentSearch', 'convertPdf', 'revisionControl'] as const) {
    if (JSON.stringify(d[k]) !== JSON.stringify(saved[k])) (out as Record<string, unknown>)[k] = d[k];
  }
  return out;
}
