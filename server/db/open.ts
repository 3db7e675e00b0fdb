import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPg } from './pg-store.js';
import { openPglite } from './pglite-store.js';
import { migrate } from './migrate.js';
import { prepareFieldSearch } from '../search/field-counts.js';
import type { Store } from './store.js';

export function isMemoryDir(dataDir: string | undefined): boolean {
  return !dataDir || dataDir.startsWith('memory://');
}

/**
 * Opens the store (PGlite in `${dataDir}/pg`, or in memory, or PostgreSQL at databaseUrl) and
 * migrates it. `snapshot` (a Store.snapshot(), in memory only) is the database to start from.
 */
export async function openStore(opts: { dataDir?: string; databaseUrl?: string; snapshot?: Uint8Array }): Promise<Store> {
  let store: Store;
  if (opts.databaseUrl) store = await openPg(opts.databaseUrl);
  else if (isMemoryDir(opts.dataDir)) store = await openPglite('memory://', undefined, opts.snapshot);
  else {
    const dir = join(opts.dataDir as string, 'pg');
    mkdirSync(dir, { recursive: true });
    store = await openPglite(dir);
  }
  try {
    await migrate(store);
    // Sort indexes a migration or a new archive field left missing (one statement each), and the
    // counts of fields newly filtered on by lists or view tabs.
    await prepareFieldSearch(store);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}

/** Drops everything (seed-cli --docs N starts from nothing) and migrates again. */
export async function wipeStore(store: Store): Promise<void> {
  await store.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  await migrate(store);
}
