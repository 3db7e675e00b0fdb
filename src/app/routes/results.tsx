import { useParams } from 'react-router-dom';
import { useDocumentActions } from '../../features/documents/use-document-actions';
import { ResultsScreen } from '../../features/results/components/results-screen';

/**
 * /results/{searchHash}?Id=&db=&archive=&criteria=&rpp=&tabID=: the results grid. Loaded lazily, so
 * Handsontable stays out of the first screen's bundle. Keyed by the search so a new search starts
 * with fresh screen state. The route composes the grid with the document actions (copy, move,
 * delete): features do not import each other.
 */
export function Component() {
  const { searchHash = '' } = useParams();
  return <ResultsScreen key={searchHash} searchHash={searchHash} useDocumentActions={useDocumentActions} />;
}
