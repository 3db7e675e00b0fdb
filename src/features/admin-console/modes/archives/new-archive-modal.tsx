import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { archiveDepths, type ArchiveDraft, type ConsoleArchive } from '../../api/archives';
import type { ConsoleField } from '../../api/catalogue';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { FieldPicker } from './field-picker';

/** A new archive or sub-archive: its name, parent and fields (at least one). */
export function NewArchiveModal(props: { archives: readonly ConsoleArchive[]; fields: readonly ConsoleField[]; parent: number | null; onCancel: () => void; onSave: (d: ArchiveDraft) => Promise<void> }) {
  const { t } = useTranslation();
  const id = useId();
  const draft: ArchiveDraft = { name: '', parent: props.parent, fields: [], contentSearch: false, convertPdf: false, revisionControl: 0, basePath: { path: '', default: true } };
  return (
    <EditCopyModal
      open
      className="admin-modal-wide"
      title={t('ADMIN_ADD_ARCHIVE')}
      value={draft}
      onCancel={props.onCancel}
      onSave={props.onSave}
      problem={(d) => (!d.name.trim() ? t('ARCHIVE_NAME_REQUIRED') : d.fields.length === 0 ? t('ARCHIVE_FIELDS_REQUIRED') : null)}
    >
      {(d, set) => (
        <>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-name`}>
              {t('ADMIN_NAME')}
            </label>
            <input id={`${id}-name`} value={d.name} autoComplete="off" onChange={(e) => set({ ...d, name: e.target.value })} />
          </div>
          <ParentSelect archives={props.archives} value={d.parent} onChange={(parent) => set({ ...d, parent })} />
          <FieldPicker all={props.fields} chosen={d.fields} onChange={(fields) => set({ ...d, fields })} />
        </>
      )}
    </EditCopyModal>
  );
}

/** The parent archive: top level or any archive not in `exclude` (an archive's own subtree). */
export function ParentSelect(props: { archives: readonly ConsoleArchive[]; value: number | null; exclude?: ReadonlySet<number>; onChange: (parent: number | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const depth = archiveDepths(props.archives);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {t('ADMIN_ARCHIVE_PARENT')}
      </label>
      <select id={id} value={props.value ?? ''} onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">{t('ADMIN_ARCHIVE_TOP_LEVEL')}</option>
        {props.archives
          .filter((a) => !props.exclude?.has(a.id))
          .map((a) => (
            <option key={a.id} value={a.id}>
              {'\u00a0\u00a0'.repeat(depth.get(a.id) ?? 0)}
              {a.name}
            </option>
          ))}
      </select>
    </div>
  );
}
