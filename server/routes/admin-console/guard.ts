/**
 * Who may use the administration console's calls (admin-console.md §6; issue 13 item 7): every
 * admin/... call needs an administrator of its database (database_admins, or an administrator of
 * all databases); creating and deleting databases need an administrator of all databases. Anyone
 * else gets 403 (before anything about the database is told). A web-only read-only licence (type 4)
 * changes nothing: app.ts refuses its writes, and refuseConsoleChange refuses the GETs that change
 * something (an index rebuild).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../auth/licences.js';
import { isDbAdmin } from '../../auth/permissions.js';
import type { Queryable } from '../../db/store.js';
import { requireAuth } from '../../http/context.js';
import { Errors } from '../../http/errors.js';
import { requireDatabase } from '../../services/documents.js';

export const AdminId = z.coerce.number().int().positive().max(2_147_483_647);
export const DbParams = z.looseObject({ db: AdminId });

const notAdmin = () => Errors.forbidden('You are not an administrator of this database');

/** The caller, who must administer database dbId (which must exist): 403 otherwise, then 404. */
export async function requireDbAdmin(db: Queryable, request: FastifyRequest, dbId: number): Promise<AuthContext> {
  const auth = requireAuth(request);
  if (!(await isDbAdmin(db, auth.userId, auth.isAdminAll, dbId))) throw notAdmin();
  await requireDatabase(db, dbId);
  return auth;
}

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
