/** POST api/users?isSelfPasswordChange=true: the signed-in user changes their own password. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEFAULT_PASSWORD_PATTERN, PasswordChangeAnswer } from '../../src/api/users.js';
import { hashPassword } from '../auth/passwords.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { ApiError, Errors } from '../http/errors.js';

const UsersQuery = z.looseObject({ isSelfPasswordChange: z.string().optional(), password: z.string().optional() });

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

export function userRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.post('/api/users', async (request) => {
    const auth = requireAuth(request);
    const q = UsersQuery.parse(request.query ?? {});
    if (q.isSelfPasswordChange?.toLowerCase() !== 'true') throw Errors.badRequest('User administration is not available here');
    const body = request.body as Record<string, unknown> | null | undefined;
    const raw = body && typeof body === 'object' ? (body.Password ?? body.password) : q.password;
    const failed = new ApiError(400, 'ERROR_PASSWORD_UPDATE', 'ERROR_PASSWORD_UPDATE');
    if (typeof raw !== 'string' || raw.trim() === '') throw failed;
    if (!(await passwordPattern(ctx)).test(raw)) throw failed;
    const hash = await hashPassword(raw);
    await ctx.store.query('UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [auth.userId, hash, new Date(ctx.clock.now())]);
    return PasswordChangeAnswer.parse({ Message: 'PASSWORD_UPDATED' });
  });
}
