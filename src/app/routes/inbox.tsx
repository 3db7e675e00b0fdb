import { useSearchParams } from 'react-router-dom';
import { InboxScreen, type InboxGridParts } from '../../features/inbox/components/inbox-screen';
import { InboxSidebar } from '../../features/inbox/components/inbox-sidebar';
import { PageSizeControl } from '../../features/results/components/page-size-control';
import { Pager } from '../../features/results/components/pager';
import { LazyResultsGrid as ResultsGrid } from '../../features/results/components/lazy-results-grid';
import { ThumbPreview } from '../../features/results/components/thumb-preview';
import '../../features/results/results.css';
import { getConfig } from '../config';

/** The results feature's grid and its pieces, lent to the inbox screen (features do not import each other). */
const parts: InboxGridParts = { Grid: ResultsGrid, Pager, PageSize: PageSizeControl, ThumbPreview };

/**
 * /results/Inbox?db=&inboxId= (the user-app spec §2): the inbox sidebar beside one inbox's files. Loaded
 * lazily with the grid, like /results/{searchHash}; keyed by the inbox so another inbox starts fresh.
 */
export function Component() {
  const [params] = useSearchParams();
  const db = Number(params.get('db')) || 0;
  const inboxId = Number(params.get('inboxId')) || 0;
  return (
    <div className="results-with-inboxes">
      <InboxSidebar db={db} currentInboxId={inboxId} />
      <InboxScreen key={inboxId} parts={parts} gridLicenseKey={getConfig().gridLicenseKey} />
    </div>
  );
}
