import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { INBOX_RIGHTS } from '../../api/inboxes';
import { db as appDb } from '../../db/db';
import { INBOX_KIND, enqueueInboxChange, isInboxMeta } from '../../sync/kinds/inbox';
import type { ContextMenuItem } from '../../ui/context-menu';
import { notify } from '../../ui/notifications';
import { useInboxes } from './api/get-inboxes';
import { ArchiveSelectModal } from './components/archive-select-modal';
import type { BlockedReason } from './document-rules';
import type { DocumentsChange } from './use-job-refresh';
import { worded } from '../../i18n/words';

interface SendDoc {
  id: number;
  hash: string;
  archiveId: number;
  title?: string;
}

/**
 * "Send to inbox" in a row's menu (the archive-ops spec §7 "A call moves an archive document into
 * an inbox"): the inbox chosen in the inbox select modal (inboxes the user may change), then one
 * outbox entry (src/sync/kinds/inbox.ts, PUT api/inboxes/{id}); the document leaves its archive, so
 * it needs the move right there and not the read-only licence (`blocked`, the same reason as Move).
 * When the entry is done the grid drops the row (onDocumentsChanged, as a move does).
 */
export function useSendToInbox(input: {
  scope: string | null;
  dbId: number;
  blocked: BlockedReason;
  onDocumentsChanged: (c: DocumentsChange) => void;
}): { menuItem: (doc: SendDoc) => ContextMenuItem; dialog: ReactNode } {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<SendDoc | null>(null);
  const inboxes = useInboxes(input.scope, doc !== null);
  const choices = (inboxes.data ?? [])
    .filter((i) => ((i.Permissions ?? 0) & INBOX_RIGHTS.edit) !== 0 && (i.DatabaseId === null || i.DatabaseId === undefined || i.DatabaseId === input.dbId))
    .map((i) => ({ id: i.Id, name: i.Name }));

  // Finished sends of this screen's lifetime: the row goes.
  const done = useLiveQuery(() => appDb.outbox.where('state').equals('done').filter((e) => e.kind === INBOX_KIND && isInboxMeta(e.meta) && e.meta.action === 'put').toArray(), []);
  const seen = useRef<Set<string> | null>(null);
  const latest = useRef(input.onDocumentsChanged);
  useEffect(() => {
    latest.current = input.onDocumentsChanged;
  });
  useEffect(() => {
    if (!done) return;
    if (seen.current === null) {
      seen.current = new Set(done.map((e) => e.id));
      return;
    }
    for (const e of done) {
      if (seen.current.has(e.id)) continue;
      seen.current.add(e.id);
      const body = e.body as { ArchiveId?: number; DocId?: number } | undefined;
      if (body?.ArchiveId !== undefined && body.DocId !== undefined) latest.current({ kind: 'move', archiveIds: [body.ArchiveId], gone: [{ archiveId: body.ArchiveId, id: body.DocId }] });
    }
  }, [done]);

  const menuItem = (d: SendDoc): ContextMenuItem => ({
    id: 'document-send-to-inbox',
    label: t('DOCUMENTS_SEND_TO_INBOX'),
    disabled: input.blocked !== null,
    reason: input.blocked ? t(input.blocked) : undefined,
    onSelect: () => (input.blocked ? notify('error', t(input.blocked)) : setDoc(d)),
  });
  const title = doc ? doc.title || `#${doc.id}` : '';
  const dialog = (
    <ArchiveSelectModal
      key={doc ? `inbox-${doc.id}` : 'inbox-closed'}
      open={doc !== null}
      title={t('DOCUMENTS_SEND_TO_INBOX_TITLE', { title })}
      confirmLabel={t('DOCUMENTS_SEND_TO_INBOX')}
      destinations={choices}
      loading={inboxes.isPending && inboxes.fetchStatus !== 'paused'}
      offline={inboxes.data === undefined && inboxes.fetchStatus === 'paused'}
      onConfirm={(inbox) => {
        if (!doc) return;
        void enqueueInboxChange(
          { method: 'PUT', inboxId: inbox.id, body: { DatabaseId: input.dbId, ArchiveId: doc.archiveId, DocId: doc.id, SecureId: doc.hash } },
          { action: 'put', inboxIds: [inbox.id], ...worded(t, 'DOCUMENTS_SEND_TO_INBOX_ENTRY', { title, inbox: inbox.name }) },
        );
        setDoc(null);
      }}
      onClose={() => setDoc(null)}
    />
  );
  return { menuItem, dialog };
}
