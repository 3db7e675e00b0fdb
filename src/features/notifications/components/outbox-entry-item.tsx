import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldDataConflict } from '../../../api/documents';
import type { DocumentField } from '../../../api/search';
import type { OutboxEntry, Words } from '../../../db/db';
import { formatWireValue } from '../../../fields/masks';
import { browserAppLocale } from '../../../i18n/locale';
import { sayWords } from '../../../i18n/words';
import { isFieldEditMeta, keepMine, type FieldFormat } from '../../../sync/kinds/field-data';
import { discardEntry, retryEntry, takeTheirs } from '../../../sync/outbox';
import { failureWords } from '../outbox-reason';
import { mergeNote } from '../merge-note';

/** A field's value as the grid shows it (its Mask, else the locale's dates and numbers); wire values of entries kept without formats. */
const shown = (f: Pick<DocumentField, 'VAL' | 'MVAL'> | undefined, format: FieldFormat | undefined, locale: string, empty: string): string => {
  const values = f?.MVAL?.length ? f.MVAL : [f?.VAL ?? ''];
  const v = values.map((x) => (format ? formatWireValue(format, x, locale) : x)).join(', ');
  return v === '' ? empty : v;
};

/** The request as the outbox sends it (never with the token: that is stamped at send time). */
const requestLine = (e: Pick<OutboxEntry, 'method' | 'path' | 'query'>): string => {
  const q = new URLSearchParams(e.query ?? {}).toString();
  return `${e.method} ${e.path}${q ? `?${q}` : ''}`;
};

/**
 * What an entry of another kind than field edits says about itself (e.g. 'documentOperation':
 * meta.title, meta.docs and meta.sent, how many of its documents the server has).
 */
function groupProgress(meta: unknown): { title?: string; sent?: number; total?: number } | null {
  if (typeof meta !== 'object' || meta === null) return null;
  const m = meta as { title?: unknown; docs?: unknown; sent?: unknown };
  const total = Array.isArray(m.docs) ? m.docs.length : typeof m.docs === 'number' ? m.docs : undefined;
  return {
    ...(typeof m.title === 'string' && m.title ? { title: m.title } : {}),
    ...(typeof m.sent === 'number' ? { sent: m.sent } : {}),
    ...(total !== undefined ? { total } : {}),
  };
}

/** The words a kind named its entry with (meta.titleWords: annotation, export, bulk update, import), if any. */
function titleWordsOf(meta: unknown): Words | null {
  const w = (meta as { titleWords?: Partial<Words> } | null | undefined)?.titleWords;
  return w && typeof w.key === 'string' ? (w as Words) : null;
}

/** One outbox entry in the tray: what it changes, its state and reason, and what the user can do. */
export function OutboxEntryItem({ entry }: { entry: OutboxEntry }) {
  const { t, i18n } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const seq = entry.seq!;
  const meta = isFieldEditMeta(entry.meta) ? entry.meta : null;
  const fields = entry.kind === 'fieldData' ? ((entry.body as DocumentField[] | undefined) ?? []) : [];
  const conflict = entry.state === 'conflict' ? FieldDataConflict.safeParse(entry.result) : null;
  const current = conflict?.success ? conflict.data.Current.Fields : [];
  const empty = t('OUTBOX_EMPTY_VALUE');
  const group = meta ? null : groupProgress(entry.meta);
  const exists = (k: string) => i18n.exists(k);
  const locale = browserAppLocale(i18n.language);
  // The kind's own words for the entry (said in the language of the moment), else the title it was worded with.
  const title = sayWords(titleWordsOf(entry.meta), t, exists, meta ? (meta.title ?? t('OUTBOX_DOCUMENT', { id: meta.docId })) : (group?.title ?? t('OUTBOX_OTHER_CHANGE', { kind: entry.kind })));
  const format = (id: number) => meta?.formats?.[id];
  const label = (id: number) => meta?.labels?.[id] ?? t('OUTBOX_FIELD', { id });
  const canDiscard = entry.state === 'failed' || entry.state === 'conflict';
  const failure = entry.state === 'failed' ? failureWords(entry, title, t, exists) : null;
  // A merge or append says what came of it in its own words (its success or failure note).
  const merged = mergeNote(entry, t);
  // An entry failed before reasons were stored has only its error text: the server's words, unless
  // it is the request line (ERROR_DEFAULT, ERROR_NETWORK name the path), which is detail only.
  const serverWords = entry.error && !entry.error.includes(entry.path) ? entry.error : null;
  // A queued entry that waits for something of the device's own (OutboxWait: an import's files still
  // uploading) holds the catalogue key of why: said in words, and it is no error to report.
  const waiting = entry.state === 'queued' && entry.error && i18n.exists(entry.error) ? t(entry.error as 'IMPORT_WAITING_FILES') : null;
  const technical = entry.error && entry.state !== 'done' && !waiting ? `${requestLine(entry)}\n${entry.error}` : null;

  return (
    <li className={`outbox-entry outbox-entry-${entry.state}`} aria-label={title} data-testid={`outbox-entry-${entry.id}`}>
      <div className="outbox-entry-head">
        <span className="outbox-entry-title">{title}</span>
        <span className={`badge outbox-state outbox-state-${entry.state}`}>{t(`OUTBOX_STATE_${entry.state.toUpperCase() as Uppercase<OutboxEntry['state']>}`)}</span>
      </div>
      {merged && entry.state === 'done' && <p className="outbox-entry-note">{merged}</p>}
      {group?.total !== undefined && entry.state === 'sending' && (
        <p className="outbox-entry-note">{t('OUTBOX_SENT_PROGRESS', { sent: group.sent ?? 0, total: group.total })}</p>
      )}
      <ul className="outbox-fields">
        {fields.map((f) => {
          const theirs = current.find((c) => c.ID === f.ID);
          return (
            <li key={f.ID}>
              <span className="outbox-field-name">{label(f.ID)}</span>: {conflict?.success ? t('OUTBOX_MINE', { value: shown(f, format(f.ID), locale, empty) }) : shown(f, format(f.ID), locale, empty)}
              {conflict?.success && theirs && <span className="outbox-theirs"> · {t('OUTBOX_THEIRS', { value: shown(theirs, format(f.ID), locale, empty) })}</span>}
            </li>
          );
        })}
      </ul>
      {failure ? (
        <p className="outbox-entry-error" role="alert">
          {merged ?? (failure.why ? `${failure.summary} ${failure.why}` : (serverWords ?? failure.summary))}
        </p>
      ) : (
        entry.state === 'conflict' &&
        entry.error && (
          <p className="outbox-entry-error" role="alert">
            {entry.error}
          </p>
        )
      )}
      {/* The request and the raw error are for whoever reports the problem, not the card's text. */}
      {technical && (
        <details className="outbox-entry-details">
          <summary>{t('OUTBOX_TECHNICAL_DETAILS')}</summary>
          <pre>{technical}</pre>
        </details>
      )}
      {waiting && <p className="outbox-entry-note">{waiting}</p>}
      {entry.state === 'queued' && entry.attempts > 0 && <p className="outbox-entry-note">{t('OUTBOX_ATTEMPTS', { count: entry.attempts })}</p>}
      {confirming ? (
        <div className="outbox-actions" role="group" aria-label={t('OUTBOX_DISCARD_CONFIRM')}>
          <span>{t('OUTBOX_DISCARD_CONFIRM')}</span>
          <button
            type="button"
            className="button"
            onClick={() => {
              setConfirming(false);
              void (entry.state === 'conflict' ? takeTheirs(seq) : discardEntry(seq));
            }}
          >
            {t('OUTBOX_DISCARD_YES')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('OUTBOX_CANCEL')}
          </button>
        </div>
      ) : (
        <div className="outbox-actions" role="group" aria-label={t('OUTBOX_ACTIONS_FOR', { what: title })}>
          {(entry.state === 'failed' || (entry.state === 'queued' && entry.attempts > 0)) && (
            <button type="button" className="button" onClick={() => void retryEntry(seq)}>
              {t('OUTBOX_RETRY')}
            </button>
          )}
          {entry.state === 'conflict' && (
            <>
              <button type="button" className="button button-primary" onClick={() => void keepMine(seq)}>
                {t('OUTBOX_KEEP_MINE')}
              </button>
              <button type="button" className="button" onClick={() => setConfirming(true)}>
                {t('OUTBOX_TAKE_THEIRS')}
              </button>
            </>
          )}
          {entry.state === 'failed' && canDiscard && (
            <button type="button" className="button" onClick={() => setConfirming(true)}>
              {t('OUTBOX_DISCARD')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
