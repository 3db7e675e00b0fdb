/**
 * Copy, move and delete, one call per document (the archive-ops spec §4, §7; the contract and its
 * rules: src/api/documents.ts documentPaths.operation):
 *   GET api/dbs/{db}/archives/{a}/documents/{id}/{Copy|Move|delete}?SecureId=&Job=&Count=&DestinationArchive=
 *     -> 200 DocumentOperationAccepted; the job runner does the work (jobs/runner.ts).
 * Calls with the same Job (of one user) make one server job; a call without Job is a job of its
 * own, keyed by its Idempotency-Key header when it has one (GETs do not pass the Idempotency-Key
 * middleware, so this is what keeps a resent single call from being done twice).
 *
 * A refusal of the document (403 licence, rights or SecureId; 404 no such document; 409 checked
 * out) is recorded as a failure of the group's job, 'DocID {id}: reason', so the job's counts still
 * add up to Count; its answer is the usual error body plus JobId and Job. Problems of the call itself
 * (400: parameters, DestinationArchive, Count, a Job key used for something else; 404 unknown
 * database or destination) answer without touching any job: there is no consistent job to record
 * them in. A repeated call for a document already in the job adds nothing and answers as the first.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { DOCUMENT_CHECKED_OUT_KEY, DOCUMENT_GROUP_MAX, JOB_KEY_PATTERN, type DocumentOperation, type DocumentOperationAccepted } from '../../src/api/documents.js';
import { IDEMPOTENCY_HEADER } from '../../src/api/errors.js';
import type { JobKind } from '../../src/api/jobs.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { ApiError } from '../http/errors.js';
import { checkDestination, checkOperation, operationArchives, requireDatabase, type Actor } from '../services/documents.js';
import { addItem, groupJob, operationRefusal, type JobRow } from '../services/jobs.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id, archiveId: Id, docId: Id });
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), Id.optional());
const Query = z.looseObject({
  SecureId: z.string().min(1),
  Job: z.string().regex(JOB_KEY_PATTERN).optional(),
  Count: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(DOCUMENT_GROUP_MAX).optional()),
  DestinationArchive: optionalId,
});

const KINDS: Record<DocumentOperation, JobKind> = { Copy: 'copy', Move: 'move', delete: 'delete' };

/** The status a recorded refusal answered with, for a repeat of its call. */
function statusOfKey(key: string | null): number {
  if (key === 'ERROR_FAILED_DUE_TO_PERMISSIONS') return 403;
  if (key === 'ERROR_NOT_FOUND') return 404;
  if (key === DOCUMENT_CHECKED_OUT_KEY) return 409;
  return 400;
}

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

const accepted = (job: JobRow): DocumentOperationAccepted => ({ JobId: job.id, Job: job.key, State: job.state, Count: job.total, Received: job.received });

export function documentOperationRoutes(app: FastifyInstance, ctx: ServerContext, jobs: { wake(): void }) {
  const { store } = ctx;

  for (const op of ['Copy', 'Move', 'delete'] as const) {
    app.get(`/api/dbs/:db/archives/:archiveId/documents/:docId/${op}`, async (request, reply) => {
      const auth = requireAuth(request);
      const { db, archiveId, docId } = Params.parse(request.params);
      const q = Query.parse(request.query ?? {});
      const kind = KINDS[op];
      const header = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
      const idemKey = typeof header === 'string' && JOB_KEY_PATTERN.test(header) ? header : undefined;
      const key = q.Job ?? idemKey ?? null;
      const actor: Actor = { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
      const target = { dbId: db, archiveId, docId, op: kind, destinationArchiveId: q.DestinationArchive ?? null, secureId: q.SecureId };
      const now = new Date(ctx.clock.now());

      const archives = await operationArchives(store, db, auth.userId, archiveId, target.destinationArchiveId);
      if (archives.size === 0) await requireDatabase(store, db);
      const destination = checkDestination(archives, target);
      if (key === null && q.Count !== undefined && q.Count !== 1) throw new ApiError(400, 'Count needs a Job key', 'ERROR_INCORRECT_PARAMETERS');

      const outcome = await store.transaction(async (tx) => {
        let refusal: ApiError | null = null;
        try {
          await checkOperation(tx, actor, target, false, archives);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          // A single call has no group to record its refusal in.
          if (key === null) throw e;
          refusal = e;
        }
        const job = await groupJob(tx, {
          ownerId: auth.userId,
          key,
          kind,
          dbId: db,
          archiveId,
          destinationArchiveId: destination?.id ?? null,
          count: q.Count,
          now,
        });
        const failure = refusal ? operationRefusal(refusal) : undefined;
        const added = await addItem(tx, job, { archiveId, docId, ...(failure ? { failure } : {}) }, now);
        return { ...added, refusal };
      });
      if (outcome.added && !outcome.refusal) jobs.wake();

      const body = accepted(outcome.job);
      const item = outcome.item;
      if (outcome.added && outcome.refusal) {
        const r = outcome.refusal;
        return sendJson(reply, r.status, { Message: r.message, ...(r.key ? { Key: r.key } : {}), JobId: body.JobId, Job: body.Job });
      }
      if (!outcome.added && item?.state === 'failed') {
        return sendJson(reply, statusOfKey(item.reason_key), { Message: item.reason ?? 'Failed', ...(item.reason_key ? { Key: item.reason_key } : {}), JobId: body.JobId, Job: body.Job });
      }
      return sendJson(reply, 200, body);
    });
  }
}
