/**
 * POST api/users?isSelfPasswordChange=true: the signed-in user changes their own password. It needs
 * the current password (a stolen token alone must not take the account over), and it ends the
 * user's other sessions (their licences), so whoever knew the old password is signed out; the
 * session that made the change stays signed in. Wrong current passwords count against the same
 * per (IP, user) budget as failed sign-ins, so this call cannot be used to guess passwords faster.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CURRENT_PASSWORD_WRONG_KEY, DEFAULT_PASSWORD_PATTERN, PasswordChangeAnswer } from '../../src/api/users.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { SignInLimiter } from '../auth/sign-in-limiter.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { ApiError, Errors } from '../http/errors.js';

const UsersQuery = z.looseObject({ isSelfPasswordChange: z.string().optional(), password: z.string().optional(), currentPassword: z.string().optional() });

/** Why a licence was released when its user changed the password (licences.release_reason). */
export const PASSWORD_CHANGED_REASON = 'password-changed';

async function passwordPattern(ctx: ServerContext): Promise<RegExp> {
  const r = await ctx.store.query<{ value: unknown }>("SELECT value FROM settings WHERE key = 'passwordPattern'");
  const v = r.rows[0]?.value;
  try {
    if (typeof v === 'string' && v) return new RegExp(v);
  } catch {
    // a broken configured pattern falls back to the default rule
  }
  return new RegExp(DEFAULT_PASSWORD_PATTERN);
}

export function userRoutes(app: FastifyInstance, ctx: ServerContext, limiter: SignInLimiter) {
  app.post('/api/users', async (request) => {
    const auth = requireAuth(request);
    const q = UsersQuery.parse(request.query ?? {});
    if (q.isSelfPasswordChange?.toLowerCase() !== 'true') throw Errors.badRequest('User administration is not available here');
    const body = request.body as Record<string, unknown> | null | undefined;
    const fromBody = body && typeof body === 'object';
    const raw = fromBody ? (body.Password ?? body.password) : q.password;
    const current = fromBody ? (body.CurrentPassword ?? body.currentPassword) : q.currentPassword;

    const wait = limiter.retryAfter(request.ip, auth.userName);
    if (wait > 0) throw new ApiError(429, `Too many failed attempts; try again in ${wait} seconds`, 'ERROR_TOO_MANY_ATTEMPTS', { 'Retry-After': String(wait) });
    const user = (await ctx.store.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [auth.userId])).rows[0];
    if (typeof current !== 'string' || !user || !(await verifyPassword(current, user.password_hash))) {
      limiter.fail(request.ip, auth.userName);
      throw new ApiError(400, 'The current password is not correct', CURRENT_PASSWORD_WRONG_KEY);
    }

    const failed = new ApiError(400, 'ERROR_PASSWORD_UPDATE', 'ERROR_PASSWORD_UPDATE');
    if (typeof raw !== 'string' || raw.trim() === '') throw failed;
    if (!(await passwordPattern(ctx)).test(raw)) throw failed;
    const hash = await hashPassword(raw);
    const now = new Date(ctx.clock.now());
    await ctx.store.transaction(async (tx) => {
      await tx.query('UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [auth.userId, hash, now]);
      await tx.query('UPDATE licences SET released_at = $3, release_reason = $4 WHERE user_id = $1 AND id <> $2 AND released_at IS NULL', [
        auth.userId,
        auth.licenceId,
        now,
        PASSWORD_CHANGED_REASON,
      ]);
    });
    return PasswordChangeAnswer.parse({ Message: 'PASSWORD_UPDATED' });
  });
}
