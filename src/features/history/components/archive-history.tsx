import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveQuery } from 'dexie-react-hooks';
import { HISTORY_PAGE_SIZE } from '../../../api/constants';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { readLocalSettings } from '../../../db/local-settings';
import { useArchiveHistory } from '../api/get-history';
import { canSeeHistory, formatHistoryTime, historyMessage, historyPages } from '../history-logic';

/** The archive's history, 25 a page (searchSetting.archHistoryPageSize), with its total. */
export function ArchiveHistoryPanel({ db, archiveId, permissions }: { db: number; archiveId: number; permissions: number | null }) {
  const { t, i18n } = useTranslation();
  const scope = sessionScope(useSession());
  const settings = useLiveQuery(() => readLocalSettings(), []);
  const pageSize = settings?.searchSetting.archHistoryPageSize ?? HISTORY_PAGE_SIZE;
  const [pageAt, setPageAt] = useState({ archiveId, page: 1 });
  const page = pageAt.archiveId === archiveId ? pageAt.page : 1;
  // Without the archive's rights known (null) the server decides; with them, bit 512 is needed.
  const allowed = permissions === null || canSeeHistory(permissions);
  const q = useArchiveHistory(scope, db, archiveId, page, pageSize, allowed && archiveId > 0);
  if (!allowed) return <p className="hint">{t('HISTORY_NO_RIGHTS')}</p>;
  const total = q.data?.Total ?? 0;
  const pages = historyPages(total, pageSize);
  const go = (p: number) => setPageAt({ archiveId, page: Math.min(Math.max(1, p), pages) });
  return (
    <div className="history-panel">
      <p data-testid="archive-history-total">{t('HISTORY_TOTAL', { count: total })}</p>
      {q.isError && <p role="alert">{t('HISTORY_LOAD_FAILED')}</p>}
      <ol className="history-list" aria-label={t('HISTORY_ARCHIVE')}>
        {(q.data?.Items ?? []).map((it, i) => (
          <li key={`${it.Date}-${i}`}>
            <time dateTime={it.Date}>{formatHistoryTime(it.Date, i18n.language)}</time>
            <span className="history-message">{historyMessage(it, t)}</span>
            {it.UserName && <span className="history-user">{it.UserName}</span>}
          </li>
        ))}
      </ol>
      <nav className="history-pager" aria-label={t('HISTORY_PAGER')}>
        <button type="button" className="button" disabled={page <= 1} onClick={() => go(page - 1)} aria-label={t('HISTORY_PREVIOUS_PAGE')}>
          ‹
        </button>
        <span>{t('HISTORY_PAGE_OF', { page, pages })}</span>
        <button type="button" className="button" disabled={page >= pages} onClick={() => go(page + 1)} aria-label={t('HISTORY_NEXT_PAGE')}>
          ›
        </button>
      </nav>
    </div>
  );
}
