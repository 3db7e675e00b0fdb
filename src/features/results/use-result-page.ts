import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { PAGE_DEBOUNCE_MS } from '../../api/constants';
import { isApiError } from '../../api/api-error';
import { db as appDb, type CachedPage } from '../../db/db';
import { useOnline } from '../../ui/offline-indicator';
import { createCoalescer } from './debounce';
import { fetchAndCachePage, type DocumentsRequest } from './api/get-documents';
import { pageKey, readPage, searchGridKey, touchPage, type PageKeyParts } from './page-cache';

/**
 * One page of a search grid, offline-first: the record is read from the Dexie page cache at once
 * (useLiveQuery) and revalidated from the server (TanStack Query, page requests coalesced over 1 s);
 * the server's answer is written to the cache and the live query re-renders. Offline, or when the
 * server cannot be reached, the cached record stays on screen and `offline` is true.
 */
/**
 * The last few page records in memory, with their neighbours read ahead from Dexie after a page is
 * shown: a pager click then swaps rows without waiting for IndexedDB (a 10,000-row record takes
 * ~80-130 ms to read). Same record (same fetchedAt) keeps the same object, so nothing re-renders.
 */
const MEMORY_PAGES = 4;
const memory = new Map<string, CachedPage>();
function remember(rec: CachedPage) {
  memory.delete(rec.key);
  memory.set(rec.key, rec);
  while (memory.size > MEMORY_PAGES) memory.delete(memory.keys().next().value as string);
}

export interface ResultPageInput extends DocumentsRequest {
  scope: string | null;
  enabled: boolean;
}

export function useResultPage(input: ResultPageInput) {
  const { scope, enabled, ...req } = input;
  const parts: PageKeyParts = useMemo(
    () => ({ db: req.db, gridKey: searchGridKey(req.searchId, req.archiveId), criteria: req.criteria, sort: req.sort, tab: req.tab, pageSize: req.pageSize, page: req.page }),
    [req.db, req.searchId, req.archiveId, req.criteria, req.sort, req.tab, req.pageSize, req.page],
  );
  const key = pageKey(parts);

  const live = useLiveQuery(async () => {
    performance.mark('page-read-start');
    const record = await readPage(appDb, key, memory.get(key));
    performance.mark('page-read-end');
    return { key, record: record ?? null };
  }, [key]);
  const held = memory.get(key);
  let record: CachedPage | null | undefined;
  if (live?.key === key) record = live.record && held && held.fetchedAt === live.record.fetchedAt ? held : live.record;
  else record = held;

  useEffect(() => {
    if (!record) return;
    remember(record);
    const neighbours = [parts.page + 1, parts.page - 1].filter((p) => p >= 1).map((p) => pageKey({ ...parts, page: p }));
    const id = setTimeout(() => {
      for (const k of neighbours) {
        if (memory.has(k)) continue;
        void readPage(appDb, k)
          .then((r) => {
            if (r) remember(r);
          })
          .catch(() => undefined);
      }
    }, 50);
    return () => clearTimeout(id);
  }, [record, parts]);

  // Server requests: the first at once, then coalesced while the user keeps clicking.
  // `sent` counts the requests: the same page asked again (1 -> 2 -> 1 within the debounce) is
  // revalidated again, though its query key did not change.
  type Requested = { key: string; parts: PageKeyParts; req: DocumentsRequest; sent: number };
  const [requested, setRequested] = useState<Requested | null>(null);
  const coalescer = useRef(createCoalescer<Omit<Requested, 'sent'>>((v) => setRequested((prev) => ({ ...v, sent: (prev?.sent ?? 0) + 1 })), PAGE_DEBOUNCE_MS));
  const request: DocumentsRequest = useMemo(
    () => ({ db: parts.db, searchId: req.searchId, archiveId: req.archiveId, criteria: parts.criteria, sort: parts.sort, tab: parts.tab, pageSize: parts.pageSize, page: parts.page }),
    [parts, req.searchId, req.archiveId],
  );
  useEffect(() => {
    if (enabled) coalescer.current.request({ key, parts, req: request });
  }, [enabled, key, parts, request]);
  useEffect(() => {
    const c = coalescer.current;
    return () => c.cancel();
  }, []);

  const online = useOnline();
  const query = useQuery({
    queryKey: ['results-page', scope, requested?.key ?? ''],
    queryFn: ({ signal }) => fetchAndCachePage(requested!.req, requested!.parts, signal),
    enabled: !!requested && scope !== null && online,
    retry: false,
    staleTime: 0,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    meta: { handlesOwnErrors: true, persist: false },
  });

  const { refetch } = query;
  const lastSent = useRef<Requested | null>(null);
  useEffect(() => {
    const prev = lastSent.current;
    lastSent.current = requested;
    if (requested && prev && prev.key === requested.key && prev.sent !== requested.sent && online && scope !== null) void refetch();
  }, [requested, online, scope, refetch]);

  const current = requested?.key === key;
  const error = current && query.isError ? query.error : null;
  const networkFailed = !!error && isApiError(error) && error.kind === 'network';
  const offline = !online || networkFailed;

  // A page shown from the cache while offline still counts as used (LRU), once per minute at most.
  useEffect(() => {
    if (record && offline && Date.now() - record.lastUsed > 60_000) void touchPage(appDb, record.key).catch(() => undefined);
  }, [record, offline]);

  const reload = useCallback(() => {
    if (requested?.key === key) void refetch();
    else coalescer.current.flush();
  }, [refetch, requested?.key, key]);

  return {
    key,
    /** The cached record (null: none cached; undefined: still reading the cache). */
    record,
    fetching: current && query.isFetching,
    /** Server answered for this key at least once in this visit. */
    fresh: current && query.isSuccess,
    error: networkFailed ? null : error,
    offline,
    reload,
  };
}
