/** Why a document cannot be shown, in the user's words, with a way on: try again or go back. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ViewerProblem } from '../viewer-logic';

const TEXT = {
  forbidden: 'VIEWER_ERROR_FORBIDDEN',
  missing: 'VIEWER_ERROR_MISSING',
  offline: 'VIEWER_ERROR_OFFLINE',
  server: 'VIEWER_ERROR_SERVER',
  address: 'VIEWER_ERROR_ADDRESS',
  file: 'VIEWER_ERROR_FILE',
} as const;

export function ViewerProblemView(props: { problem: ViewerProblem | 'file'; onRetry?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const retry = props.onRetry && (props.problem === 'offline' || props.problem === 'server');
  return (
    <div className="viewer-problem" role="alert" data-problem={props.problem}>
      <h2>{t('VIEWER_ERROR_TITLE')}</h2>
      <p>{t(TEXT[props.problem])}</p>
      <div className="viewer-problem-actions">
        {retry && (
          <button type="button" className="button" onClick={props.onRetry}>
            {t('VIEWER_RETRY')}
          </button>
        )}
        {window.history.length > 1 && (
          <button type="button" className="button" onClick={() => void navigate(-1)}>
            {t('VIEWER_BACK')}
          </button>
        )}
      </div>
    </div>
  );
}
