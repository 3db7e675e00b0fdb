import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { TranslationKey } from '../i18n/resources';
import { headerButtons, useAdminRights } from '../features/admin-rights/api/get-admin-rights';
import { NotificationsTray } from '../features/notifications/components/notifications-tray';
import type { DownloadExport } from '../features/notifications/components/export-note';
import { pickFolder } from '../platform/pick-folder';
import { LicenceType } from '../api/licences';
import { useDismiss } from '../ui/use-dismiss';
import { sessionScope, updateSession } from '../session/session';
import { useSession } from '../session/use-session';

/**
 * The tray's Download of a finished export saves through the export feature (features do not import
 * each other). Loaded on the click, so the first screen does not carry it; should the browser no
 * longer let the save picker open after the load, it downloads instead (src/platform/save-file.ts).
 * Save to folder (where showDirectoryPicker exists) unpacks the zip into a picked folder as it streams.
 */
const downloadExport: DownloadExport = (dbId, note, o) => {
  if (!o?.toFolder) return import('../features/export/download-export').then((m) => m.saveExport(dbId, note));
  // The folder picker opens now, within the click; the unzip code (fflate) loads beside it.
  const picked = pickFolder();
  picked.catch(() => undefined);
  return import('../features/export/save-to-folder').then((m) => m.saveExportToFolder(dbId, note, picked, o));
};

interface HeaderButton {
  id: string;
  label: TranslationKey;
  shown: boolean;
  /** Where it goes; screens not built yet have none and are disabled. */
  to?: string;
  /** Administration screens live in one menu, so the header stays one row on a tablet. */
  admin?: boolean;
}

/** The header buttons of the user-app spec §1, shown by the user's rights (GET api/admin). */
export function AppHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const rights = useAdminRights(sessionScope(session));
  const show = headerButtons(rights.data);
  const admin = rights.data?.isAnyDbAdmin ?? false;

  const buttons: HeaderButton[] = [
    { id: 'user-admin', label: 'HEADER_USER_ADMIN', shown: show.userAdmin, admin: true },
    { id: 'full-admin', label: 'HEADER_FULL_ADMIN', shown: show.fullAdmin, admin: true, to: '/admin/full' },
    { id: 'licence-manager', label: 'HEADER_LICENCE_MANAGER', shown: show.licenceManager, admin: true },
    { id: 'batch-admin', label: 'HEADER_BATCH_ADMIN', shown: show.batchAdmin, admin: true },
    { id: 'flow-admin', label: 'HEADER_FLOW_ADMIN', shown: show.flowAdmin, admin: true },
    { id: 'capture-admin', label: 'HEADER_CAPTURE_ADMIN', shown: show.captureAdmin, admin: true },
    { id: 'switch-db', label: 'HEADER_SWITCH_DATABASE', shown: true, to: '/select' },
    { id: 'settings', label: 'HEADER_SETTINGS', shown: true, to: '/settings' },
    { id: 'quick-start', label: 'HEADER_QUICK_START', shown: admin, admin: true },
    // db=0&op=0: the licence is given back and the thank-you message is shown (the user-app spec §4).
    { id: 'logout', label: 'HEADER_LOGOUT', shown: true, to: '/logout?db=0&op=0' },
  ];

  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  useDismiss(menuRef, menuOpen, () => setMenuOpen(false));

  const renderButton = (b: HeaderButton) => (
    <button
      key={b.id}
      type="button"
      className="button nav-button"
      data-testid={`header-${b.id}`}
      disabled={!b.to}
      title={b.to ? undefined : t('NOT_YET_AVAILABLE')}
      onClick={
        b.to
          ? () => {
              setMenuOpen(false);
              void navigate(b.to!);
            }
          : undefined
      }
    >
      {t(b.label)}
    </button>
  );
  const adminButtons = buttons.filter((b) => b.shown && b.admin);

  const userName = rights.data?.user.Name ?? session?.userName ?? null;
  // A session from a link (TokenCapture) that could not learn its user's name then learns it here.
  const knownName = rights.data?.user.Name;
  useEffect(() => {
    if (knownName && session && session.userName === null) void updateSession({ userName: knownName });
  }, [knownName, session]);
  const readOnly = (rights.data?.user.LicenceType ?? session?.licenceType) === LicenceType.webOnlyReadOnly;

  return (
    <header className="app-header">
      <div className="app-brand">
        <span className="app-title">{t('APP_TITLE')}</span>
        {userName && <span className="app-user">{t('HEADER_SIGNED_IN_AS', { name: userName })}</span>}
        {readOnly && <span className="badge">{t('HEADER_READ_ONLY')}</span>}
      </div>
      <nav className="app-nav" aria-label={t('HEADER_NAVIGATION')}>
        {adminButtons.length > 0 && (
          <div className="nav-menu" ref={menuRef}>
            <button
              type="button"
              className="button nav-button"
              aria-expanded={menuOpen}
              aria-controls="admin-menu"
              data-testid="header-admin-menu"
              onClick={() => setMenuOpen((o) => !o)}
            >
              {t('HEADER_ADMINISTRATION')}
            </button>
            {menuOpen && (
              <div id="admin-menu" className="nav-menu-panel" role="group" aria-label={t('HEADER_ADMINISTRATION')}>
                {adminButtons.map(renderButton)}
              </div>
            )}
          </div>
        )}
        <NotificationsTray onDownloadExport={downloadExport} />
        {buttons.filter((b) => b.shown && !b.admin).map(renderButton)}
      </nav>
    </header>
  );
}
