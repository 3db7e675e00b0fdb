/**
 * Wipes the store and seeds it again: `npx tsx server/seed-cli.ts --docs N`.
 * Uses DATA_DIR (./data) or DATABASE_URL like the server. Stop the server first when it uses PGlite
 * (one process owns the data folder).
 */
import '../src/fields/regex-engine';
import { parseArgs } from 'node:util';
import { openStore, wipeStore } from './db/open.js';
import { FileStore } from './files/file-store.js';
import { DEFAULT_SEED_DOCS } from './app.js';
import { seed } from './seed/seed.js';

const { values } = parseArgs({ options: { docs: { type: 'string' } } });
const docs = Number(values.docs ?? DEFAULT_SEED_DOCS);
if (!Number.isInteger(docs) || docs < 0) {
  console.error('usage: tsx server/seed-cli.ts --docs N');
  process.exit(2);
}
const dataDir = process.env.DATA_DIR ?? './data';
const t0 = Date.now();
const store = await openStore({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
const files = FileStore.open(dataDir);
await wipeStore(store);
files.wipe();
const log = (msg: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);
log(`wiped (${store.kind}); seeding ${docs} documents`);
const result = await seed(store, files, { docs, now: Date.now, log });
await store.close();
log(`seeded ${result.docs} documents in ${(result.ms / 1000).toFixed(1)} s`);
