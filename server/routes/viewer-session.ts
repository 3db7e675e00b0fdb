/**
 * Viewer sessions (the user-app spec §7 "POST session"; contract src/api/viewer.ts):
 *   POST api/session        body ViewerSessionRequest -> 200 { Id }
 *   GET  api/session/{id}                            -> 200 ViewerSession
 * The work is in services/viewer-session.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ViewerSessionRequest, viewerPaths } from '../../src/api/viewer.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { createViewerSession, getViewerSession } from '../services/viewer-session.js';

const Params = z.object({ id: z.string().min(1).max(100) });

export function viewerSessionRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.post(viewerPaths.session(), async (request) => {
    const auth = requireAuth(request);
    const body = ViewerSessionRequest.safeParse(request.body);
    if (!body.success) throw Errors.badRequest(`Incorrect viewer session: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
    return { Id: await createViewerSession(ctx.store, auth.userId, body.data, new Date(ctx.clock.now())) };
  });

  app.get('/api/session/:id', async (request) => {
    const auth = requireAuth(request);
    const { id } = Params.parse(request.params);
    return getViewerSession(ctx.store, auth.userId, id);
  });
}
