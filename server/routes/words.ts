/**
 * Key-free extraction's words (the archive-ops spec §7 "key-free page word extraction"; contract
 * src/api/words.ts):
 *   GET api/dbs/{db}/archives/{a}/documents/{id}/words?SecureId=&Page= -> PageWords
 * View right (archive bit 1) and the document's Hash, as for its thumbnails. The work is in
 * services/words.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { PageWords } from '../../src/api/words.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { loadDocument } from '../services/documents.js';
import type { PageWordsService } from '../services/words.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id, archiveId: Id, docId: Id });
const Query = z.looseObject({
  SecureId: z.string().min(1),
  Page: z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.coerce.number().int().min(1).max(100_000).optional()),
});

export function wordsRoutes(app: FastifyInstance, ctx: ServerContext, words: PageWordsService) {
  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/words', async (request, reply) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = Params.parse(request.params);
    const q = Query.parse(request.query ?? {});
    await loadDocument(ctx.store, auth.userId, db, archiveId, docId, q.SecureId, ARCHIVE_PERMISSIONS.view);
    const answer = PageWords.parse(await words.pageWords(docId, q.Page ?? 1));
    return reply.header('Cache-Control', 'private, no-cache').send(answer);
  });
}
