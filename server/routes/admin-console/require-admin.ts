/**
 * Who may use the administration console's calls (the console spec §6): an administrator of the
 * database (database_admins, by user or group) or of all databases. Anyone else gets 403 before
 * anything about the database is read; an unknown database then answers 404. A read-only licence
 * (type 4) passes here for reads; app.ts refuses its writes before any route runs.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/licences.js';
import { adminDatabaseIds, isDbAdmin } from '../../auth/permissions.js';
import type { Queryable } from '../../db/store.js';
import { requireAuth } from '../../http/context.js';
import { Errors } from '../../http/errors.js';
import { requireDatabase } from '../../services/documents.js';

export const notAdmin = () => Errors.forbidden('Only an administrator of this database may do this');

export async function requireDbAdmin(db: Queryable, request: FastifyRequest, dbId: number): Promise<AuthContext> {
  const auth = requireAuth(request);
  if (!(await isDbAdmin(db, auth.userId, auth.isAdminAll, dbId))) throw notAdmin();
  await requireDatabase(db, dbId);
  return auth;
}

/** An administrator of at least one database (calls not bound to one, e.g. PUT admin/DXTables). */
export async function requireAnyDbAdmin(db: Queryable, request: FastifyRequest): Promise<AuthContext> {
  const auth = requireAuth(request);
  if (!auth.isAdminAll && (await adminDatabaseIds(db, auth.userId)).length === 0) throw notAdmin();
  return auth;
}
