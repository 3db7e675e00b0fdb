/**
 * DATABASES mode of the console (src/api/admin-databases.ts; services/admin-databases.ts):
 *   GET/POST api/admin/databases, GET(?rebuild=true)/PUT/DELETE(?drop=) api/admin/databases/{id}
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminDatabase, AdminDatabaseList, DatabaseDeleted, DatabaseEdit } from '../../../src/api/admin-databases.js';
import { requireAuth, type ServerContext } from '../../http/context.js';
import { Errors } from '../../http/errors.js';
import { createDatabase, deleteDatabase, getAdminDatabase, listAdminDatabases, rebuildIndexes, updateDatabase } from '../../services/admin-databases.js';
import { AdminId, refuseConsoleChange, requireAdminAll } from './guard.js';
import { requireDbAdmin } from './require-admin.js';

const OneParams = z.object({ id: AdminId });
const Flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const OneQuery = z.looseObject({ rebuild: Flag.optional() });
const DeleteQuery = z.looseObject({ drop: Flag.optional() });

export function adminDatabaseRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.get('/api/admin/databases', async (request) => {
    const auth = requireAuth(request);
    const list = await listAdminDatabases(store, auth.userId, auth.isAdminAll);
    if (!auth.isAdminAll && list.length === 0) throw Errors.forbidden('You are not an administrator of any database');
    return AdminDatabaseList.parse(list);
  });

  app.post('/api/admin/databases', async (request) => {
    const auth = requireAdminAll(request);
    return AdminDatabase.parse(await createDatabase(store, auth.userId, DatabaseEdit.parse(request.body ?? {})));
  });

  app.get('/api/admin/databases/:id', async (request) => {
    const { id } = OneParams.parse(request.params);
    const auth = await requireDbAdmin(store, request, id);
    const q = OneQuery.parse(request.query ?? {});
    if (q.rebuild) {
      refuseConsoleChange(auth);
      await rebuildIndexes(store);
      return AdminDatabase.parse({ ...(await getAdminDatabase(store, id)), Rebuilt: true });
    }
    return AdminDatabase.parse(await getAdminDatabase(store, id));
  });

  app.put('/api/admin/databases/:id', async (request) => {
    const { id } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, id);
    return AdminDatabase.parse(await updateDatabase(store, id, DatabaseEdit.parse(request.body ?? {})));
  });

  app.delete('/api/admin/databases/:id', async (request) => {
    const { id } = OneParams.parse(request.params);
    requireAdminAll(request);
    const q = DeleteQuery.parse(request.query ?? {});
    return DatabaseDeleted.parse(await deleteDatabase(store, id, q.drop ?? false));
  });
}
