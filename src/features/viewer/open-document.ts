/**
 * Opening a document from a result page (the user-app spec §2): a viewer session of the page's documents
 * (so the viewer can go to the next and previous one), then the viewer in this window or in a new tab
 * (the user's openNewTab setting). The new tab is opened at once, while the click still counts as
 * the user's (a popup blocker allows it), and sent to the viewer when the session is there. Without a
 * session (it could not be made) the viewer opens anyway and makes one of the document alone.
 */
import { createViewerSession } from './api/viewer-session';
import { viewerPath } from './viewer-logic';

export interface OpenDocumentRequest {
  db: number;
  searchId: number;
  criteria: string;
  terms: readonly string[];
  doc: { id: number; hash: string; archiveId: number };
  page: readonly { id: number; hash: string; archiveId: number }[];
  newTab: boolean;
  navigate: (url: string) => void;
}

/** The search's terms as the viewer's `terms` parameter: phrases in quotes. */
export function termsParam(terms: readonly string[]): string {
  return terms.map((t) => (/\s/.test(t) ? `"${t.replace(/"/g, '')}"` : t)).join(' ');
}

export async function openDocument(r: OpenDocumentRequest): Promise<void> {
  const tab = r.newTab ? window.open('', '_blank') : null;
  if (tab) tab.opener = null;
  const terms = termsParam(r.terms);
  const page = r.page.some((d) => d.id === r.doc.id && d.archiveId === r.doc.archiveId) ? r.page : [r.doc];
  let session: string | undefined;
  try {
    session = await createViewerSession({
      Database: r.db,
      SearchId: r.searchId || null,
      SearchCriteria: r.criteria || null,
      Documents: page.map((d) => ({ Archive: d.archiveId, Id: d.id, Hash: d.hash, ContentSearchTerms: terms || undefined })),
    });
  } catch {
    session = undefined;
  }
  const url = viewerPath({ hash: r.doc.hash, archiveId: r.doc.archiveId, docId: r.doc.id, db: r.db, terms: terms || undefined, searchId: r.searchId || undefined, criteria: r.criteria || undefined, session });
  if (tab) tab.location.href = url;
  else r.navigate(url);
}
