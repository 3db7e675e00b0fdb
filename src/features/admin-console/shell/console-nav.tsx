import { useTranslation } from 'react-i18next';
import { CONSOLE_MODES, MODE_COMPONENTS, MODE_LABELS, type ConsoleMode } from './modes';

/** The collapsible left navigation bar (the console spec §2): one button per mode; modes not built yet are disabled. */
export function ConsoleNav(props: { mode: ConsoleMode; collapsed: boolean; onToggle: () => void; onSelect: (mode: ConsoleMode) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="admin-nav" aria-label={t('ADMIN_NAVIGATION')}>
      <button
        type="button"
        className="icon-button admin-nav-toggle"
        aria-expanded={!props.collapsed}
        aria-controls="admin-nav-list"
        aria-label={props.collapsed ? t('ADMIN_NAV_EXPAND') : t('ADMIN_NAV_COLLAPSE')}
        onClick={props.onToggle}
      >
        <span aria-hidden="true">{props.collapsed ? '»' : '«'}</span>
      </button>
      <ul id="admin-nav-list" className="admin-nav-list">
        {CONSOLE_MODES.map((m) => {
          const label = t(MODE_LABELS[m]);
          const built = MODE_COMPONENTS[m] !== undefined;
          return (
            <li key={m}>
              <button
                type="button"
                className="admin-nav-item"
                aria-current={m === props.mode ? 'page' : undefined}
                aria-label={props.collapsed ? label : undefined}
                title={built ? (props.collapsed ? label : undefined) : t('NOT_YET_AVAILABLE')}
                disabled={!built}
                data-mode={m}
                onClick={() => props.onSelect(m)}
              >
                <span className="admin-nav-initial" aria-hidden="true">
                  {label.charAt(0)}
                </span>
                <span className="admin-nav-label">{label}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
