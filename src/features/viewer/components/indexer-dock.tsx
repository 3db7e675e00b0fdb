/**
 * The indexer beside the pages (the user-app spec §2; issue 12 item 2): the document's index data
 * (api/document-index.ts) handed to the indexer panel the route composes in (the editing feature's:
 * features do not import each other), the archive's advanced links, and the indexer's target provided
 * to the page area (indexer-target.ts), so key-free extraction fills the panel's current field.
 *
 * Landscape: a column on the right of the pages. Narrow screens (a tablet in portrait): a panel under
 * the pages, closed at first so the pages keep the height, opened and closed by its button. A closed
 * panel stays mounted (hidden): its unsaved values and its current field are kept.
 */
import { useId, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentPage } from '../../../api/search';
import type { ViewerDocumentInfo } from '../../../api/viewer';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { NARROW_SCREEN, useMediaQuery } from '../../../ui/use-media-query';
import { useDocumentIndex } from '../api/document-index';
import { IndexerTargetContext, type IndexerTarget } from '../indexer-target';
import { problemOf } from '../viewer-logic';
import { AdvancedLinksMenu } from './advanced-links-menu';
import '../indexer.css';

export interface ViewerIndexerProps {
  db: number;
  archiveId: number;
  /** The document as a grid page of one row. */
  page: DocumentPage;
  /** When `page` was fetched (ms). */
  fetchedAt: number;
  /** Fetch the document's values again (after an edit of it was saved on the server). */
  reload: () => void;
  onTarget: (target: IndexerTarget | null) => void;
}
export type ViewerIndexer = ComponentType<ViewerIndexerProps>;

/**
 * The indexer's target provided around the whole document view (key-free extraction reads it there),
 * and the dock itself handed to the view (`children(dock)`), which places it beside the page area.
 */
export function IndexerLayout({ Indexer, db, doc, children }: { Indexer?: ViewerIndexer; db: number; doc: ViewerDocumentInfo; children: (dock: ReactNode) => ReactNode }) {
  const [target, setTarget] = useState<IndexerTarget | null>(null);
  if (!Indexer) return children(null);
  return <IndexerTargetContext.Provider value={target}>{children(<IndexerDock Indexer={Indexer} db={db} doc={doc} onTarget={setTarget} />)}</IndexerTargetContext.Provider>;
}

function IndexerDock({ Indexer, db, doc, onTarget }: { Indexer: ViewerIndexer; db: number; doc: ViewerDocumentInfo; onTarget: (t: IndexerTarget | null) => void }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? !narrow;
  const scope = sessionScope(useSession());
  const index = useDocumentIndex(scope, { db, archiveId: doc.Archive, docId: doc.Id, hash: doc.Hash });
  const headingId = useId();
  const bodyId = useId();

  let body: ReactNode;
  if (index.data)
    body = <Indexer db={db} archiveId={doc.Archive} page={index.data} fetchedAt={index.dataUpdatedAt} reload={() => void index.refetch()} onTarget={onTarget} />;
  else if (index.error) {
    const problem = problemOf(index.error);
    body = (
      <div className="indexer-note" role="alert">
        <p>{t(problem === 'offline' ? 'INDEXER_OFFLINE' : problem === 'forbidden' ? 'VIEWER_ERROR_FORBIDDEN' : 'INDEXER_UNAVAILABLE')}</p>
        <button type="button" className="button" onClick={() => void index.refetch()}>
          {t('VIEWER_RETRY')}
        </button>
      </div>
    );
  } else body = <p className="indexer-note" role="status">{t('INDEXER_LOADING')}</p>;

  return (
    <aside className="viewer-indexer" data-open={shown} aria-labelledby={headingId}>
      <div className="viewer-indexer-bar">
        <h2 id={headingId}>{t('INDEXER_TITLE')}</h2>
        <AdvancedLinksMenu scope={scope} db={db} archiveId={doc.Archive} docId={doc.Id} page={index.data} />
        <button type="button" className="button" aria-expanded={shown} aria-controls={bodyId} onClick={() => setOpen(!shown)}>
          {t(shown ? 'INDEXER_HIDE' : 'INDEXER_SHOW')}
        </button>
      </div>
      <div id={bodyId} className="viewer-indexer-body" hidden={!shown}>
        {body}
      </div>
    </aside>
  );
}
