import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../api/api-error';
import { classifyError, errorText } from '../../api/error-handler';
import { useObtainLicence } from '../../features/licence/api/obtain-licence';
import { resetLeaseExpired } from '../../ui/lease-expired';
import { WaitModal } from '../../ui/wait-modal';
import { safeRedirect } from '../local-redirect';
import { getSession, setSession } from '../../session/session';
import { forgetOtherUsers } from '../user-change';

/**
 * /login: the sign-in page. Query (the user-app spec §2): redirectUrl (encoded), errorTitle, errorMessage,
 * isLicenseExpired. A successful sign-in stores the session and goes to redirectUrl or /select.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const obtain = useObtainLicence();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);

  const isLicenseExpired = params.get('isLicenseExpired') === 'true';
  const errorTitle = params.get('errorTitle') ?? (isLicenseExpired ? t('LICENSE_EXPIRED_TITLE') : null);
  const errorMessage = params.get('errorMessage') ?? (isLicenseExpired ? t('LICENSE_EXPIRED_MESSAGE') : null);
  const redirectUrl = safeRedirect(params.get('redirectUrl'));

  function describe(e: unknown): string {
    if (isApiError(e)) {
      if (e.status === 401 || e.key === 'ERROR_INVALID_CREDENTIALS') return t('ERROR_INVALID_CREDENTIALS');
      if (e.status === 429) return t('ERROR_TOO_MANY_ATTEMPTS');
      const action = classifyError(e);
      if (action.type === 'cantObtainLicence') return t('ERROR_CANT_OBTAIN_LICENSE', { message: action.message });
    }
    return errorText(e);
  }

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setFormError(null);
    if (!userName.trim() || !password) {
      setFormError(t('LOGIN_REQUIRED_FIELDS'));
      return;
    }
    try {
      const licence = await obtain.mutateAsync({ userName: userName.trim(), password });
      await forgetOtherUsers(queryClient, getSession(), userName.trim());
      await setSession({ token: licence.Token, licenceType: licence.Type, userName: userName.trim() });
      resetLeaseExpired();
      setPassword('');
      void navigate(redirectUrl, { replace: true });
    } catch (e) {
      setFormError(describe(e));
    }
  }

  return (
    <main className="auth-page" id="main">
      <form className="card auth-card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="login-title">
        <h1 id="login-title">{t('LOGIN_TITLE')}</h1>
        {(errorTitle || errorMessage) && (
          <div className="callout callout-error" role="alert" data-testid="login-error-banner">
            {errorTitle && <strong className="callout-title">{errorTitle}</strong>}
            {errorMessage && <p>{errorMessage}</p>}
          </div>
        )}
        <label className="field">
          <span className="field-label">{t('LOGIN_USER_NAME')}</span>
          <input name="username" autoComplete="username" value={userName} onChange={(e) => setUserName(e.target.value)} required autoFocus />
        </label>
        <label className="field">
          <span className="field-label">{t('LOGIN_PASSWORD')}</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {formError && (
          <p className="form-error" role="alert" data-testid="login-error">
            {formError}
          </p>
        )}
        <button type="submit" className="button button-primary button-block" disabled={obtain.isPending}>
          {t('LOGIN_SUBMIT')}
        </button>
      </form>
      <WaitModal open={obtain.isPending} message={t('LOGIN_SIGNING_IN')} />
    </main>
  );
}

export { LoginPage as Component };
