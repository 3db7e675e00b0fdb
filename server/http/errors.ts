/**
 * The one error shape of the API (src/api/errors.ts ErrorBody) and the one handler that maps every
 * failure to it: thrown ApiErrors as they are, Fastify's own errors (bad JSON, body too large,
 * validation) to 4xx with ERROR_INCORRECT_PARAMETERS, anything else to 500 (logged).
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
// The contract (src/api) uses zod/mini and the routes classic zod: both throw a core $ZodError.
import { $ZodError } from 'zod/v4/core';
import { ErrorBody, WIRE_MESSAGES, WIRE_STATUS } from '../../src/api/errors.js';
import { UNSTORABLE_TEXT_REASON } from '../../src/api/wire-text.js';
import { DbError } from '../db/store.js';
import type { JobReasonWords } from '../../src/api/jobs.js';

/**
 * PostgreSQL's answers to text it cannot store (character_not_in_repertoire: a NUL; untranslatable
 * character: a \u0000 escape in jsonb). The edge check (text-guard.ts) refuses such text first; one
 * that still gets through is the client's bad input all the same, never a 500 the outbox retries.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

export class ApiError extends Error {
  /** The reason as a message key and its parts, when a job records this refusal (src/api/jobs.ts JobReasonWords). */
  words?: JobReasonWords;
  constructor(
    readonly status: number,
    message: string,
    readonly key?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The refusal with its words for a job's failure list (the client says it in the user's language). */
export function withWords<E extends ApiError>(e: E, key: string, params?: Record<string, string | number>): E {
  e.words = { Key: key, ...(params ? { Params: params } : {}) };
  return e;
}

export const Errors = {
  invalidCredentials: () => new ApiError(401, 'Invalid user name or password', 'ERROR_INVALID_CREDENTIALS'),
  licenseExpiredKey: () => new ApiError(401, WIRE_MESSAGES.licenseExpiredKey, WIRE_MESSAGES.licenseExpiredKey),
  leaseExpired: () => new ApiError(WIRE_STATUS.leaseExpired, WIRE_MESSAGES.leaseExpired),
  licenceExpired: () => new ApiError(WIRE_STATUS.licenseExpired, WIRE_MESSAGES.licenseExpiredText),
  allInUse: () => new ApiError(409, WIRE_MESSAGES.allLicensesInUse, 'ERROR_CANT_OBTAIN_LICENSE'),
  readOnly: () => new ApiError(403, 'This licence is read-only', 'ERROR_FAILED_DUE_TO_PERMISSIONS'),
  forbidden: (msg = 'You do not have permission to do this') => new ApiError(403, msg, 'ERROR_FAILED_DUE_TO_PERMISSIONS'),
  badRequest: (msg = 'Incorrect parameters') => new ApiError(400, msg, 'ERROR_INCORRECT_PARAMETERS'),
  notFound: (msg = 'Not found') => new ApiError(404, msg, 'ERROR_NOT_FOUND'),
};

export function sendError(reply: FastifyReply, status: number, body: ErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.code(status).type('application/json; charset=utf-8').send(ErrorBody.parse(body));
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | ApiError | $ZodError | Error, request, reply) => {
    if (err instanceof ApiError) {
      return sendError(reply, err.status, { Message: err.message, ...(err.key ? { Key: err.key } : {}) }, err.headers);
    }
    if (err instanceof $ZodError) {
      const first = err.issues[0];
      const where = first?.path.length ? `${first.path.join('.')}: ` : '';
      return sendError(reply, 400, { Message: `Incorrect parameters: ${where}${first?.message ?? 'invalid'}`, Key: 'ERROR_INCORRECT_PARAMETERS' });
    }
    if (err instanceof DbError && err.code && UNSTORABLE_TEXT_CODES.has(err.code)) {
      return sendError(reply, 400, { Message: `Incorrect parameters: ${UNSTORABLE_TEXT_REASON}`, Key: 'ERROR_INCORRECT_PARAMETERS' });
    }
    const fe = err as FastifyError;
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status === 429) {
      return sendError(reply, 429, { Message: 'Too many requests; try again later', Key: 'ERROR_TOO_MANY_REQUESTS' });
    }
    if (status >= 400 && status < 500) {
      const msg = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/i.test(fe.message) ? 'Malformed JSON body' : fe.message;
      return sendError(reply, status, { Message: msg, Key: 'ERROR_INCORRECT_PARAMETERS' });
    }
    request.log.error({ err }, 'request failed');
    return sendError(reply, 500, { Message: 'An unknown error occured' });
  });
}
