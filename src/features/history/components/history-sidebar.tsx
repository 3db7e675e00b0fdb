import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArchiveHistoryPanel } from './archive-history';
import { DocumentHistoryPanel, type HistoryDoc } from './document-history';

/** The right sidebar: the selected row's document history, and the archive history. */
export function HistorySidebar(props: { id: string; db: number; archiveId: number; archivePermissions: number | null; doc: HistoryDoc | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'document' | 'archive'>('document');
  return (
    <aside id={props.id} className="history-sidebar" aria-label={t('HISTORY_SIDEBAR')}>
      <div className="history-sidebar-head">
        <div role="group" aria-label={t('HISTORY_SIDEBAR')}>
          <button type="button" className="button" aria-pressed={view === 'document'} onClick={() => setView('document')}>
            {t('HISTORY_DOCUMENT')}
          </button>
          <button type="button" className="button" aria-pressed={view === 'archive'} onClick={() => setView('archive')}>
            {t('HISTORY_ARCHIVE')}
          </button>
        </div>
        <button type="button" className="icon-button" onClick={props.onClose} aria-label={t('HISTORY_CLOSE')}>
          ×
        </button>
      </div>
      {view === 'document' ? (
        <DocumentHistoryPanel db={props.db} doc={props.doc} />
      ) : (
        <ArchiveHistoryPanel db={props.db} archiveId={props.archiveId} permissions={props.archivePermissions} />
      )}
    </aside>
  );
}
