/**
 * Server jobs (src/api/jobs.ts):
 *   GET    api/jobs       -> JobList (the signed-in user's jobs, newest first, without Failures/Results)
 *   GET    api/jobs/{id}  -> Job (with Failures; with Results when ?Results=true)
 *   DELETE api/jobs/{id}  -> Job (cancelled unless it had ended)
 * Only the user who started a job sees or cancels it; anyone else gets 404, as for an unknown id.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { cancelJob, getJob, listJobs } from '../services/jobs.js';

const Params = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const JobQuery = z.looseObject({ Results: z.enum(['true', 'false', '1', '0']).optional() });
const notFound = (id: number) => Errors.notFound(`Job ${id} does not exist`);

export function jobRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.get('/api/jobs', async (request) => listJobs(store, requireAuth(request).userId));

  app.get('/api/jobs/:id', async (request) => {
    const auth = requireAuth(request);
    const { id } = Params.parse(request.params);
    const q = JobQuery.parse(request.query ?? {});
    const job = await getJob(store, auth.userId, id, q.Results === 'true' || q.Results === '1');
    if (!job) throw notFound(id);
    return job;
  });

  app.delete('/api/jobs/:id', async (request) => {
    const auth = requireAuth(request);
    const { id } = Params.parse(request.params);
    const job = await cancelJob(store, auth.userId, id, new Date(ctx.clock.now()));
    if (!job) throw notFound(id);
    return job;
  });
}
