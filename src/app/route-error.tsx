import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/** Shown when a route fails to load or render (e.g. a lazy chunk offline), instead of a blank page. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card" role="alert">
        <h1>{t('ROUTE_ERROR_TITLE')}</h1>
        <p>{t('ERROR_UNKNOWN')}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('RELOAD_PAGE')}
        </button>
      </div>
    </main>
  );
}
