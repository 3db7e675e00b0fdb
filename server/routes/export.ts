/**
 * Export as a server job (the user-app spec §7; the contract is src/api/export.ts):
 *   POST api/dbs/{db}/export?field=&auditEntry=&alwaysExportZip=  body ExportSettings -> ExportAccepted
 *        (services/export-request.ts checks it and writes the job; the runner works it: services/export.ts)
 *   GET  api/dbs/{db}/export?jobid=N -> the finished file, streamed from disk; 409 while it runs (the
 *        error and the Job), 410 once expired, 404 unknown or another user's, 400 not an export.
 * The POST passes the Idempotency-Key middleware like every POST, and the key names the job too.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ExportSettings } from '../../src/api/export.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import type { JobRunner } from '../jobs/runner.js';
import { contentDisposition } from '../services/document-file.js';
import { ExportNotReady, exportDownload } from '../services/export.js';
import { startExport } from '../services/export-request.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id });
/** true/false (any case) or 1/0; absent or empty: the default. */
const flag = (fallback: boolean) =>
  z.preprocess((v) => (v === undefined || v === '' ? undefined : String(v).toLowerCase()), z.enum(['true', 'false', '1', '0']).optional()).transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const PostQuery = z.looseObject({
  field: z.preprocess((v) => (v === '' ? undefined : v), Id.optional()),
  auditEntry: flag(true),
  alwaysExportZip: flag(true),
});
const GetQuery = z.looseObject({ jobid: Id });

export function exportRoutes(app: FastifyInstance, ctx: ServerContext, jobs: JobRunner, dir: string) {
  app.post('/api/dbs/:db/export', async (request) => {
    const auth = requireAuth(request);
    const { db } = Params.parse(request.params);
    const q = PostQuery.parse(request.query ?? {});
    const body = ExportSettings.safeParse(request.body ?? {});
    if (!body.success) throw Errors.badRequest(`Incorrect export settings: ${body.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
    const actor = { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
    const accepted = await startExport(ctx.store, actor, db, body.data, q, new Date(ctx.clock.now()), request.idempotency?.key);
    jobs.wake();
    return accepted;
  });

  // Not compressed: a zip or xlsx gains nothing, and Content-Length must be the file's.
  app.get('/api/dbs/:db/export', { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { db } = Params.parse(request.params);
    const { jobid } = GetQuery.parse(request.query ?? {});
    let file;
    try {
      file = await exportDownload(ctx.store, dir, auth.userId, db, jobid, ctx.clock.now());
    } catch (e) {
      // The error body plus the job, so the client shows how far it is.
      if (e instanceof ExportNotReady) return reply.code(409).send({ Message: e.message, Key: e.key, Job: e.job });
      throw e;
    }
    reply
      .type(file.mime)
      .header('Content-Length', String(file.size))
      .header('Content-Disposition', contentDisposition(file.fileName))
      // A client on another origin (config.json apiBaseUrl) reads the name only when it is exposed.
      .header('Access-Control-Expose-Headers', 'Content-Disposition')
      .header('Cache-Control', 'no-store');
    return reply.send(createReadStream(file.path));
  });
}
