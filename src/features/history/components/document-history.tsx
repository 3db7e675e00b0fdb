import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { useDocumentHistory } from '../api/get-history';
import '../history.css';
import { HISTORY_CATEGORIES, canSeeHistory, filterByCategory, formatHistoryTime, historyMessage, type CategoryFilter } from '../history-logic';

export interface HistoryDoc {
  id: number;
  hash: string;
  archiveId: number;
  permissions: number;
  /** The archive's name and what names the document (src/fields/document-label.ts), for the heading. */
  archiveName?: string;
  label?: string;
}

/** The selected document's history, filtered by category. Needs permission bit 512. */
export function DocumentHistoryPanel({ db, doc }: { db: number; doc: HistoryDoc | null }) {
  const { t, i18n } = useTranslation();
  const scope = sessionScope(useSession());
  const [filter, setFilter] = useState<CategoryFilter>('all');
  const filterId = useId();
  const headingId = useId();
  const allowed = !!doc && canSeeHistory(doc.permissions);
  const q = useDocumentHistory(scope, db, doc?.archiveId ?? 0, doc?.id ?? 0, doc?.hash ?? '', allowed);

  if (!doc) return <p className="hint">{t('HISTORY_SELECT_ROW')}</p>;
  // Which document this is: the sidebar follows the active row, which may have scrolled out of view.
  const heading = (
    <hgroup className="history-doc-heading">
      <h2 id={headingId}>{t('HISTORY_DOCUMENT_HEADING', { id: doc.id, archive: doc.archiveName || String(doc.archiveId) })}</h2>
      {doc.label && <p data-testid="history-doc-label">{doc.label}</p>}
    </hgroup>
  );
  if (!allowed)
    return (
      <div className="history-panel">
        {heading}
        <p className="hint">{t('HISTORY_NO_RIGHTS')}</p>
      </div>
    );
  const items = filterByCategory(q.data ?? [], filter);
  return (
    <div className="history-panel" aria-labelledby={headingId} role="region">
      {heading}
      <label htmlFor={filterId}>{t('HISTORY_FILTER')}</label>{' '}
      <select id={filterId} value={filter} onChange={(e) => setFilter(e.target.value as CategoryFilter)}>
        <option value="all">{t('HISTORY_CATEGORY_ALL')}</option>
        {HISTORY_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {t(`HISTORY_CATEGORY_${c.replace(/[^a-z]+/g, '_')}` as 'HISTORY_CATEGORY_ALL')}
          </option>
        ))}
      </select>
      {q.isPending && <p>{t('MESSAGE_LOADING')}</p>}
      {q.isError && <p role="alert">{t('HISTORY_LOAD_FAILED')}</p>}
      {q.isSuccess && items.length === 0 && <p className="hint">{t('HISTORY_EMPTY')}</p>}
      <ol className="history-list" aria-label={t('HISTORY_DOCUMENT')}>
        {items.map((it, i) => (
          <li key={`${it.Time}-${i}`}>
            <time dateTime={it.Time}>{formatHistoryTime(it.Time, i18n.language)}</time>
            <span className="history-message">{historyMessage(it, t)}</span>
            {it.UserName && <span className="history-user">{it.UserName}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}
