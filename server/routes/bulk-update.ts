/**
 * Bulk update (the user-app spec §7 Update and Count; the contract is src/api/bulk-update.ts):
 *   POST api/dbs/{db}/bulkupdate/rows                        CsvRowBatch  -> CsvRowsReceived
 *   POST api/dbs/{db}/bulkupdate/{BasicSearchCount|CSVUpdateCount|BulkUpdateSearchCount}   -> BulkUpdateCount
 *   POST api/dbs/{db}/bulkupdate/{UserPassedBulkUpdateSearch|UserPassedUpdateSearch|BulkUpdateDirect|BulkUpdateSearch}
 *        -> BulkUpdateAccepted (one job; the runner works it: services/bulk-update.ts)
 * Every POST passes the Idempotency-Key middleware; a basic update's key also names its job, a CSV
 * update's job is named by its rows' Key.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodMiniType } from 'zod/mini';
import { BasicBulkUpdate, CsvBulkUpdate, CsvRowBatch } from '../../src/api/bulk-update.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import type { JobRunner } from '../jobs/runner.js';
import { countBasic, countCsv, stageRows, startBasic, startCsv } from '../services/bulk-update.js';

export function parseBody<T>(schema: ZodMiniType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw Errors.badRequest(`Incorrect ${what}: ${r.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
  return r.data;
}

export function dbOf(params: unknown): number {
  const n = Number((params as { db?: string }).db);
  if (!Number.isInteger(n) || n <= 0 || n > 2_147_483_647) throw Errors.badRequest('db must be a positive integer');
  return n;
}

export function bulkUpdateRoutes(app: FastifyInstance, ctx: ServerContext, jobs: JobRunner) {
  const actorOf = (request: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };
  const now = () => new Date(ctx.clock.now());

  app.post('/api/dbs/:db/bulkupdate/rows', async (request) => stageRows(ctx.store, actorOf(request), dbOf(request.params), parseBody(CsvRowBatch, request.body, 'rows'), now()));

  app.post('/api/dbs/:db/bulkupdate/BasicSearchCount', async (request) => countBasic(ctx.store, actorOf(request), dbOf(request.params), parseBody(BasicBulkUpdate, request.body, 'bulk update')));
  app.post('/api/dbs/:db/bulkupdate/CSVUpdateCount', async (request) => countCsv(ctx.store, actorOf(request), dbOf(request.params), parseBody(CsvBulkUpdate, request.body, 'bulk update'), false));
  app.post('/api/dbs/:db/bulkupdate/BulkUpdateSearchCount', async (request) => countCsv(ctx.store, actorOf(request), dbOf(request.params), parseBody(CsvBulkUpdate, request.body, 'bulk update'), true));

  for (const [call, type] of [
    ['UserPassedBulkUpdateSearch', 'simple'],
    ['UserPassedUpdateSearch', 'documentSelectUpdate'],
  ] as const) {
    app.post(`/api/dbs/:db/bulkupdate/${call}`, async (request) => {
      const body = parseBody(BasicBulkUpdate, request.body, 'bulk update');
      if (body.UpdateType !== type) throw Errors.badRequest(`${call} takes UpdateType ${type}`);
      const accepted = await startBasic(ctx.store, actorOf(request), dbOf(request.params), body, call, now(), request.idempotency?.key);
      jobs.wake();
      return accepted;
    });
  }
  for (const [call, search] of [
    ['BulkUpdateDirect', false],
    ['BulkUpdateSearch', true],
  ] as const) {
    app.post(`/api/dbs/:db/bulkupdate/${call}`, async (request) => {
      const accepted = await startCsv(ctx.store, actorOf(request), dbOf(request.params), parseBody(CsvBulkUpdate, request.body, 'bulk update'), search, call, now());
      jobs.wake();
      return accepted;
    });
  }
}
