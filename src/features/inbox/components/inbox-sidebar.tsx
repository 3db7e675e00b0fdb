import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { useInboxList } from '../api/inbox-reads';
import { inboxHref, readCollapsed, writeCollapsed } from '../inbox-logic';
import '../inbox.css';

const storage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

/**
 * The inbox sidebar of the results screens (the user-app spec §2; the archive-ops spec §2): the inboxes
 * the user may view, with their file counts, each a link to /results/Inbox. Collapsible; the
 * collapsed state is kept in localStorage (SIDEBAR_KEY), so it survives a reload on this device.
 * Until the user has chosen, `defaultCollapsed` decides: the search results start with it collapsed
 * (a single button above the grid, so the grid keeps its width), the inbox screen open. Collapsed, it
 * is one row above the screen; open, a column beside it. Inboxes of another database are left out.
 */
export function InboxSidebar(props: { db: number; currentInboxId?: number | null; defaultCollapsed?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const list = useInboxList(sessionScope(session));
  const [collapsed, setCollapsed] = useState(() => readCollapsed(storage(), props.defaultCollapsed ?? false));
  const inboxes = (list.data ?? []).filter((i) => i.DatabaseId === null || i.DatabaseId === undefined || i.DatabaseId === props.db);
  const toggle = () => {
    setCollapsed((c) => {
      writeCollapsed(storage(), !c);
      return !c;
    });
  };
  return (
    <aside className={`inbox-sidebar${collapsed ? ' inbox-sidebar-collapsed' : ''}`} aria-label={t('INBOX_SIDEBAR')} data-collapsed={collapsed || undefined}>
      <button type="button" className="button inbox-sidebar-toggle" aria-expanded={!collapsed} aria-controls="inbox-sidebar-list" onClick={toggle}>
        {collapsed ? t('INBOX_SIDEBAR_SHOW') : t('INBOX_SIDEBAR_HIDE')}
      </button>
      {!collapsed && (
        <nav id="inbox-sidebar-list" aria-label={t('INBOX_LIST')}>
          <h2 className="inbox-sidebar-title">{t('INBOX_LIST')}</h2>
          {list.isError && !list.data && <p role="alert">{t('INBOX_LIST_FAILED')}</p>}
          {list.data && inboxes.length === 0 && <p>{t('INBOX_NONE')}</p>}
          <ul className="inbox-sidebar-list">
            {inboxes.map((i) => (
              <li key={i.Id}>
                <Link className="inbox-sidebar-link" to={inboxHref(props.db, i.Id)} aria-current={props.currentInboxId === i.Id ? 'page' : undefined}>
                  <span className="inbox-sidebar-name">{i.Name}</span>
                  <span className="inbox-sidebar-count" aria-label={t('INBOX_FILE_COUNT', { count: i.Count ?? 0 })}>
                    {i.Count ?? 0}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </aside>
  );
}
