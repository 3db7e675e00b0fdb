/**
 * The catalogue version (migration 017) on every authenticated API answer, in the
 * Catalogue-Version header: a device that keeps archive fields, lists, searches and the like for
 * minutes reads them again as soon as one of its calls shows the number changed (issue 13 item 7;
 * the app's side is src/api/catalogue-version.ts).
 *
 * Read from the database at most once a second (another server process on the same PostgreSQL may
 * have changed it), and again at once after a catalogue write this process answered, so the answer
 * to the console's own change already carries the new number.
 */
import type { FastifyInstance } from 'fastify';
import { CATALOGUE_VERSION_HEADER } from '../../src/api/errors.js';
import type { Queryable } from '../db/store.js';
import { catalogueVersion } from '../search/data-version.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The routes that write the catalogue (the console's, and the advanced links' writes, which have a
 * path of the user side): their answers are read after a fresh look. Other writes (an upload's
 * hundreds of chunks, index edits) take the number kept for a second.
 */
const CATALOGUE_WRITES = ['/api/admin/', '/api/AdvancedLinks/'];

/** The version, kept for `ttlMs`; `current(true)` reads it afresh. */
export class CatalogueVersion {
  private kept: { value: string; at: number } | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
    private readonly ttlMs = 1000,
  ) {}

  async current(fresh = false): Promise<string> {
    const k = this.kept;
    if (!fresh && k && this.now() - k.at < this.ttlMs) return k.value;
    const at = this.now();
    const value = await catalogueVersion(this.db);
    // A read begun earlier and answered later does not replace a newer one.
    if (!this.kept || this.kept.at <= at) this.kept = { value, at };
    return value;
  }
}

export function installCatalogueVersion(app: FastifyInstance, version: CatalogueVersion): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.auth || !request.url.startsWith('/api')) return payload;
    // A catalogue write's own answer carries the number after it.
    const fresh = !SAFE.has(request.method) && CATALOGUE_WRITES.some((p) => request.url.startsWith(p));
    try {
      reply.header(CATALOGUE_VERSION_HEADER, await version.current(fresh));
    } catch {
      // The answer goes out without it; the next one carries it.
    }
    return payload;
  });
}
