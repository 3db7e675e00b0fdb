/**
 * Chunked uploads (the user-app spec §7 "POST upload, upload/chunk; GET upload"; the contract:
 * src/api/upload.ts; the work: services/upload.ts):
 *   POST api/upload                 UploadStart (JSON, with its Idempotency-Key) -> UploadState
 *   POST api/upload/chunk?JobID=&Index=   the chunk's bytes (application/octet-stream) -> UploadState
 *   GET  api/upload?JobID=                                                        -> UploadState
 * The read-only licence is refused by the app's hook before these run (no POST at all).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UPLOAD_CHUNK_SIZE, UPLOAD_KEYS, UploadStart, uploadPaths } from '../../src/api/upload.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { Uploads, getUpload, startUpload, type UploadLimits } from '../services/upload.js';

const JobID = z.string().min(1).max(64);
const ChunkQuery = z.looseObject({ JobID, Index: z.coerce.number().int().nonnegative().max(2_147_483_647) });
const GetQuery = z.looseObject({ JobID });

export function uploadRoutes(app: FastifyInstance, ctx: ServerContext, limits: UploadLimits) {
  const deps = { store: ctx.store, files: ctx.files, now: () => ctx.clock.now(), limits };
  const uploads = new Uploads(deps);
  app.addHook('onClose', async () => {
    await uploads.close();
  });
  const actorOf = (request: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };

  app.post(uploadPaths.upload, async (request) => {
    const body = UploadStart.safeParse(request.body ?? {});
    if (!body.success) {
      const zero = body.error.issues.length === 0;
      throw Errors.badRequest(zero ? 'Incorrect parameters' : `Incorrect parameters: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
    }
    return startUpload(deps, actorOf(request), body.data);
  });

  app.get(uploadPaths.upload, async (request) => {
    const q = GetQuery.parse(request.query ?? {});
    return uploads.state(actorOf(request), q.JobID);
  });

  // The chunk's body is its raw bytes: a parser for them only in this scope, with the chunk limit.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: UPLOAD_CHUNK_SIZE + 1024 }, (_req, body, done) => done(null, body));
    scope.post(uploadPaths.chunk, async (request, reply) => {
      const q = ChunkQuery.parse(request.query ?? {});
      if (!Buffer.isBuffer(request.body)) throw Errors.badRequest('Incorrect parameters: the chunk is sent as application/octet-stream');
      try {
        return await uploads.chunk(actorOf(request), q.JobID, q.Index, request.body);
      } catch (e) {
        // Out of order: the answer names the chunk to send instead, so the client goes on from there.
        if (e instanceof Error && 'key' in e && e.key === UPLOAD_KEYS.outOfOrder) {
          const state = await getUpload(deps, actorOf(request), q.JobID);
          return reply.code(409).type('application/json; charset=utf-8').send({ Message: e.message, Key: UPLOAD_KEYS.outOfOrder, NextIndex: state.NextIndex, JobID: q.JobID });
        }
        throw e;
      }
    });
  });
}
