/** GET api/admin?function=...|feature=... (src/api/admin-functions.ts). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminFeature, AdminFunction, CurrentUser, FlagAnswer, RoleAnswer, VersionAnswer } from '../../src/api/admin-functions.js';
import { adminDatabaseIds, delegationDbIds, isDbAdmin } from '../auth/permissions.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';

const AdminQuery = z.looseObject({
  function: z.optional(AdminFunction),
  feature: z.optional(AdminFeature),
  dbId: z.coerce.number().int().positive().optional(),
});

interface UserRow {
  id: number;
  name: string;
  email: string | null;
  licence_type: number;
  is_user_admin: boolean;
  is_admin_all: boolean;
  is_product_user: boolean;
  is_external_user: boolean;
}

export function adminRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;
  app.get('/api/admin', async (request) => {
    const auth = requireAuth(request);
    const q = AdminQuery.parse(request.query ?? {});
    if (q.feature) {
      const r = await store.query('SELECT 1 FROM user_features WHERE user_id = $1 AND feature = $2', [auth.userId, q.feature]);
      return FlagAnswer.parse({ Value: r.rowCount > 0 });
    }
    if (!q.function) throw Errors.badRequest('function or feature is required');
    const user = (await store.query<UserRow>('SELECT id, name, email, licence_type, is_user_admin, is_admin_all, is_product_user, is_external_user FROM users WHERE id = $1', [auth.userId])).rows[0];
    if (!user) throw Errors.licenseExpiredKey();
    switch (q.function) {
      case 'version':
        return VersionAnswer.parse({ Version: ctx.version });
      case 'isAdminAll':
        return FlagAnswer.parse({ Value: user.is_admin_all });
      case 'isAnyDbAdmin':
        return FlagAnswer.parse({ Value: user.is_admin_all || (await adminDatabaseIds(store, user.id)).length > 0 });
      case 'isDbAdmin':
        if (q.dbId === undefined) throw Errors.badRequest('dbId is required');
        return FlagAnswer.parse({ Value: await isDbAdmin(store, user.id, user.is_admin_all, q.dbId) });
      case 'isS9User':
        return RoleAnswer.parse({ IsS9User: user.is_product_user });
      case 'isExternalS9User':
        return RoleAnswer.parse({ IsExternalS9User: user.is_external_user });
      case 'user':
        return CurrentUser.parse({
          Id: user.id,
          Name: user.name,
          Email: user.email,
          LicenceType: auth.licenceType,
          IsUserAdmin: user.is_user_admin,
          IsAdminAll: user.is_admin_all,
          IsAnyDbAdmin: user.is_admin_all || (await adminDatabaseIds(store, user.id)).length > 0,
          DelegationDbIds: await delegationDbIds(store, user.id),
        });
    }
  });
}
