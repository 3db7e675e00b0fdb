/**
 * Import documents with index data (the user-app spec §7 helper "Import: ImportDocuments"; the contract is
 * src/api/import.ts):
 *   POST api/dbs/{db}/import/rows              CsvRowBatch    -> CsvRowsReceived (staged as a CSV bulk update's)
 *   POST api/dbs/{db}/import/ImportDocuments   ImportRequest  -> ImportAccepted (one job; services/import.ts)
 * Both pass the Idempotency-Key middleware; the job is named by its rows' Key.
 */
import type { FastifyInstance } from 'fastify';
import { CsvRowBatch } from '../../src/api/bulk-update.js';
import { ImportRequest } from '../../src/api/import.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import type { JobRunner } from '../jobs/runner.js';
import { stageRows } from '../services/bulk-update.js';
import { startImport } from '../services/import.js';
import { dbOf, parseBody } from './bulk-update.js';

export function importRoutes(app: FastifyInstance, ctx: ServerContext, jobs: JobRunner) {
  const actorOf = (request: Parameters<typeof requireAuth>[0]) => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };
  const now = () => new Date(ctx.clock.now());

  app.post('/api/dbs/:db/import/rows', async (request) => stageRows(ctx.store, actorOf(request), dbOf(request.params), parseBody(CsvRowBatch, request.body, 'rows'), now(), 'import'));
  app.post('/api/dbs/:db/import/ImportDocuments', async (request) => {
    const accepted = await startImport(ctx.store, actorOf(request), dbOf(request.params), parseBody(ImportRequest, request.body, 'import options'), now());
    jobs.wake();
    return accepted;
  });
}
