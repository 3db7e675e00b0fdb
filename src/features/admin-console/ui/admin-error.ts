import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { handleError } from '../../../api/error-handler';
import { notify } from '../../../ui/notifications';

/**
 * A console call's failure: a refusal whose Key is one of the console's message keys
 * (MULTIPLE_DATABASES_NOT_LICENSED, ARCHIVE_FIELDS_REQUIRED, VIEW_LABEL_NOT_UNIQUE, ...) is said in
 * the user's language; everything else goes to the app's one error handler (the server's Message,
 * or method, url and status text; 'Account Not Authorized For User Management' ignored; an expired
 * licence signs out).
 */
export function useAdminError(): (e: unknown) => void {
  const { t, i18n } = useTranslation();
  return useCallback(
    (e: unknown) => {
      if (isApiError(e) && e.key && e.key !== 'ERROR_FAILED_DUE_TO_PERMISSIONS' && e.key !== 'ERROR_INCORRECT_PARAMETERS' && i18n.exists(e.key)) {
        notify('error', t(e.key as never));
        return;
      }
      handleError(e);
    },
    [t, i18n],
  );
}
