/**
 * Merge and append (the archive-ops spec §7; the contract: src/api/documents.ts MergeRequest):
 *   POST api/dbs/{db}/merge  body MergeRequest -> 200 MergeAnswer
 * The work is done by services/merge.ts, synchronously: a merge of a few documents takes well under a
 * second. Writes pass the Idempotency-Key middleware like every POST.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MergeRequest } from '../../src/api/documents.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { mergeDocuments } from '../services/merge.js';

const Params = z.object({ db: z.coerce.number().int().positive().max(2_147_483_647) });

export function mergeRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.post('/api/dbs/:db/merge', async (request) => {
    const auth = requireAuth(request);
    const { db } = Params.parse(request.params);
    const body = MergeRequest.safeParse(request.body);
    if (!body.success) throw Errors.badRequest(`Incorrect merge object: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
    return mergeDocuments({ store: ctx.store, files: ctx.files, now: new Date(ctx.clock.now()) }, db, { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType }, body.data);
  });
}
