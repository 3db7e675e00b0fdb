/**
 * Page rotation, annotations and stamps (the contract: src/api/annotations.ts; the work:
 * services/annotations.ts):
 *   POST   api/Processing                                          body ProcessingRequest (rotate)
 *   GET    api/dbs/{db}/archives/{a}/documents/{id}/annotations?SecureId=
 *   PUT    api/dbs/{db}/archives/{a}/documents/{id}/annotations/{annotationId}?SecureId=  body AnnotationInput
 *   DELETE api/dbs/{db}/archives/{a}/documents/{id}/annotations/{annotationId}?SecureId=
 *   GET    api/admin/stamps; POST api/admin/stamps body StampInput; DELETE api/admin/stamps/{id}
 * Writes pass the Idempotency-Key middleware like every non-GET call.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ANNOTATION_ID, AnnotationInput, ProcessingRequest, StampInput } from '../../src/api/annotations.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { parseBody } from './bulk-update.js';
import { addStamp, deleteAnnotation, deleteStamp, listAnnotations, listStamps, putAnnotation, rotatePage, type DocRef } from '../services/annotations.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DocParams = z.object({ db: Id, archiveId: Id, docId: Id });
const OneParams = DocParams.extend({ annotationId: z.string().regex(ANNOTATION_ID) });
const SecureQuery = z.looseObject({ SecureId: z.string().min(1) });

export function annotationRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;
  const actorOf = (request: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };
  const refOf = (params: unknown, query: unknown): DocRef => {
    const { db, archiveId, docId } = DocParams.parse(params);
    return { dbId: db, archiveId, docId, secureId: SecureQuery.parse(query ?? {}).SecureId };
  };

  app.post('/api/Processing', async (request) => {
    const req = parseBody(ProcessingRequest, request.body, 'processing request');
    return rotatePage({ store, files: ctx.files }, actorOf(request), req, new Date(ctx.clock.now()));
  });

  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/annotations', async (request) => listAnnotations(store, actorOf(request), refOf(request.params, request.query)));

  app.put('/api/dbs/:db/archives/:archiveId/documents/:docId/annotations/:annotationId', async (request) => {
    const { annotationId } = OneParams.parse(request.params);
    const input = parseBody(AnnotationInput, request.body, 'annotation');
    return putAnnotation(store, actorOf(request), refOf(request.params, request.query), annotationId, input, new Date(ctx.clock.now()));
  });

  app.delete('/api/dbs/:db/archives/:archiveId/documents/:docId/annotations/:annotationId', async (request) => {
    const { annotationId } = OneParams.parse(request.params);
    return deleteAnnotation(store, actorOf(request), refOf(request.params, request.query), annotationId, new Date(ctx.clock.now()));
  });

  app.get('/api/admin/stamps', async (request) => {
    requireAuth(request);
    return listStamps(store);
  });
  app.post('/api/admin/stamps', async (request) => addStamp(store, actorOf(request), parseBody(StampInput, request.body, 'stamp').Text));
  app.delete('/api/admin/stamps/:id', async (request) => deleteStamp(store, actorOf(request), z.object({ id: Id }).parse(request.params).id));
}
