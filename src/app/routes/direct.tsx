import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../api/api-error';
import { handleError, loginUrl } from '../../api/error-handler';
import { validateLicence } from '../../features/licence/api/validate-licence';
import { WaitModal } from '../../ui/wait-modal';
import { clearSession, getSession, updateSession } from '../../session/session';
import { useSession } from '../../session/use-session';

/**
 * /direct, the loader (the user-app spec §2, §4): op=1&db=N checks the session's licence and goes to
 * /view?db=N&token=... (the token is then taken off the address); op=2 is the licence-expired page.
 */
export function DirectPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const op = params.get('op');
  const db = Number(params.get('db'));
  if (op === '2') return <LicenceExpiredPage />;
  if (op === '1' && Number.isInteger(db) && db > 0) return <OpenDatabase db={db} />;
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card" role="alert">
        <p>{t('ERROR_INCORRECT_PARAMETERS')}</p>
        <Link className="button" to="/select">
          {t('HEADER_SWITCH_DATABASE')}
        </Link>
      </div>
    </main>
  );
}

function OpenDatabase({ db }: { db: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const started = useRef(false);
  const [failed, setFailed] = useState(false);
  const here = `/direct?op=1&db=${db}`;
  const token = session?.token ?? null;

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void (async () => {
      try {
        const v = await validateLicence();
        if (!v.Valid) {
          await clearSession();
          void navigate(loginUrl({ redirectUrl: here }), { replace: true });
          return;
        }
        await updateSession({ restricted: v.Restricted ?? false, licenceType: v.Type ?? session?.licenceType ?? null });
        if (v.Restricted) void navigate('/select', { replace: true });
        else void navigate(`/view?db=${db}&token=${encodeURIComponent(token)}`, { replace: true });
      } catch (e) {
        if (isApiError(e) && (e.status === 401 || e.kind === 'noToken')) {
          await clearSession();
          void navigate(loginUrl({ redirectUrl: here }), { replace: true });
          return;
        }
        handleError(e);
        setFailed(true);
      }
    })();
  }, [token, db, here, navigate, session?.licenceType]);

  if (!token) return <Navigate to={loginUrl({ redirectUrl: here })} replace />;
  return (
    <main className="auth-page" id="main">
      {failed ? (
        <div className="card auth-card">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            {t('RETRY')}
          </button>
        </div>
      ) : (
        <WaitModal open message={t('DIRECT_OBTAINING_LICENSE')} />
      )}
    </main>
  );
}

function LicenceExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    // Whatever brought the user here, the token is of no further use.
    if (getSession()) void clearSession('/direct?op=2');
  }, []);
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card" data-testid="licence-expired">
        <h1>{t('LICENSE_EXPIRED_TITLE')}</h1>
        <p>{t('LICENSE_EXPIRED_MESSAGE')}</p>
        <button type="button" className="button button-primary button-block" onClick={() => void navigate(loginUrl({ redirectUrl: '/select' }))}>
          {t('SIGN_IN_AGAIN')}
        </button>
      </div>
    </main>
  );
}

export { DirectPage as Component };
