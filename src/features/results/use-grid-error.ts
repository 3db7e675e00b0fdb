import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { classifyError, handleError } from '../../api/error-handler';
import { notify } from '../../ui/notifications';
import { isInvalidSortMessage } from './grid-logic';

/**
 * Grid errors (the user-app spec §8): an invalid saved sort alerts DISCARDING_INVALID_GRID_SORT_MSG, drops
 * the saved grid state and reloads (onInvalidSort); 404 is "A query for grid result data returned an
 * error"; an error without a server message is "An unknown error occurred loading grid data."; the
 * licence and session rows of the catalogue go to the one error handler. Returns the text to show.
 */
export function gridErrorText(e: unknown, t: (k: 'ERROR_GRID_QUERY' | 'ERROR_GRID_UNKNOWN') => string): { kind: 'invalidSort' } | { kind: 'handler' } | { kind: 'show'; text: string } | null {
  if (!e) return null;
  if (!isApiError(e)) return { kind: 'show', text: t('ERROR_GRID_UNKNOWN') };
  if (isInvalidSortMessage(e.serverMessage) || isInvalidSortMessage(e.bodyText)) return { kind: 'invalidSort' };
  if (e.status === 404) return { kind: 'show', text: t('ERROR_GRID_QUERY') };
  if (classifyError(e).type !== 'notify') return { kind: 'handler' };
  return { kind: 'show', text: e.serverMessage || t('ERROR_GRID_UNKNOWN') };
}

export function useGridError(error: unknown, onInvalidSort: () => Promise<void>): string | null {
  const { t } = useTranslation();
  const handled = useRef<unknown>(null);
  const verdict = gridErrorText(error, t);

  useEffect(() => {
    if (!error || handled.current === error) return;
    handled.current = error;
    const v = gridErrorText(error, t);
    if (v?.kind === 'invalidSort') {
      notify('error', t('DISCARDING_INVALID_GRID_SORT_MSG'));
      void onInvalidSort();
    } else if (v?.kind === 'handler') handleError(error);
  }, [error, onInvalidSort, t]);

  return verdict?.kind === 'show' ? verdict.text : null;
}
