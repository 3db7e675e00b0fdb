import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emptySearch, validIcon } from '../../../../api/admin-searches';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { notify } from '../../../../ui/notifications';
import { adminSearchesKey, createSearch, deleteSearch, updateSearch, useAdminSearches, useDesigner, type ConsoleSearch, type SearchDraft } from '../../api/searches';
import type { ModeProps } from '../../mode-props';
import { DeleteConfirmDialog } from '../../ui/delete-confirm-dialog';
import { useAdminError } from '../../ui/admin-error';
import { EditCopyModal } from '../../ui/edit-copy-modal';
import { ListDetail } from '../../ui/list-detail';
import { modeLoadState, useConfirmedDelete } from '../../ui/mode-state';
import { useAddButton } from '../../ui/use-add-button';
import { SearchDetailView } from './search-detail';
import { SearchForm } from './search-form';
import { openForEdit } from './search-rules';
import { SearchTree } from './search-tree';
import './searches.css';

interface Editing {
  id: number | null;
  draft: SearchDraft;
}

/**
 * SEARCHES mode (the console spec §2, §3 Search, §5): the database's saved searches as a tree by
 * parent, the chosen one's detail, an editor modal working on a copy, and deletion confirmed by
 * typing the search's name. A saved search is in the user app's list at once (the console's write
 * drops the user app's caches, shell/use-admin-change-sync.ts).
 */
export default function SearchesMode({ dbId, onDirtyChange, registerAdd }: ModeProps) {
  const { t } = useTranslation();
  const scope = sessionScope(useSession());
  const client = useQueryClient();
  const adminError = useAdminError();
  const searches = useAdminSearches(scope, dbId);
  const designer = useDesigner(scope, dbId);
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const list = searches.data ?? [];
  const archives = designer.data?.archives ?? [];
  const current = list.find((s) => s.id === selected) ?? null;

  useEffect(() => onDirtyChange(editing !== null), [editing, onDirtyChange]);
  useAddButton(registerAdd, dbId === null || !designer.data ? null : { label: t('ADMIN_ADD_SEARCH'), onAdd: () => setEditing({ id: null, draft: emptySearch() }) });

  const edit = (s: ConsoleSearch) => {
    const { draft, dropped } = openForEdit(s, archives);
    if (dropped.length) notify('info', t('FIELD_DELETED_EDIT_SEARCH_MSG', { prompts: dropped.map((p) => p.prompt).join(', ') }));
    setEditing({ id: s.id, draft });
  };

  const save = async (draft: SearchDraft) => {
    if (dbId === null || !editing) return;
    try {
      const saved = editing.id === null ? await createSearch(dbId, draft) : await updateSearch(dbId, editing.id, draft);
      await client.invalidateQueries({ queryKey: adminSearchesKey(scope, dbId) });
      if (saved.dropped.length) notify('info', t('FIELD_DELETED_EDIT_SEARCH_MSG', { prompts: saved.dropped.map((p) => p.prompt).join(', ') }));
      if (saved.removedArchives.length) notify('info', t('ADMIN_SEARCH_VERSIONS_REMOVED'));
      notify('success', t('ADMIN_SEARCH_SAVED', { name: saved.search.name }));
      setSelected(saved.search.id);
      setEditing(null);
    } catch (e) {
      adminError(e);
    }
  };

  const del = useConfirmedDelete(async (s: ConsoleSearch) => {
    if (dbId === null) return;
    await deleteSearch(dbId, s.id);
    await client.invalidateQueries({ queryKey: adminSearchesKey(scope, dbId) });
    notify('success', t('ADMIN_SEARCH_DELETED', { name: s.name }));
    if (selected === s.id) setSelected(null);
  });

  const gate = modeLoadState(t, dbId, [searches, designer], t('ADMIN_SEARCHES_LOAD_FAILED'));
  if (gate) return gate;

  return (
    <>
      <ListDetail
        listLabel={t('ADMIN_SEARCHES_LIST')}
        list={list.length ? <SearchTree searches={list} selected={selected} onSelect={setSelected} /> : <p className="hint">{t('ADMIN_SEARCHES_NONE')}</p>}
        detailLabel={current?.name}
        detail={
          current ? (
            <SearchDetailView search={current} archives={archives} searches={list} onEdit={() => edit(current)} onDelete={() => del.setDeleting(current)} />
          ) : (
            <p className="hint">{t('ADMIN_SEARCH_SELECT_HINT')}</p>
          )
        }
      />
      <EditCopyModal<SearchDraft>
        open={editing !== null}
        className="admin-modal-wide"
        title={editing?.id ? t('ADMIN_SEARCH_EDIT_TITLE', { name: editing.draft.name }) : t('ADMIN_SEARCH_NEW_TITLE')}
        value={editing?.draft ?? emptySearch()}
        problem={(c) => (c.name.trim() === '' ? t('ADMIN_SEARCH_NAME_REQUIRED') : !validIcon(c.icon?.trim() || null) ? t('ADMIN_SEARCH_ICON_INVALID') : null)}
        onSave={save}
        onCancel={() => setEditing(null)}
      >
        {(copy, setCopy) => <SearchForm copy={copy} setCopy={setCopy} selfId={editing?.id ?? null} searches={list} archives={archives} />}
      </EditCopyModal>
      <DeleteConfirmDialog open={del.deleting !== null} name={del.deleting?.name ?? ''} withPrefix={false} busy={del.busy} onConfirm={del.confirm} onCancel={() => del.setDeleting(null)} />
    </>
  );
}
