import { apiRequest } from '../../../api/http';
import { DocumentPage, searchPaths } from '../../../api/search';
import { db as appDb, type ArchiveDb } from '../../../db/db';
import { writePage, type PageKeyParts } from '../page-cache';

/**
 * GET api/dbs/{db}/searches/{searchId}/archive/{archiveId}/documents: one page of results. The
 * answer is parsed by the contract and written into the page cache; the grid reads it from there.
 */
export interface DocumentsRequest {
  db: number;
  searchId: number;
  archiveId: number;
  page: number;
  pageSize: number;
  criteria: string;
  /** Server sort parameter (grid-logic buildSortParam); '' for none. */
  sort: string;
  tab: number | null;
}

export function getDocumentsPage(r: DocumentsRequest, signal?: AbortSignal): Promise<DocumentPage> {
  return apiRequest({
    path: searchPaths.documents(r.db, r.searchId, r.archiveId),
    query: {
      page: r.page,
      RecordsPerPage: r.pageSize,
      SearchCriteria: r.criteria || undefined,
      sort: r.sort || undefined,
      tabID: r.tab ?? undefined,
      Count: true,
    },
    schema: DocumentPage,
    signal,
  });
}

/** Fetches a page and stores it; resolves with the cache record's fetch time. */
export async function fetchAndCachePage(r: DocumentsRequest, parts: PageKeyParts, signal?: AbortSignal, database: ArchiveDb = appDb): Promise<{ fetchedAt: number; rows: number; count: number }> {
  const data = await getDocumentsPage(r, signal);
  const now = Date.now();
  await writePage(database, parts, data, { now });
  return { fetchedAt: now, rows: data.Docs?.length ?? 0, count: data.Count };
}
