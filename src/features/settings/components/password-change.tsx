import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/api-error';
import { handleError } from '../../../api/error-handler';
import { CURRENT_PASSWORD_WRONG_KEY } from '../../../api/users';
import type { TranslationKey } from '../../../i18n/resources';
import { changeOwnPassword } from '../api/change-own-password';
import '../settings.css';

type Field = 'current' | 'next' | 'confirm';
interface Problem {
  field: Field | null;
  key: TranslationKey;
}

/** The spec's checks before anything is sent (the user-app spec §5); the server judges the pattern. */
function check(current: string, next: string, confirm: string): Problem | null {
  if (current === '') return { field: 'current', key: 'CURRENT_PASSWORD_BLANK' };
  if (next.trim() === '') return { field: 'next', key: 'PASSWORD_BLANK' };
  if (next !== confirm) return { field: 'confirm', key: 'PASSWORDS_DONT_MATCH' };
  return null;
}

/**
 * Settings > Password (the user-app spec §2 "Users: change own password"): the current password, the new
 * one and its confirmation. The values live only in this component, so they are gone once the user
 * leaves the page, and are cleared after a change. The server ends the user's other sessions.
 */
export function PasswordChange() {
  const { t } = useTranslation();
  const ids = useId();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', confirm: '' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(false);
  const errorId = `${ids}-error`;
  const hintId = `${ids}-hint`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setChanged(false);
    const local = check(values.current, values.next, values.confirm);
    setProblem(local);
    if (local) return;
    setBusy(true);
    try {
      await changeOwnPassword({ CurrentPassword: values.current, Password: values.next });
      setValues({ current: '', next: '', confirm: '' });
      setChanged(true);
    } catch (err) {
      if (isApiError(err) && err.key === CURRENT_PASSWORD_WRONG_KEY) setProblem({ field: 'current', key: 'CURRENT_PASSWORD_WRONG' });
      else if (isApiError(err) && err.key === 'ERROR_PASSWORD_UPDATE') setProblem({ field: 'next', key: 'ERROR_PASSWORD_UPDATE' });
      else {
        // Session errors, too many attempts, the network: the one error handler says what happened.
        handleError(err);
        setProblem({ field: null, key: 'ERROR_PASSWORD_UPDATE' });
      }
    } finally {
      setBusy(false);
    }
  }

  const input = (field: Field, label: TranslationKey, autoComplete: string, hint?: string) => (
    <label className="field">
      <span className="field-label">{t(label)}</span>
      <input
        type="password"
        autoComplete={autoComplete}
        value={values[field]}
        aria-invalid={problem?.field === field ? true : undefined}
        aria-describedby={[problem?.field === field ? errorId : '', hint ?? ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
      />
    </label>
  );

  return (
    <form className="card password-change" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset disabled={busy}>
        <legend>{t('SETTINGS_PASSWORD')}</legend>
        {input('current', 'PASSWORD_CURRENT', 'current-password')}
        {input('next', 'PASSWORD_NEW', 'new-password', hintId)}
        <p id={hintId} className="hint password-change-hint">
          {t('PASSWORD_RULE_HINT')}
        </p>
        {input('confirm', 'PASSWORD_CONFIRM', 'new-password')}
        {problem && (
          <p id={errorId} className="form-error" role="alert">
            {t(problem.key)}
          </p>
        )}
        {changed && (
          <p className="password-change-done" role="status">
            {t('PASSWORD_UPDATED')} {t('PASSWORD_OTHER_SESSIONS_ENDED')}
          </p>
        )}
      </fieldset>
      <button type="submit" className="button button-primary" disabled={busy}>
        {t('PASSWORD_CHANGE')}
      </button>
    </form>
  );
}
