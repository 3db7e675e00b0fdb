/**
 * The one check at the edge for text PostgreSQL cannot store (src/api/wire-text.ts): every route's
 * parsed path parameters, query and JSON body are walked once, before validation and before the
 * Idempotency-Key is recorded, so no route can pass a NUL or a lone surrogate to SQL (which answered
 * 500: 22021) and a repeat of the refused request is refused the same way. Query values holding JSON
 * (SearchCriteria) are walked inside too: their escapes (\u0000, \ud800) only become characters there.
 *
 * The answer is the API's 400 (ERROR_INCORRECT_PARAMETERS) naming where the text was; when it was a
 * value of a field payload ([{ID, VAL, MVAL}]: PUT FieldData, POST indexes), it also carries Fields
 * with that field's ID and code -1 (invalid value), the shape of FieldData's other 400s.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FieldDataInvalid } from '../../src/api/documents.js';
import { UNSTORABLE_TEXT_REASON, findUnstorableText, type UnstorableAt } from '../../src/api/wire-text.js';
import { ApiError, sendError } from './errors.js';

const INVALID_VALUE = -1;

export const unstorableTextMessage = (where: string) => `Incorrect parameters: ${where}: ${UNSTORABLE_TEXT_REASON}`;

export const unstorableTextError = (where: string) => new ApiError(400, unstorableTextMessage(where), 'ERROR_INCORRECT_PARAMETERS');

const looksLikeJson = (s: string) => /^\s*[[{]/.test(s);

function findInQuery(query: unknown): UnstorableAt | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  for (const [k, raw] of Object.entries(query as Record<string, unknown>)) {
    const found = findUnstorableText(raw, k);
    if (found) return found;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      if (typeof v !== 'string' || !looksLikeJson(v)) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        continue; // the route says what is wrong with its JSON
      }
      const inner = findUnstorableText(parsed, k);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The field a bad value of a field payload belongs to: body[i] with an integer ID. */
function payloadFieldId(body: unknown, at: UnstorableAt): number | undefined {
  const [i, key] = at.steps;
  if (!Array.isArray(body) || typeof i !== 'number' || (key !== 'VAL' && key !== 'MVAL')) return undefined;
  const id = (body[i] as { ID?: unknown } | null)?.ID;
  return Number.isInteger(id) ? (id as number) : undefined;
}

function refuse(reply: FastifyReply, where: string, fieldId?: number) {
  const message = unstorableTextMessage(where);
  if (fieldId === undefined) return sendError(reply, 400, { Message: message, Key: 'ERROR_INCORRECT_PARAMETERS' });
  const body: FieldDataInvalid = { Message: message, Key: 'ERROR_INCORRECT_PARAMETERS', Fields: [{ ID: fieldId, Code: INVALID_VALUE, Message: message }] };
  return reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify(FieldDataInvalid.parse(body)));
}

export function installTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    const inParams = findUnstorableText(request.params, undefined);
    if (inParams) return refuse(reply, inParams.path || 'path');
    const inQuery = findInQuery(request.query);
    if (inQuery) return refuse(reply, inQuery.path);
    const body = request.body;
    if (typeof body === 'string' || (body !== null && typeof body === 'object')) {
      const inBody = findUnstorableText(body);
      if (inBody) return refuse(reply, inBody.path ? `body ${inBody.path}` : 'body', payloadFieldId(body, inBody));
    }
  });
}
