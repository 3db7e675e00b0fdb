import { useCallback } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useDocumentActions } from '../../features/documents/use-document-actions';
import { useResultsEditing } from '../../features/editing/use-results-editing';
import { useBulkUpdate } from '../../features/bulk-update/use-bulk-update';
import { useExportActions } from '../../features/export/use-export-actions';
import { useImport } from '../../features/import/use-import';
import { HistorySidebar } from '../../features/history/components/history-sidebar';
import { InboxSidebar } from '../../features/inbox/components/inbox-sidebar';
import { ResultsScreen, type ResultsOpenDocumentInput } from '../../features/results/components/results-screen';
import { openDocument } from '../../features/viewer/open-document';
import { useResultsPinning } from '../../features/viewer/pins/use-results-pinning';
import { viewerPath } from '../../features/viewer/viewer-logic';
import { getConfig } from '../config';

/**
 * /results/{searchHash}?Id=&db=&archive=&criteria=&rpp=&tabID=: the results grid. Loaded lazily, so
 * Handsontable stays out of the first screen's bundle. Keyed by the search so a new search starts
 * with fresh screen state. The route composes the grid with index editing, the history sidebar and
 * the document actions (copy, move, delete), export, bulk update and import, and opens the viewer for a
 * row: features do not import each other (eslint.config.js).
 */
export function Component() {
  const { searchHash = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const open = useCallback((input: ResultsOpenDocumentInput) => void openDocument({ ...input, navigate: (url) => void navigate(url) }), [navigate]);
  // Burst: the document in the viewer with its thumbnails selecting pages (burst=1).
  const burst = useCallback(
    (b: { db: number; doc: { id: number; hash: string; archiveId: number } }) => void navigate(`${viewerPath({ hash: b.doc.hash, archiveId: b.doc.archiveId, docId: b.doc.id, db: b.db })}&burst=1`),
    [navigate],
  );
  // The inbox sidebar beside the grid (the user-app spec §2), linking to /results/Inbox.
  return (
    <div className="results-with-inboxes">
      <InboxSidebar db={Number(params.get('db')) || 0} defaultCollapsed />
      <ResultsScreen
        key={searchHash}
        searchHash={searchHash}
        openDocument={open}
        config={getConfig()}
        useDocumentActions={useDocumentActions}
        useExport={useExportActions}
        useBulkUpdate={useBulkUpdate}
        useImport={useImport}
        useEditing={useResultsEditing}
        usePinning={useResultsPinning}
        HistorySidebar={HistorySidebar}
        burst={burst}
      />
    </div>
  );
}
