/**
 * The offline page cache of the results grid (docs/architecture.md "Reads").
 *
 * What is stored where: Dexie `pages`, one record per grid page (never one per row), keyed by
 * `${db}|${gridKey}|${criteriaHash}|${sort}|${tab}|${pageSize}|${page}`; `data` is the ResultSet as
 * the contract parsed it, its Docs packed into columns (packed-page.ts: one IndexedDB read of a
 * 10,000-row page then rebuilds a few columns instead of ~110,000 small objects), with when it was fetched (`fetchedAt`), when it was last shown
 * (`lastUsed`) and its estimated size (`bytes`). The grid paints from here first (useLiveQuery) and
 * the server answer is written back here. The total is kept under PAGE_CACHE_LIMIT_BYTES by
 * evicting least-recently-used pages, read from the [lastUsed+bytes] index so no page body is loaded.
 * No token ever enters a key or a record.
 */
import { estimatePageBytes, type ArchiveDb, type CachedPage } from '../../db/db';
import { packPageData, unpackPageData } from './packed-page';

/** Cache limit, estimated by `bytes` (UTF-16 JSON length). */
export const PAGE_CACHE_LIMIT_BYTES = 200 * 1024 * 1024;

export interface PageKeyParts {
  db: number;
  /** `search|${searchId}|${archiveId}` for search grids. */
  gridKey: string;
  criteria: string;
  sort: string;
  tab: number | null;
  pageSize: number;
  page: number;
}

/** cyrb53: a fast 53-bit string hash, enough to tell criteria apart in a key. */
export function hashString(s: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

export function searchGridKey(searchId: number, archiveId: number): string {
  return `search|${searchId}|${archiveId}`;
}

export function pageKey(p: PageKeyParts): string {
  return `${p.db}|${p.gridKey}|${hashString(p.criteria)}|${p.sort}|${p.tab ?? ''}|${p.pageSize}|${p.page}`;
}

/**
 * Reads one page (no side effects: safe inside a live query), its `data` as the ResultSet (Docs as
 * PackedDoc views; records stored before packing are returned as they are). A record that cannot be
 * read back counts as not cached: the server's answer overwrites it. `known`, the same page read
 * before, is returned as it is when the stored page is still that fetch (same fetchedAt): a live
 * query that re-reads a shown page then unpacks nothing (a 10,000-row page costs ~10-20 ms).
 */
export async function readPage(db: ArchiveDb, key: string, known?: CachedPage): Promise<CachedPage | undefined> {
  const rec = await db.pages.get(key);
  if (!rec) return undefined;
  if (known && known.key === rec.key && known.fetchedAt === rec.fetchedAt) return known;
  try {
    return { ...rec, data: unpackPageData(rec.data) };
  } catch {
    return undefined;
  }
}

/** Marks a page as just used (for LRU), without touching its data. */
export async function touchPage(db: ArchiveDb, key: string, now = Date.now()): Promise<void> {
  await db.pages.update(key, { lastUsed: now });
}

/**
 * Stores a fetched page and keeps the cache under its limit. Returns the keys evicted.
 * `bytes` may be given when known (e.g. the response's text length); otherwise it is estimated.
 */
export async function writePage(
  db: ArchiveDb,
  parts: PageKeyParts,
  data: unknown,
  opts: { now?: number; bytes?: number; limitBytes?: number } = {},
): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const key = pageKey(parts);
  const rec: CachedPage = {
    key,
    gridKey: parts.gridKey,
    page: parts.page,
    pageSize: parts.pageSize,
    data: packPageData(data),
    fetchedAt: now,
    lastUsed: now,
    bytes: opts.bytes ?? estimatePageBytes(data),
  };
  await db.pages.put(rec);
  return evictPages(db, opts.limitBytes ?? PAGE_CACHE_LIMIT_BYTES, key);
}

/** Total estimated size of the cache, from the index alone. */
export async function cacheBytes(db: ArchiveDb): Promise<number> {
  const keys = (await db.pages.orderBy('[lastUsed+bytes]').keys()) as unknown as [number, number][];
  return keys.reduce((sum, k) => sum + (k[1] ?? 0), 0);
}

/**
 * Deletes least-recently-used pages until the total is at most `limitBytes`. `keep` (the page just
 * written or shown) is never evicted. Returns the evicted keys.
 */
export async function evictPages(db: ArchiveDb, limitBytes: number, keep?: string): Promise<string[]> {
  return db.transaction('rw', db.pages, async () => {
    const coll = db.pages.orderBy('[lastUsed+bytes]');
    const idx = (await coll.keys()) as unknown as [number, number][];
    const pks = (await db.pages.orderBy('[lastUsed+bytes]').primaryKeys()) as string[];
    let total = idx.reduce((sum, k) => sum + (k[1] ?? 0), 0);
    const evicted: string[] = [];
    for (let i = 0; i < pks.length && total > limitBytes; i++) {
      const pk = pks[i]!;
      if (pk === keep) continue;
      evicted.push(pk);
      total -= idx[i]?.[1] ?? 0;
    }
    if (evicted.length) await db.pages.bulkDelete(evicted);
    return evicted;
  });
}

/** Drops every cached page of one grid (e.g. when its stored state was discarded). */
export async function clearGridPages(db: ArchiveDb, gridKey: string): Promise<number> {
  return db.pages.where('gridKey').equals(gridKey).delete();
}

/**
 * Drops the cached pages of every search grid showing one of `archiveIds` (grid keys end with the
 * archive: searchGridKey), except `keep` (the page on screen, revalidated instead). Used when a job
 * changed those archives: offline, a stale page would show documents that are gone.
 */
export async function clearArchivePages(db: ArchiveDb, archiveIds: readonly number[], keep?: string): Promise<number> {
  if (archiveIds.length === 0) return 0;
  const suffixes = archiveIds.map((a) => `|${a}`);
  const gridKeys = ((await db.pages.orderBy('gridKey').uniqueKeys()) as string[]).filter((g) => g.startsWith('search|') && suffixes.some((x) => g.endsWith(x)));
  if (gridKeys.length === 0) return 0;
  const keys = ((await db.pages.where('gridKey').anyOf(gridKeys).primaryKeys()) as string[]).filter((k) => k !== keep);
  await db.pages.bulkDelete(keys);
  return keys.length;
}

/** What the grid shows for a page, given the cache record and the state of the connection. */
export type PageAvailability =
  | { state: 'cached'; record: CachedPage; offline: boolean }
  | { state: 'loading' }
  | { state: 'unavailableOffline' };

/**
 * Offline lookup: a cached page is shown whatever the connection (with the "offline — data from"
 * notice when offline or the server cannot be reached); with no cached page, offline means "not
 * available offline", online means it is still loading.
 */
export function pageAvailability(record: CachedPage | undefined, offline: boolean): PageAvailability {
  if (record) return { state: 'cached', record, offline };
  return offline ? { state: 'unavailableOffline' } : { state: 'loading' };
}

let persistAsked = false;
/** Asks once per app run for persistent storage, so the browser does not evict the cache. */
export async function requestPersistentStorage(storage: Pick<StorageManager, 'persist' | 'persisted'> | undefined = globalThis.navigator?.storage): Promise<boolean> {
  if (persistAsked || !storage?.persist) return false;
  persistAsked = true;
  try {
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
/** For tests. */
export function resetPersistRequestForTests(): void {
  persistAsked = false;
}
