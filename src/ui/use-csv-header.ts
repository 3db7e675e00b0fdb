import { useEffect, useRef } from 'react';
import { CsvFile } from '../platform/csv';
import { dialectProblem, type CsvDialect } from '../platform/csv-parse';

/**
 * Reads a picked CSV file's header row in the CSV worker whenever the file or its delimiters change
 * (bulk update's CSV tab and the import dialog): `onColumns` gets the column names, `onError` why the
 * file could not be read. Nothing is read while the delimiters are not two different characters; an
 * answer that comes after a newer file or dialect was chosen is dropped.
 */
export function useCsvHeader(file: File | null, dialect: CsvDialect, onColumns: (columns: string[]) => void, onError: (e: unknown) => void): void {
  const handlers = useRef({ onColumns, onError });
  // The latest handlers, set before the reading effect below runs (effects run in order).
  useEffect(() => {
    handlers.current = { onColumns, onError };
  });
  const { fieldDelimiter, stringDelimiter } = dialect;
  useEffect(() => {
    if (!file || dialectProblem({ fieldDelimiter, stringDelimiter })) return;
    let live = true;
    void CsvFile.open(file, { fieldDelimiter, stringDelimiter })
      .then((csv) => {
        const cols = csv.columns;
        csv.close();
        if (live) handlers.current.onColumns(cols);
      })
      .catch((e: unknown) => live && handlers.current.onError(e));
    return () => {
      live = false;
    };
  }, [file, fieldDelimiter, stringDelimiter]);
}
