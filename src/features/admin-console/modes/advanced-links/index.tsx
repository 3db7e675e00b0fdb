import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { linkPatternIsHttp } from '../../../../api/admin-advanced-links';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { notify } from '../../../../ui/notifications';
import { adminLinksKey, createLink, deleteLink, updateLink, useAdminLinks, type ConsoleLink, type LinkDraft } from '../../api/advanced-links';
import { useDesigner } from '../../api/searches';
import type { ModeProps } from '../../mode-props';
import { DeleteConfirmDialog } from '../../ui/delete-confirm-dialog';
import { useAdminError } from '../../ui/admin-error';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ListDetail } from '../../ui/list-detail';
import { modeLoadState, useConfirmedDelete } from '../../ui/mode-state';
import { useAddButton } from '../../ui/use-add-button';
import { LinkForm } from './link-form';
import '../searches/searches.css';

interface Editing {
  id: number | null;
  draft: LinkDraft;
}

/**
 * ADVANCED_LINKS mode (the console spec §2, §3 Advanced link, §7): the database's links, shown per
 * archive (or all), an editor on a copy with suggestions for the template, and deletion confirmed by
 * typing 'DELETE {NAME}'. The viewer reads what is saved at once (GET api/AdvancedLinks/...).
 */
export default function AdvancedLinksMode({ dbId, onDirtyChange, registerAdd }: ModeProps) {
  const { t } = useTranslation();
  const filterId = useId();
  const scope = sessionScope(useSession());
  const client = useQueryClient();
  const adminError = useAdminError();
  const links = useAdminLinks(scope, dbId);
  const designer = useDesigner(scope, dbId);
  const [archiveFilter, setArchiveFilter] = useState<number | 'all'>('all');
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const archives = designer.data?.archives ?? [];
  const shown = (links.data ?? []).filter((l) => archiveFilter === 'all' || l.archiveId === archiveFilter);
  const current = shown.find((l) => l.id === selected) ?? null;
  const archiveName = (id: number | null) => (id === null ? t('ADMIN_LINKS_ALL_ARCHIVES') : (archives.find((a) => a.id === id)?.name ?? `#${id}`));

  useEffect(() => onDirtyChange(editing !== null), [editing, onDirtyChange]);
  useAddButton(
    registerAdd,
    dbId === null || !designer.data
      ? null
      : { label: t('ADMIN_ADD_LINK'), onAdd: () => setEditing({ id: null, draft: { name: '', archiveId: archiveFilter === 'all' ? null : archiveFilter, fieldId: null, urlPattern: 'https://' } }) },
  );

  const save = async (draft: LinkDraft) => {
    if (dbId === null || !editing) return;
    try {
      const saved = editing.id === null ? await createLink(dbId, draft) : await updateLink(dbId, editing.id, draft);
      await client.invalidateQueries({ queryKey: adminLinksKey(scope, dbId) });
      notify('success', t('ADMIN_LINK_SAVED', { name: saved.name }));
      setSelected(saved.id);
      setEditing(null);
    } catch (e) {
      adminError(e);
    }
  };

  const del = useConfirmedDelete(async (l: ConsoleLink) => {
    if (dbId === null) return;
    await deleteLink(dbId, l.id);
    await client.invalidateQueries({ queryKey: adminLinksKey(scope, dbId) });
    notify('success', t('ADMIN_LINK_DELETED', { name: l.name }));
  });

  const gate = modeLoadState(t, dbId, [links, designer], t('ADMIN_LINKS_LOAD_FAILED'));
  if (gate) return gate;

  const list = (
    <>
      <div className="field">
        <label className="field-label" htmlFor={filterId}>
          {t('ADMIN_LINK_ARCHIVE')}
        </label>
        <select id={filterId} value={archiveFilter} onChange={(e) => setArchiveFilter(e.target.value === 'all' ? 'all' : Number(e.target.value))}>
          <option value="all">{t('ADMIN_LINKS_EVERY_LINK')}</option>
          {archives.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      {shown.length ? (
        <ul className="admin-list">
          {shown.map((l) => (
            <li key={l.id}>
              <button type="button" className="admin-list-item" aria-current={selected === l.id} onClick={() => setSelected(l.id)}>
                {l.name}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('ADMIN_LINKS_NONE')}</p>
      )}
    </>
  );

  return (
    <>
      <ListDetail
        listLabel={t('ADMIN_LINKS_LIST')}
        list={list}
        detailLabel={current?.name}
        detail={
          current ? (
            <div data-testid="link-detail">
              <div className="admin-toolbar">
                <h3 className="admin-title">{current.name}</h3>
                <div className="admin-row">
                  <button
                    type="button"
                    className="button button-primary"
                    onClick={() => setEditing({ id: current.id, draft: { name: current.name, archiveId: current.archiveId, fieldId: current.fieldId, urlPattern: current.urlPattern } })}
                  >
                    {t('ADMIN_EDIT')}
                  </button>
                  <button type="button" className="button" onClick={() => del.setDeleting(current)}>
                    {t('ADMIN_DELETE')}
                  </button>
                </div>
              </div>
              <dl className="admin-facts">
                <dt>{t('ADMIN_LINK_ARCHIVE')}</dt>
                <dd>{archiveName(current.archiveId)}</dd>
                <dt>{t('ADMIN_LINK_FIELD')}</dt>
                <dd>{current.fieldId === null ? t('ADMIN_LINK_FIELD_NONE') : (archives.flatMap((a) => a.fields).find((f) => f.id === current.fieldId)?.name ?? `#${current.fieldId}`)}</dd>
                <dt>{t('ADMIN_LINK_URL')}</dt>
                <dd className="admin-link-pattern">{current.urlPattern}</dd>
              </dl>
            </div>
          ) : (
            <p className="hint">{t('ADMIN_LINK_SELECT_HINT')}</p>
          )
        }
      />
      <EditCopyModal<LinkDraft>
        open={editing !== null}
        title={editing?.id ? t('ADMIN_LINK_EDIT_TITLE', { name: editing.draft.name }) : t('ADMIN_LINK_NEW_TITLE')}
        value={editing?.draft ?? { name: '', archiveId: null, fieldId: null, urlPattern: '' }}
        problem={(c) => (c.name.trim() === '' ? t('ADMIN_LINK_NAME_REQUIRED') : !linkPatternIsHttp(c.urlPattern) ? t('ADMIN_LINK_NOT_HTTP') : null)}
        onSave={save}
        onCancel={() => setEditing(null)}
      >
        {(copy, setCopy) => <LinkForm copy={copy} setCopy={setCopy} archives={archives} />}
      </EditCopyModal>
      <DeleteConfirmDialog open={del.deleting !== null} name={del.deleting?.name ?? ''} busy={del.busy} onConfirm={del.confirm} onCancel={() => del.setDeleting(null)} />
    </>
  );
}
