/**
 * The burst action of the thumbnail strip (the archive-ops spec §4 "Burst", §5 refusals): the pages
 * the user ticked, the choice to remove them from this document, and Burst. Every refusal is said in
 * the user's language before anything is sent (the server refuses the same, src/api/burst.ts). While
 * the server makes the import document the panel is busy (the spec's "flag"): Burst cannot be pressed
 * twice. Then the import document opens through the view route to be indexed into an archive.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { BURST_KEYS, burstIndexPath, burstPages, burstRefusal, requestBurst, type BurstKey, type BurstSource } from '../../../api/burst';
import { errorText } from '../../../api/error-handler';
import { isApiError } from '../../../api/api-error';
import './burst.css';

export interface BurstDocument extends BurstSource {
  fileType: string | null | undefined;
  pages: number;
}

const isBurstKey = (k: string | undefined): k is BurstKey => (Object.values(BURST_KEYS) as string[]).includes(k ?? '');

export function BurstPanel(props: { doc: BurstDocument; selected: ReadonlySet<number>; disabledReason: string | null; onClear: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [deletePages, setDeletePages] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pages = burstPages(props.selected);

  const burst = async () => {
    setProblem(null);
    if (props.disabledReason) return setProblem(props.disabledReason);
    const refused = burstRefusal({ documents: 1, fileType: props.doc.fileType, pages, total: props.doc.pages, deletePages });
    if (refused) return setProblem(t(refused));
    setBusy(true);
    try {
      const a = await requestBurst(props.doc, pages, deletePages);
      void navigate(burstIndexPath({ db: props.doc.db, importDoc: a.ImportDoc, pages: a.RequestedPages, deletePages, ogArchive: props.doc.archiveId, ogDoc: props.doc.docId }));
    } catch (e) {
      setBusy(false);
      setProblem(isApiError(e) && isBurstKey(e.key) ? t(e.key) : errorText(e));
    }
  };

  return (
    <div className="burst-panel" role="group" aria-label={t('BURST_TITLE')} aria-busy={busy}>
      <p className="burst-count" role="status">
        {t('BURST_SELECTED', { count: pages.length })}
      </p>
      <label className="burst-option" htmlFor={`${id}-delete`}>
        <input id={`${id}-delete`} type="checkbox" checked={deletePages} onChange={(e) => setDeletePages(e.target.checked)} disabled={busy} />
        {t('BURST_DELETE_PAGES')}
      </label>
      <div className="burst-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => void burst()}
          aria-disabled={busy || props.disabledReason !== null}
          aria-describedby={props.disabledReason ? `${id}-why` : undefined}
          disabled={busy}
        >
          {busy ? t('BURST_BUSY') : t('BURST')}
        </button>
        <button type="button" className="button" onClick={props.onClear} disabled={busy || pages.length === 0}>
          {t('BURST_CLEAR')}
        </button>
      </div>
      {props.disabledReason && (
        <p id={`${id}-why`} className="burst-reason">
          {props.disabledReason}
        </p>
      )}
      {problem && (
        <p className="burst-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
