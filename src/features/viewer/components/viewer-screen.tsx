/**
 * /viewer/{documentHash}?archive=&Id=&db= (&terms, search, criteria, session): the document viewer.
 * The viewer session (src/api/viewer.ts) says what the document is (type, pages) and where it is among
 * the result page's documents. Opened from the grid, the address names the session already; opened
 * from an address without one, a session of this one document is made and its id put in the address
 * (so a reload reads it back). A document the user may not view, a missing one, no connection or a
 * server failure each say so in words.
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { createViewerSession, useViewerSession } from '../api/viewer-session';
import { documentTitle, parseTerms, parseViewerAddress, placeInSession, problemOf, viewerPath } from '../viewer-logic';
import { DocumentView } from './document-view';
import { IndexerLayout, type ViewerIndexer } from './indexer-dock';
import { ViewerProblemView } from './viewer-problem';
import { PinBadge } from '../pins/pin-badge';
import { useLocalSession, useRefreshPin } from '../pins/pinned-viewer';
import '../viewer.css';

export function ViewerScreen(props: { baseUrl: string; /** The indexer panel beside the pages (composed in by the route). */ Indexer?: ViewerIndexer }) {
  const { t } = useTranslation();
  const { documentHash } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const scope = sessionScope(useSession());
  const address = useMemo(() => parseViewerAddress(documentHash, params), [documentHash, params]);
  const [attempt, setAttempt] = useState(0);
  const queryClient = useQueryClient();

  // No session in the address: one of this document alone (it also checks the right to view it).
  const single = useQuery({
    queryKey: ['viewer-session-new', scope, address?.db, address?.archiveId, address?.docId, address?.hash, attempt],
    queryFn: ({ signal }) =>
      createViewerSession({ Database: address!.db, Documents: [{ Archive: address!.archiveId, Id: address!.docId, Hash: address!.hash }] }, signal),
    enabled: scope !== null && address !== null && !address.session,
    staleTime: Infinity,
    retry: false,
    meta: { handlesOwnErrors: true, persist: false },
  });
  useEffect(() => {
    if (!single.data || address?.session) return;
    const next = new URLSearchParams(params);
    next.set('session', single.data);
    setParams(next, { replace: true });
  }, [single.data, address?.session, params, setParams]);

  const session = useViewerSession(scope, address?.session);
  // No connection and the document kept on this device: a session of it alone, from the device.
  const local = useLocalSession(address, address?.session ? session : single);
  // The session is read again whenever the viewer opens: a kept copy (persisted with the other
  // queries) can name pages from before a rotate or a burst, and its Version keys the page images.
  // Without a connection (the call waits, or fails for want of one) the kept copy is what there is.
  const sessionFresh = session.isFetchedAfterMount || session.fetchStatus === 'paused';
  const keptWhileOffline = session.data !== undefined && session.error !== null && problemOf(session.error) === 'offline';
  const sessionData = local.session ?? (sessionFresh ? session.data : undefined);
  const docs = sessionData?.Documents;
  const place = useMemo(() => (docs && address ? placeInSession(docs, address.docId, address.archiveId) : null), [docs, address]);

  // A session that does not hold this document (an edited address), or one the server does not know
  // (another user's, or gone): one of this document alone instead.
  const sessionUnknown = !local.session && session.error !== null && problemOf(session.error) === 'missing';
  useEffect(() => {
    if (((place && place.index < 0) || sessionUnknown) && address?.session) {
      // A one-document session made earlier in this tab may be the unknown one: make a new one.
      queryClient.removeQueries({ queryKey: ['viewer-session-new'] });
      const next = new URLSearchParams(params);
      next.delete('session');
      setParams(next, { replace: true });
    }
  }, [place, sessionUnknown, address?.session, params, setParams, queryClient]);

  const doc = place && place.index >= 0 ? docs![place.index]! : null;
  useRefreshPin(local.session ? undefined : session.data?.Database, doc, local.pin);
  const terms = useMemo(() => parseTerms(address?.terms ?? doc?.ContentSearchTerms), [address?.terms, doc?.ContentSearchTerms]);

  // The tab's title names the document while it is shown; the page's own title comes back after.
  useEffect(() => {
    const before = document.title;
    const name = doc ? documentTitle(doc) : '';
    document.title = name ? `${name} – ${t('VIEWER_TITLE')}` : t('VIEWER_TITLE');
    return () => {
      document.title = before;
    };
  }, [doc, t]);

  // Next and previous replace the address, so Back (the toolbar's, the browser's) returns to where
  // the viewer was opened from (the results), not through every document seen.
  const go = (d: { Id: number; Archive: number; Hash: string } | null) =>
    d && address ? () => void navigate(viewerPath({ ...address, hash: d.Hash, archiveId: d.Archive, docId: d.Id }), { replace: true }) : null;
  // React Router numbers its history entries: one before this means the viewer was opened from the app.
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

  let content;
  const error = local.session ? null : (single.error ?? (sessionUnknown || keptWhileOffline ? null : session.error) ?? local.error);
  if (!address) content = <ViewerProblemView problem="address" />;
  else if (error)
    content = (
      <ViewerProblemView
        problem={problemOf(error)}
        onRetry={() => {
          setAttempt((a) => a + 1);
          void session.refetch();
        }}
      />
    );
  else if (doc && !doc.Available) content = <ViewerProblemView problem="missing" />;
  else if (doc && place && sessionData)
    content = (
      <IndexerLayout key={`${doc.Archive}:${doc.Id}`} Indexer={props.Indexer} db={address.db} doc={doc}>
        {(dock) => (
      <DocumentView
        indexer={dock}
        db={sessionData.Database}
        doc={doc}
        terms={terms}
        baseUrl={props.baseUrl}
        place={{ index: place.index, count: place.count, onPrevious: go(place.previous), onNext: go(place.next) }}
        onBack={canGoBack ? () => void navigate(-1) : null}
      />
        )}
      </IndexerLayout>
    );
  else content = <p className="viewer-loading" role="status">{t('VIEWER_LOADING')}</p>;

  return (
    <section className="page viewer-screen" aria-label={t('VIEWER_TITLE')}>
      <PinBadge pin={local.pin} local={local.session !== null} />
      {content}
    </section>
  );
}
