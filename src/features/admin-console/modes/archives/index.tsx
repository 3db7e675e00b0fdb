import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionScope } from '../../../../session/session';
import { useSession } from '../../../../session/use-session';
import { notify } from '../../../../ui/notifications';
import { adminArchivesKey, saveArchive, useAdminArchives, type ArchiveDraft } from '../../api/archives';
import { useCatalogueFields } from '../../api/catalogue';
import type { ModeProps } from '../../mode-props';
import { useAdminError } from '../../ui/admin-error';
import { ListDetail } from '../../ui/list-detail';
import { useAddButton } from '../../ui/use-add-button';
import { ArchiveDetail } from './archive-detail';
import { ArchiveTree } from './archive-tree';
import { NewArchiveModal } from './new-archive-modal';

/** ARCHIVES mode (the console spec §2, §3 Archive): the archive tree and the chosen archive's settings. */
export default function ArchivesMode(props: ModeProps) {
  const { t } = useTranslation();
  const scope = sessionScope(useSession());
  const dbId = props.dbId!;
  const client = useQueryClient();
  const archives = useAdminArchives(scope, dbId);
  const fields = useCatalogueFields(scope, dbId);
  const [selected, setSelected] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const onError = useAdminError();
  const refresh = () => client.invalidateQueries({ queryKey: adminArchivesKey(scope, dbId) });

  useAddButton(props.registerAdd, { label: t('ADMIN_ADD_ARCHIVE'), onAdd: () => setAdding(true) });

  const list = archives.data ?? [];
  const current = list.find((a) => a.id === selected) ?? null;

  const create = async (draft: ArchiveDraft) => {
    try {
      const saved = await saveArchive(dbId, null, draft);
      await refresh();
      setAdding(false);
      setSelected(saved.id);
      notify('success', t('ADMIN_SAVED', { name: saved.name }));
    } catch (e) {
      onError(e);
    }
  };

  return (
    <>
      <ListDetail
        listLabel={t('ADMIN_ARCHIVE_TREE')}
        list={archives.isPending ? <p className="hint">{t('ADMIN_MODE_LOADING')}</p> : <ArchiveTree archives={list} selected={selected} onSelect={setSelected} />}
        detailLabel={current?.name}
        detail={
          current ? (
            <ArchiveDetail
              key={current.id}
              dbId={dbId}
              archive={current}
              archives={list}
              fields={fields.data ?? []}
              onDirtyChange={props.onDirtyChange}
              onChanged={refresh}
              onDeleted={() => {
                setSelected(null);
                void refresh();
              }}
            />
          ) : (
            <p className="hint">{list.length ? t('ADMIN_CHOOSE_ARCHIVE') : t('ADMIN_NO_ARCHIVES')}</p>
          )
        }
      />
      {adding && <NewArchiveModal archives={list} fields={fields.data ?? []} parent={current?.id ?? null} onCancel={() => setAdding(false)} onSave={create} />}
    </>
  );
}
