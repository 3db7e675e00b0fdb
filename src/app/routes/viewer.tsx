import { IndexerPanel } from '../../features/editing/components/indexer-panel';
import { ViewerScreen } from '../../features/viewer/components/viewer-screen';
import { getConfig } from '../config';

/**
 * /viewer/{documentHash}?archive=&Id=&db= (optional terms, search, criteria, session): the document
 * viewer (the user-app spec §2). Loaded lazily: pdf.js and its worker come with this page only. The route
 * composes the editing feature's indexer panel beside the pages (features do not import each other).
 */
export function Component() {
  return <ViewerScreen baseUrl={getConfig().apiBaseUrl} Indexer={IndexerPanel} />;
}
