/**
 * Licence calls (the user-app spec §7): GET api/licenses (Basic credentials -> {Token, Type};
 * validate=true / checkRestricted=true -> LicenceValidation), GET api/authorize, GET and DELETE
 * api/licenses/{token}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Licence, LicenceValidation } from '../../src/api/licences.js';
import { isStorableText } from '../../src/api/wire-text.js';
import { authenticate, findLicence, hashToken, obtainLicence, releaseLicence, validateToken } from '../auth/licences.js';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords.js';
import type { SignInLimiter } from '../auth/sign-in-limiter.js';
import { requestToken, requireAuth, type ServerContext } from '../http/context.js';
import { ApiError, Errors } from '../http/errors.js';
import { unstorableTextError } from '../http/text-guard.js';

const LicencesQuery = z.looseObject({
  validate: z.enum(['true', 'false']).optional(),
  checkRestricted: z.enum(['true', 'false']).optional(),
});

function basicCredentials(request: FastifyRequest): { user: string; password: string } | undefined {
  const h = request.headers.authorization;
  if (!h || !/^basic /i.test(h)) return undefined;
  const decoded = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0) return undefined;
  const user = decoded.slice(0, i);
  // The user name goes to SQL: the edge check (text-guard.ts) does not see inside this header.
  if (!isStorableText(user)) throw unstorableTextError('user name');
  return { user, password: decoded.slice(i + 1) };
}

/** A licence answer carries its token: no cache (the browser's, a proxy's) may keep it. */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('Cache-Control', 'no-store');
};

export function licenceRoutes(app: FastifyInstance, ctx: ServerContext, limiter: SignInLimiter) {
  const { store, clock } = ctx;

  app.get('/api/licenses', { config: { auth: 'none' }, onRequest: noStore }, async (request) => {
    const q = LicencesQuery.parse(request.query ?? {});
    if (q.validate === 'true' || q.checkRestricted === 'true') {
      return LicenceValidation.parse(await validateToken(store, clock, requestToken(request)));
    }
    const creds = basicCredentials(request);
    if (!creds) {
      const token = requestToken(request);
      if (!token) throw Errors.invalidCredentials();
      const auth = await authenticate(store, clock, token);
      return Licence.parse({ Token: token, Type: auth.licenceType });
    }
    const wait = limiter.retryAfter(request.ip, creds.user);
    if (wait > 0) throw new ApiError(429, `Too many failed sign-in attempts; try again in ${wait} seconds`, 'ERROR_TOO_MANY_ATTEMPTS', { 'Retry-After': String(wait) });
    const r = await store.query<{ id: number; password_hash: string; licence_type: number; disabled: boolean }>(
      'SELECT id, password_hash, licence_type, disabled FROM users WHERE lower(name) = lower($1)',
      [creds.user],
    );
    const user = r.rows[0];
    const ok = user ? await verifyPassword(creds.password, user.password_hash) : (await burnPasswordCheck(creds.password), false);
    if (!user || !ok || user.disabled) {
      limiter.fail(request.ip, creds.user);
      throw Errors.invalidCredentials();
    }
    const lic = await obtainLicence(store, clock, user, request.ip);
    return Licence.parse({ Token: lic.token, Type: lic.type });
  });

  app.get('/api/authorize', { config: { auth: 'none' } }, async (request) => {
    return LicenceValidation.parse(await validateToken(store, clock, requestToken(request)));
  });

  const TokenParam = z.object({ token: z.string().min(1) });

  app.get('/api/licenses/:token', { config: { auth: 'path-token' }, onRequest: noStore }, async (request) => {
    const auth = requireAuth(request);
    const { token } = TokenParam.parse(request.params);
    if (hashToken(token) === auth.tokenHash) return Licence.parse({ Token: token, Type: auth.licenceType });
    if (!auth.isAdminAll) throw Errors.forbidden();
    const target = await findLicence(store, token);
    if (!target || target.released_at) throw Errors.notFound('Licence not found');
    return Licence.parse({ Token: token, Type: target.type });
  });

  app.delete('/api/licenses/:token', { config: { auth: 'path-token' } }, async (request, reply) => {
    const auth = requireAuth(request);
    const { token } = TokenParam.parse(request.params);
    if (hashToken(token) !== auth.tokenHash) {
      if (!auth.isAdminAll) throw Errors.forbidden();
      const target = await findLicence(store, token);
      if (!target) throw Errors.notFound('Licence not found');
      await releaseLicence(store, target.id, clock.now(), 'released by administrator');
    } else {
      await releaseLicence(store, auth.licenceId, clock.now(), 'logout');
    }
    return reply.code(204).send();
  });
}
