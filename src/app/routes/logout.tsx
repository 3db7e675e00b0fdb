import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { loginUrl } from '../../api/error-handler';
import { releaseLicence } from '../../features/licence/api/release-licence';
import { clearToasts } from '../../ui/notifications';
import { clearSession, getToken } from '../../session/session';

/**
 * /logout: gives the licence back (DELETE api/licenses/{token}), forgets the session and the cached
 * data, then goes to the login page; with db=0 and op=0 or 2 it shows MESSAGE_THANK_YOU instead.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  const [done, setDone] = useState(false);
  const thankYou = params.get('db') === '0' && (params.get('op') === '0' || params.get('op') === '2');

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The session's toasts go with it: at once, and again after the last calls of the session settle
    // (a failure of one of them must not greet the next person either).
    clearToasts();
    void (async () => {
      const token = getToken();
      if (token) await releaseLicence(token).catch(() => undefined);
      await clearSession();
      queryClient.clear();
      clearToasts();
      if (thankYou) setDone(true);
      else void navigate(loginUrl({ redirectUrl: '/select' }), { replace: true });
    })();
  }, [thankYou, navigate, queryClient]);

  return (
    <main className="auth-page" id="main">
      <div className="card auth-card" role="status">
        {done ? (
          <>
            <p data-testid="thank-you">{t('MESSAGE_THANK_YOU')}</p>
            <button type="button" className="button button-primary button-block" onClick={() => void navigate('/login')}>
              {t('SIGN_IN_AGAIN')}
            </button>
          </>
        ) : (
          <p>{t('LOGOUT_IN_PROGRESS')}</p>
        )}
      </div>
    </main>
  );
}

export { LogoutPage as Component };
