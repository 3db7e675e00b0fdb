/** GET api/dbs: the databases the signed-in user may open (a permission there, or administrator). */
import type { FastifyInstance } from 'fastify';
import { DatabaseList } from '../../src/api/databases.js';
import { visibleDatabases } from '../auth/permissions.js';
import { requireAuth, type ServerContext } from '../http/context.js';

export function databaseRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get('/api/dbs', async (request) => {
    const auth = requireAuth(request);
    const rows = await visibleDatabases(ctx.store, auth.userId, auth.isAdminAll);
    return DatabaseList.parse(rows.map((r) => ({ Id: r.id, Name: r.name })));
  });
}
