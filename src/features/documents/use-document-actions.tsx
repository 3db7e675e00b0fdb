/**
 * Copy, move and delete in the results screen (issue 9 item 4; the user-app spec §5, §6): the toolbar's
 * buttons, the same actions in a row's menu, the archive select modal and the delete confirmation.
 * An action the user confirms becomes ONE outbox entry (src/sync/kinds/document-operation.ts), sent
 * now or when the connection returns; the tray follows it and then its server job. The results screen
 * takes this hook as a slot (the route composes the two features) and is told when a job has ended.
 * State: only which dialog is open, in memory.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_GROUP_MAX, type DocumentOperation } from '../../api/documents';
import { askNotificationPermissionForJob } from '../../sync/jobs-permission';
import { enqueueDocumentOperation, operationTitleWords, type OperationDoc } from '../../sync/kinds/document-operation';
import type { ContextMenuItem } from '../../ui/context-menu';
import { notify } from '../../ui/notifications';
import { useArchives } from './api/get-archives';
import { ArchiveSelectModal } from './components/archive-select-modal';
import { DeleteConfirmModal } from './components/delete-confirm-modal';
import { EmailModal } from './components/email-modal';
import { useEmailConfigured } from './api/email-document';
import { DocumentToolbar } from './components/document-toolbar';
import { blockedReason, destinations, emailBlockedReason, type Destination } from './document-rules';
import { useJobRefresh, type DocumentsChange } from './use-job-refresh';
import { useMergeActions } from './use-merge-actions';
import { useSendToInbox } from './use-send-to-inbox';
import { fileBlockedReason } from './document-file-rules';
import { useDocumentFile } from './use-document-file';
import './documents.css';
import { worded } from '../../i18n/words';

export interface ActionDoc {
  id: number;
  hash: string;
  archiveId: number;
  title?: string;
}

export interface DocumentActionsInput {
  /** The session scope of cached queries (sessionScope). */
  scope: string | null;
  dbId: number;
  /** The archive the grid shows (the documents' source). */
  archiveId: number;
  /** The user's bits on it (the result set's Permissions); null while unknown. */
  archivePermissions: number | null;
  licenceType: number | undefined;
  /** The checked documents, from every page. */
  selection: readonly ActionDoc[];
  /** A copy, move or delete job of this database has ended: refetch, and drop what is gone. */
  onDocumentsChanged: (change: DocumentsChange) => void;
}

export interface DocumentActions {
  toolbar: ReactNode;
  /** The row menu's actions for one document (they act on that row only). */
  rowMenuItems: (doc: ActionDoc) => ContextMenuItem[];
  dialogs: ReactNode;
}

type Pending = { op: DocumentOperation; docs: ActionDoc[] };
const ACTION_KEYS = { Copy: 'DOCUMENTS_COPY', Move: 'DOCUMENTS_MOVE', delete: 'DOCUMENTS_DELETE' } as const;

export function useDocumentActions(input: DocumentActionsInput): DocumentActions {
  const { t, i18n } = useTranslation();
  const { scope, dbId, archiveId, archivePermissions, licenceType, selection, onDocumentsChanged } = input;
  const [pending, setPending] = useState<Pending | null>(null);
  const [emailing, setEmailing] = useState<ActionDoc | null>(null);
  // Fetched with the screen, not when the modal opens: kept on the device, so a copy or move can be
  // chosen offline too (it waits in the outbox).
  const archives = useArchives(scope, dbId);
  const emailConfigured = useEmailConfigured(scope);
  const choices = useMemo(() => destinations(archives.data ?? [], archiveId), [archives.data, archiveId]);
  useJobRefresh(dbId, onDocumentsChanged);
  // Merge and append (use-merge-actions.tsx): their buttons join this toolbar, their dialogs these.
  const merge = useMergeActions({ scope, dbId, archivePermissions, licenceType, selection, onDocumentsChanged });
  const file = useDocumentFile(dbId);

  const blocked = useCallback((op: DocumentOperation) => blockedReason(op, licenceType, archivePermissions), [licenceType, archivePermissions]);

  const start = useCallback(
    (op: DocumentOperation, docs: readonly ActionDoc[]) => {
      const reason = blocked(op);
      if (reason) {
        notify('error', t(reason));
        return;
      }
      if (docs.length === 0) {
        notify('error', t('ERROR_NO_DOCUMENTS_SELECTED'));
        return;
      }
      // The server's limit of one group (Count); more would be refused call by call.
      if (docs.length > DOCUMENT_GROUP_MAX) {
        notify('error', t('DOCUMENTS_TOO_MANY', { max: DOCUMENT_GROUP_MAX.toLocaleString(i18n.language) }));
        return;
      }
      setPending({ op, docs: [...docs] });
    },
    [blocked, t, i18n.language],
  );

  const run = (p: Pending, dest?: Destination) => {
    setPending(null);
    const docs: OperationDoc[] = p.docs.map((d) => ({ id: d.id, hash: d.hash, archiveId: d.archiveId, ...(d.title ? { title: d.title } : {}) }));
    // The kind's own words for the action (the tray says them again in the language of the moment).
    const words = operationTitleWords({ op: p.op, docs, ...(dest ? { destinationName: dest.name } : {}) });
    const { title } = worded(t, words.key, words.vars ?? {});
    // Asked here, in the click that starts it: a long job is when a notification of its end helps.
    void askNotificationPermissionForJob(docs.length);
    void enqueueDocumentOperation({ op: p.op, dbId, archiveId, ...(dest ? { destinationArchive: dest.id, destinationName: dest.name } : {}), docs, title })
      .then(() => notify('info', t('DOCUMENTS_QUEUED', { title })))
      .catch((e: unknown) => notify('error', String((e as Error)?.message ?? e)));
  };

  const toInbox = useSendToInbox({ scope, dbId, blocked: blocked('Move'), onDocumentsChanged });
  const toolbar = <DocumentToolbar blocked={blocked} onAction={(op) => start(op, selection)} more={merge.actions} />;
  const emailBlocked = emailBlockedReason(licenceType, archivePermissions, emailConfigured);
  const fileBlocked = fileBlockedReason(archivePermissions);
  const rowMenuItems = (doc: ActionDoc): ContextMenuItem[] => [
    ...(['Copy', 'Move', 'delete'] as const).map((op) => {
      const reason = blocked(op);
      return { id: `document-${op.toLowerCase()}`, label: t(ACTION_KEYS[op]), disabled: reason !== null, reason: reason ? t(reason) : undefined, onSelect: () => start(op, [doc]) };
    }),
    {
      id: 'document-email',
      label: t('DOCUMENTS_EMAIL'),
      disabled: emailBlocked !== null,
      reason: emailBlocked ? t(emailBlocked) : undefined,
      onSelect: () => (emailBlocked ? notify('error', t(emailBlocked)) : setEmailing(doc)),
    },
    toInbox.menuItem(doc),
    // Single export: the file itself, saved or downloaded (bit 128).
    {
      id: 'document-download',
      label: t('DOCUMENTS_DOWNLOAD'),
      disabled: fileBlocked !== null,
      reason: fileBlocked ? t(fileBlocked) : undefined,
      onSelect: () => void file.download(doc),
    },
    // Only where the device can share files to another app (Web Share API); absent elsewhere.
    ...(file.canShare
      ? [{ id: 'document-share', label: t('DOCUMENTS_SHARE'), disabled: fileBlocked !== null, reason: fileBlocked ? t(fileBlocked) : undefined, onSelect: () => void file.share(doc) }]
      : []),
  ];

  const count = pending?.docs.length ?? 0;
  const oneTitle = count === 1 ? (pending!.docs[0]!.title || `#${pending!.docs[0]!.id}`) : '';
  const dialogs = (
    <>
      <ArchiveSelectModal
        key={pending ? `${pending.op}-${count}` : 'closed'}
        open={pending !== null && pending.op !== 'delete'}
        title={pending?.op === 'Move' ? t('DOCUMENTS_MOVE_TITLE', { count }) : t('DOCUMENTS_COPY_TITLE', { count })}
        confirmLabel={t(pending?.op === 'Move' ? 'DOCUMENTS_MOVE' : 'DOCUMENTS_COPY')}
        destinations={choices}
        loading={archives.isPending && archives.fetchStatus !== 'paused'}
        offline={archives.data === undefined && archives.fetchStatus === 'paused'}
        onConfirm={(d) => pending && run(pending, d)}
        onClose={() => setPending(null)}
      />
      <DeleteConfirmModal
        open={pending?.op === 'delete'}
        question={count === 1 ? t('DOCUMENTS_DELETE_CONFIRM_ONE', { title: oneTitle }) : t('DOCUMENTS_DELETE_CONFIRM', { count })}
        onConfirm={() => pending && run(pending)}
        onClose={() => setPending(null)}
      />
      <EmailModal
        key={emailing ? `email-${emailing.id}` : 'email-closed'}
        dbId={dbId}
        doc={emailing}
        onClose={() => setEmailing(null)}
        onShare={file.canShare && fileBlocked === null ? (d) => void file.share(d) : undefined}
      />
      {file.dialog}
      {merge.dialogs}
      {toInbox.dialog}
    </>
  );
  return { toolbar, rowMenuItems, dialogs };
}
