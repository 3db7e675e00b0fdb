/**
 * Index field edits (the user-app spec §7; issue 4):
 *   PUT api/UpdateDocument/databases/{db}/archive/{a}/document/{id}/FieldData?secureId=
 *       headers Auth-Token, Secure-Id, Idempotency-Key, If-Match: "<Rev>"; body FieldData
 *       -> FieldDataResult | 400 FieldDataInvalid | 409 FieldDataConflict (src/api/documents.ts)
 * The rules and the storage are in server/services/field-edits.ts. The Idempotency-Key is handled
 * before this route runs (server/http/idempotency.ts): a repeat gets the first answer replayed, 409
 * answers included, and never reaches this code.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { FIELD_PAYLOAD_MAX_ITEMS, FieldData, formatRevTag, parseRevTag } from '../../src/api/documents.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { editFields } from '../services/field-edits.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id, archiveId: Id, docId: Id });
const Query = z.looseObject({ secureId: z.string().optional(), SecureId: z.string().optional() });

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function fieldDataRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.put('/api/UpdateDocument/databases/:db/archive/:archiveId/document/:docId/FieldData', async (request, reply) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = Params.parse(request.params);
    const q = Query.parse(request.query ?? {});
    const header = request.headers['secure-id'];
    const secureId = q.secureId ?? q.SecureId ?? (typeof header === 'string' ? header : undefined);
    if (!secureId) throw Errors.badRequest('secureId is required');
    if (Array.isArray(request.body) && request.body.length > FIELD_PAYLOAD_MAX_ITEMS) throw Errors.badRequest(`The body may list at most ${FIELD_PAYLOAD_MAX_ITEMS} fields`);
    const parsed = FieldData.safeParse(request.body);
    if (!parsed.success || parsed.data.length === 0) throw Errors.badRequest('The body must be a non-empty array of field data (ID, VAL, MVAL)');
    const edits = parsed.data;
    if (new Set(edits.map((e) => e.ID)).size !== edits.length) throw Errors.badRequest('A field is listed twice');
    const ifMatch = request.headers['if-match'];
    const baseRev = typeof ifMatch === 'string' ? parseRevTag(ifMatch) : null;
    if (typeof ifMatch === 'string' && baseRev === null) throw Errors.badRequest('If-Match must be the document Rev, e.g. "3"');


    const outcome = await editFields(
      store,
      { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType },
      { db, archiveId, docId, secureId, edits, baseRev, idempotencyKey: request.idempotency?.key ?? null, now: new Date(ctx.clock.now()) },
    );
    if (outcome.rev !== undefined) reply.header('ETag', formatRevTag(outcome.rev));
    return sendJson(reply, outcome.status, outcome.body);
  });
}
