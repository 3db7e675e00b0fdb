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

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The routes that write the catalogue (the console's, and the advanced links' writes, which have a
 * path of the user side): their answers are read after a fresh look. Other writes (an upload's
 * hundreds of chunks, index edits) take the number kept for a second.
 */
const CATALOGUE_WRITES = ['/api/admin/', '/api/AdvancedLinks/'];

export async function readCatalogueVersion(db: Queryable): Promise<string> {
  const r = await db.query<{ version: number | string }>('SELECT version FROM catalogue_version');
  return String(r.rows[0]?.version ?? 0);
}

/** The version, kept for `ttlMs`; `stale()` makes the next read go to the database. */
export class CatalogueVersion {
  private value: string | null = null;
  private readAt = 0;
  private reading: Promise<string> | null = null;
  /** Raised by stale(): a read begun before it neither answers after it nor is kept. */
  private generation = 0;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number,
    private readonly ttlMs = 1000,
  ) {}

  stale(): void {
    this.generation++;
    this.value = null;
    this.reading = null;
  }

  async current(): Promise<string> {
    if (this.value !== null && this.now() - this.readAt < this.ttlMs) return this.value;
    if (!this.reading) {
      const gen = this.generation;
      const started = this.now();
      const reading = readCatalogueVersion(this.db).then((v) => {
        if (gen === this.generation) {
          this.value = v;
          this.readAt = started;
        }
        return v;
      });
      this.reading = reading;
      void reading.then(
        () => this.reading === reading && (this.reading = null),
        () => this.reading === reading && (this.reading = null),
      );
    }
    return this.reading;
  }
}

export function installCatalogueVersion(app: FastifyInstance, version: CatalogueVersion): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.auth || !request.url.startsWith('/api')) return payload;
    // A catalogue write's own answer carries the number after it.
    if (!SAFE.has(request.method) && CATALOGUE_WRITES.some((p) => request.url.startsWith(p))) version.stale();
    try {
      reply.header(CATALOGUE_VERSION_HEADER, await version.current());
    } catch {
      // The answer goes out without it; the next one carries it.
    }
    return payload;
  });
}
