/**
 * TanStack Query's persisted cache, stored in the Dexie `queryCache` table (one record), so that
 * everything the app keeps lives in IndexedDB and small metadata (databases, searches, fields,
 * lists) is there offline. Which queries are kept is decided by the app (shouldPersistQuery).
 */
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { db } from '../db/db';

export const dexieQueryStorage = {
  getItem: async (key: string): Promise<string | null> => (await db.queryCache.get(key))?.value ?? null,
  setItem: async (key: string, value: string): Promise<void> => {
    await db.queryCache.put({ key, value });
  },
  removeItem: async (key: string): Promise<void> => {
    await db.queryCache.delete(key);
  },
};

export const queryPersister = createAsyncStoragePersister({
  storage: dexieQueryStorage,
  key: 'archive-query-cache',
  // Short: a reload soon after an answer must still find it on the device. The persisted state is
  // small (metadata; grid pages live in their own table), so frequent writes are cheap.
  throttleTime: 200,
});
