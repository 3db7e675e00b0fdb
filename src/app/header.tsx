import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { TranslationKey } from '../i18n/resources';
import { headerButtons, useAdminRights } from '../features/admin-rights/api/get-admin-rights';
import { LicenceType } from '../api/licences';
import { sessionScope, useSession } from './session';

interface HeaderButton {
  id: string;
  label: TranslationKey;
  shown: boolean;
  /** Where it goes; screens not built yet have none and are disabled. */
  to?: string;
}

/** The header buttons of user-app.md §1, shown by the user's rights (GET api/admin). */
export function AppHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const rights = useAdminRights(sessionScope(session));
  const show = headerButtons(rights.data);
  const admin = rights.data?.isAnyDbAdmin ?? false;

  const buttons: HeaderButton[] = [
    { id: 'user-admin', label: 'HEADER_USER_ADMIN', shown: show.userAdmin },
    { id: 'full-admin', label: 'HEADER_FULL_ADMIN', shown: show.fullAdmin },
    { id: 'licence-manager', label: 'HEADER_LICENCE_MANAGER', shown: show.licenceManager },
    { id: 'batch-admin', label: 'HEADER_BATCH_ADMIN', shown: show.batchAdmin },
    { id: 'flow-admin', label: 'HEADER_FLOW_ADMIN', shown: show.flowAdmin },
    { id: 'capture-admin', label: 'HEADER_CAPTURE_ADMIN', shown: show.captureAdmin },
    { id: 'switch-db', label: 'HEADER_SWITCH_DATABASE', shown: true, to: '/select' },
    { id: 'settings', label: 'HEADER_SETTINGS', shown: true, to: '/settings' },
    { id: 'quick-start', label: 'HEADER_QUICK_START', shown: admin },
    // db=0&op=0: the licence is given back and the thank-you message is shown (user-app.md §4).
    { id: 'logout', label: 'HEADER_LOGOUT', shown: true, to: '/logout?db=0&op=0' },
  ];

  const userName = rights.data?.user.Name ?? session?.userName ?? null;
  const readOnly = (rights.data?.user.LicenceType ?? session?.licenceType) === LicenceType.webOnlyReadOnly;

  return (
    <header className="app-header">
      <div className="app-brand">
        <span className="app-title">{t('APP_TITLE')}</span>
        {userName && <span className="app-user">{t('HEADER_SIGNED_IN_AS', { name: userName })}</span>}
        {readOnly && <span className="badge">{t('HEADER_READ_ONLY')}</span>}
      </div>
      <nav className="app-nav" aria-label={t('HEADER_NAVIGATION')}>
        {buttons
          .filter((b) => b.shown)
          .map((b) => (
            <button
              key={b.id}
              type="button"
              className="button nav-button"
              data-testid={`header-${b.id}`}
              disabled={!b.to}
              title={b.to ? undefined : t('NOT_YET_AVAILABLE')}
              onClick={b.to ? () => void navigate(b.to!) : undefined}
            >
              {t(b.label)}
            </button>
          ))}
      </nav>
    </header>
  );
}
