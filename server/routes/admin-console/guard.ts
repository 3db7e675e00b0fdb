/**
 * What the DATABASES and ARCHIVES calls need beyond require-admin.ts (requireDbAdmin for every call
 * on one database): creating and deleting databases need an administrator of all databases; a
 * web-only read-only licence (type 4) changes nothing: app.ts refuses its writes, and
 * refuseConsoleChange refuses the GETs that change something (index rebuilds).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../auth/licences.js';
import { requireAuth } from '../../http/context.js';
import { Errors } from '../../http/errors.js';

export const AdminId = z.coerce.number().int().positive().max(2_147_483_647);

/** The caller, who must administer every database (create or delete one). */
export function requireAdminAll(request: FastifyRequest): AuthContext {
  const auth = requireAuth(request);
  if (!auth.isAdminAll) throw Errors.forbidden('Only an administrator of all databases may do this');
  return auth;
}

/** A GET that changes something (a rebuild) is refused for a read-only licence, as every write is. */
export function refuseConsoleChange(auth: AuthContext): void {
  if (auth.licenceType === 4) throw Errors.readOnly();
}
