/**
 * The view route with ImportDoc (the archive-ops spec §2, §4): the import document a burst made,
 * indexed into an archive. Query: db, ImportDoc, RequestedPages (repeated), deleteBurstedPages, ogArchive
 * and ogDoc (the source), fromIndexer. Its pages are shown as the server renders them; the archive
 * choice for bursting (a modal the route hands in: the inbox's send-to-archive form, so the archive
 * list, the fields and their rules are the same) opens at once and again from the page. Saving makes
 * the document (and, with deleteBurstedPages, takes the pages from the source); a refusal is said in
 * words and the choice can be made again. The choice is docked beside the pages (below them on a
 * portrait screen), so the pages being indexed stay in view while their values are typed. Saved online while the user waits: the import document lives
 * on the server, so there is nothing to do offline.
 */
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { BURST_KEYS, dropImportDoc, importDocThumbUrl, indexImportDoc, type BurstIndexed } from '../../../api/burst';
import { errorText } from '../../../api/error-handler';
import { isApiError } from '../../../api/api-error';
import { getToken, sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { viewerPath } from '../viewer-logic';
import './burst.css';

/** What the archive choice hands back: the archive and the values in wire form, checked by the field rules. */
export interface ArchiveChoiceValues {
  archiveId: number;
  archiveName: string;
  fields: { ID: number; VAL: string; MVAL?: string[] }[];
}

export interface ArchiveChoiceProps {
  open: boolean;
  db: number;
  scope: string | null;
  fileNames: readonly string[];
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSend: (v: ArchiveChoiceValues) => void;
}

type State = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; done: BurstIndexed; archive: string } | { kind: 'dropped' } | { kind: 'problem'; text: string };

const positive = (v: string | null) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : 0);

export function BurstIndexScreen(props: { baseUrl: string; ArchiveChoice: ComponentType<ArchiveChoiceProps> }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const scope = sessionScope(useSession());
  const db = positive(params.get('db'));
  const importDoc = params.get('ImportDoc') ?? '';
  const pages = params.getAll('RequestedPages').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const deletePages = params.get('deleteBurstedPages') === 'true';
  const ogDoc = positive(params.get('ogDoc'));
  const [choosing, setChoosing] = useState(true);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const { ArchiveChoice } = props;

  const save = async (v: ArchiveChoiceValues) => {
    setChoosing(false);
    setState({ kind: 'saving' });
    try {
      const out = await indexImportDoc({ importDoc, db, archiveId: v.archiveId, deletePages, fields: v.fields, key: crypto.randomUUID() });
      if (out.ok) setState({ kind: 'saved', done: out.indexed, archive: v.archiveName });
      else setState({ kind: 'problem', text: t('BURST_VALUES_REFUSED', { message: out.refused.Message }) });
    } catch (e) {
      const key = isApiError(e) ? e.key : undefined;
      const text =
        key === BURST_KEYS.removeAll ? t(BURST_KEYS.removeAll) : isApiError(e) && e.status === 404 && key === 'FILE_DOES_NOT_EXIST' ? t('BURST_IMPORT_MISSING') : errorText(e);
      setState({ kind: 'problem', text });
    }
  };

  const drop = async () => {
    try {
      await dropImportDoc(importDoc);
      setState({ kind: 'dropped' });
    } catch (e) {
      setState({ kind: 'problem', text: isApiError(e) && e.status === 404 ? t('BURST_IMPORT_MISSING') : errorText(e) });
    }
  };

  if (!db || !importDoc) {
    return (
      <p role="alert" className="burst-problem">
        {t('BURST_ADDRESS_INVALID')}
      </p>
    );
  }
  const finished = state.kind === 'saved' || state.kind === 'dropped';
  const busy = state.kind === 'saving';
  const choiceOpen = choosing && !finished && !busy;

  return (
    <section className="page burst-index" aria-labelledby="burst-index-title" aria-busy={busy}>
      {/* The archive choice is docked beside the pages (below them in portrait), never over them. */}
      <div className={choiceOpen ? 'burst-index-body burst-index-choosing' : 'burst-index-body'}>
        <div className="burst-index-main">
          <h1 id="burst-index-title">{t('BURST_INDEX_TITLE')}</h1>
          <p>{t('BURST_INDEX_SUMMARY', { pages: pages.join(', '), doc: ogDoc, count: pages.length })}</p>
          <p>{deletePages ? t('BURST_INDEX_WILL_REMOVE', { doc: ogDoc }) : t('BURST_INDEX_KEEPS', { doc: ogDoc })}</p>
          {busy && <p role="status">{t('BURST_SAVING')}</p>}
          {state.kind === 'problem' && (
            <p role="alert" className="burst-problem">
              {state.text}
            </p>
          )}
          {state.kind === 'saved' && (
            <div role="status" className="burst-saved">
              <p>{t('BURST_SAVED', { id: state.done.DocID, archive: state.archive, count: state.done.Pages })}</p>
              <Link className="button button-primary" to={viewerPath({ hash: state.done.Hash, archiveId: state.done.ArchiveID, docId: state.done.DocID, db })}>
                {t('BURST_OPEN_NEW')}
              </Link>
            </div>
          )}
          {state.kind === 'dropped' && <p role="status">{t('BURST_DISCARDED')}</p>}
          {!finished && (
            <div className="burst-actions">
              <button type="button" className="button button-primary" onClick={() => setChoosing(true)} disabled={busy}>
                {t('BURST_CHOOSE_ARCHIVE')}
              </button>
              <button type="button" className="button" onClick={() => void drop()} disabled={busy}>
                {t('BURST_DISCARD')}
              </button>
            </div>
          )}
          {state.kind !== 'dropped' && (
            <ol className="burst-index-pages" aria-label={t('BURST_INDEX_PAGES')}>
              {pages.map((source, i) => (
                <li key={i}>
                  <img
                    src={importDocThumbUrl({ baseUrl: props.baseUrl, token: getToken(), importDoc, page: i + 1, width: 300 })}
                    alt={t('BURST_PAGE_FROM', { n: i + 1, count: pages.length, source })}
                    width={300}
                    loading="lazy"
                  />
                </li>
              ))}
            </ol>
          )}
        </div>
        <ArchiveChoice
          open={choiceOpen}
          db={db}
          scope={scope}
          fileNames={[t('BURST_INDEX_NAME', { count: pages.length })]}
          title={t('BURST_ARCHIVE_CHOICE')}
          submitLabel={t('BURST_SAVE')}
          onClose={() => setChoosing(false)}
          onSend={(v) => void save(v)}
        />
      </div>
    </section>
  );
}
