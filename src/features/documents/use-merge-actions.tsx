/**
 * Merge and append in the results screen (issue 10 item 2; the user-app spec §3 Merge object, §5, §6):
 * the toolbar's Merge (bit 2) and Append (bit 4) buttons, the merge dialog (order, base, Keep/Remove)
 * and the append dialog (the inbox-document selector). A confirmed action is ONE outbox entry
 * (src/sync/kinds/merge.ts), sent now or when the connection returns; when it has finished the grid
 * refreshes (use-merge-refresh.ts). State: only which dialog is open and for which documents, in memory.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MERGE_MAX_DOCUMENTS, type MergeRequest } from '../../api/documents';
import { enqueueMerge } from '../../sync/kinds/merge';
import { notify } from '../../ui/notifications';
import { AppendModal, type ChosenInboxFile } from './components/append-modal';
import { MergeModal, type AppendType, type MergeDoc } from './components/merge-modal';
import { mergeBlockedReason, mergeCountProblem, type BlockedReason, type MergeType } from './document-rules';
import { useMergeRefresh } from './use-merge-refresh';
import type { DocumentsChange } from './use-job-refresh';
import { worded } from '../../i18n/words';

export interface ToolbarAction {
  key: string;
  label: string;
  blocked: BlockedReason;
  onClick: () => void;
}

export interface MergeActionsInput {
  scope: string | null;
  dbId: number;
  archivePermissions: number | null;
  licenceType: number | undefined;
  /** The checked documents, from every page, in the order they were checked. */
  selection: readonly MergeDoc[];
  onDocumentsChanged: (change: DocumentsChange) => void;
}

const nameOf = (d: MergeDoc) => d.title || `#${d.id}`;

export function useMergeActions(input: MergeActionsInput): { actions: ToolbarAction[]; dialogs: ReactNode } {
  const { t } = useTranslation();
  const { scope, dbId, archivePermissions, licenceType, selection, onDocumentsChanged } = input;
  const [merging, setMerging] = useState<MergeDoc[] | null>(null);
  const [appending, setAppending] = useState<MergeDoc | null>(null);
  useMergeRefresh(dbId, onDocumentsChanged);

  const start = (type: MergeType) => {
    const reason = mergeBlockedReason(type, licenceType, archivePermissions);
    if (reason) return void notify('error', t(reason));
    const problem = mergeCountProblem(type, selection.length);
    if (problem) return void notify('error', t(problem, { max: MERGE_MAX_DOCUMENTS }));
    if (type === 'Merge') setMerging([...selection]);
    else setAppending(selection[0]!);
  };

  const queue = (request: MergeRequest, meta: Parameters<typeof enqueueMerge>[0]['meta']) =>
    void enqueueMerge({ dbId, request, meta })
      .then(() => notify('info', t('DOCUMENTS_QUEUED', { title: meta.title })))
      .catch((e: unknown) => notify('error', String((e as Error)?.message ?? e)));

  const runMerge = (order: MergeDoc[], appendType: AppendType) => {
    setMerging(null);
    const [base, ...others] = order;
    if (!base) return;
    const named = worded(t, 'DOCUMENTS_JOB_MERGE', { count: order.length, title: nameOf(base) });
    queue(
      {
        Type: 'Merge',
        Documents: others.map((d) => ({ ArchiveID: d.archiveId, DocID: d.id })),
        BaseDocument: { Type: 'Archive', ArchiveID: base.archiveId, DocID: base.id },
        Target: { Type: 'Archive', Id: base.archiveId, AppendType: appendType },
      },
      {
        type: 'Merge',
        base: { archiveId: base.archiveId, id: base.id, ...(base.title ? { title: base.title } : {}) },
        count: order.length,
        removed: appendType === 'Remove' ? others.map((d) => ({ archiveId: d.archiveId, id: d.id })) : [],
        ...named,
      },
    );
  };

  const runAppend = (base: MergeDoc, file: ChosenInboxFile, appendType: AppendType) => {
    setAppending(null);
    const named = worded(t, 'DOCUMENTS_JOB_APPEND', { file: file.fileName, title: nameOf(base) });
    queue(
      {
        Type: 'Append',
        Documents: [{ InboxID: file.inboxId, Path: file.path }],
        BaseDocument: { Type: 'Archive', ArchiveID: base.archiveId, DocID: base.id },
        Target: { Type: 'Archive', Id: base.archiveId, AppendType: appendType },
      },
      { type: 'Append', base: { archiveId: base.archiveId, id: base.id, ...(base.title ? { title: base.title } : {}) }, count: 2, fileName: file.fileName, removed: [], ...named },
    );
  };

  const actions: ToolbarAction[] = (['Merge', 'Append'] as const).map((type) => ({
    key: type,
    label: t(type === 'Merge' ? 'DOCUMENTS_MERGE' : 'DOCUMENTS_APPEND'),
    blocked: mergeBlockedReason(type, licenceType, archivePermissions),
    onClick: () => start(type),
  }));

  const dialogs = (
    <>
      <MergeModal
        key={merging ? `merge-${merging.map((d) => d.id).join('-')}` : 'merge-closed'}
        open={merging !== null}
        docs={merging ?? []}
        onConfirm={runMerge}
        onClose={() => setMerging(null)}
      />
      <AppendModal
        key={appending ? `append-${appending.archiveId}-${appending.id}` : 'append-closed'}
        open={appending !== null}
        scope={scope}
        dbId={dbId}
        title={appending ? nameOf(appending) : ''}
        onConfirm={(file, appendType) => appending && runAppend(appending, file, appendType)}
        onClose={() => setAppending(null)}
      />
    </>
  );
  return { actions, dialogs };
}
