import { ViewerScreen } from '../../features/viewer/components/viewer-screen';
import { getConfig } from '../config';

/**
 * /viewer/{documentHash}?archive=&Id=&db= (optional terms, search, criteria, session): the document
 * viewer (user-app.md §2). Loaded lazily: pdf.js and its worker come with this page only.
 */
export function Component() {
  return <ViewerScreen baseUrl={getConfig().apiBaseUrl} />;
}
