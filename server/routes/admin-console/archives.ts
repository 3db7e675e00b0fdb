/**
 * ARCHIVES mode of the console (src/api/admin-archives.ts; services/admin-archives.ts), every call
 * for an administrator of the database:
 *   GET/POST api/admin/databases/{db}/archives, GET/PUT/DELETE .../archives/{a}
 *   GET(?includeGlobal)/PUT .../archives/{a}/notifications
 *   GET .../archives/{a}/indexrebuild?docCount=1000 (a server job; refused for a read-only licence)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminArchive, AdminArchiveList, ArchiveDeleted, ArchiveEdit, ArchiveNotifications, INDEX_REBUILD_DOC_COUNT, IndexRebuildStarted, Notification } from '../../../src/api/admin-archives.js';
import type { ServerContext } from '../../http/context.js';
import type { JobRunner } from '../../jobs/runner.js';
import { createArchive, deleteArchive, getArchive, getNotifications, listArchives, putNotifications, startIndexRebuild, updateArchive } from '../../services/admin-archives.js';
import { AdminId, refuseConsoleChange } from './guard.js';
import { requireDbAdmin } from './require-admin.js';

const DbParams = z.object({ db: AdminId });
const OneParams = z.object({ db: AdminId, archiveId: AdminId });
const NotificationsQuery = z.looseObject({ includeGlobal: z.enum(['true', 'false']).optional() });
const RebuildQuery = z.looseObject({ docCount: z.coerce.number().int().min(1).max(INDEX_REBUILD_DOC_COUNT).optional() });

export function adminArchiveRoutes(app: FastifyInstance, ctx: ServerContext, jobs: JobRunner) {
  const { store } = ctx;

  app.get('/api/admin/databases/:db/archives', async (request) => {
    const { db } = DbParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return AdminArchiveList.parse(await listArchives(store, db));
  });

  app.post('/api/admin/databases/:db/archives', async (request) => {
    const { db } = DbParams.parse(request.params);
    const auth = await requireDbAdmin(store, request, db);
    return AdminArchive.parse(await createArchive(store, db, auth.userId, ArchiveEdit.parse(request.body ?? {})));
  });

  app.get('/api/admin/databases/:db/archives/:archiveId', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return AdminArchive.parse(await getArchive(store, db, archiveId));
  });

  app.put('/api/admin/databases/:db/archives/:archiveId', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return AdminArchive.parse(await updateArchive(store, db, archiveId, ArchiveEdit.parse(request.body ?? {})));
  });

  app.delete('/api/admin/databases/:db/archives/:archiveId', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return ArchiveDeleted.parse(await deleteArchive(store, db, archiveId));
  });

  app.get('/api/admin/databases/:db/archives/:archiveId/notifications', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const q = NotificationsQuery.parse(request.query ?? {});
    return ArchiveNotifications.parse(await getNotifications(store, db, archiveId, q.includeGlobal === 'true'));
  });

  app.put('/api/admin/databases/:db/archives/:archiveId/notifications', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return ArchiveNotifications.parse(await putNotifications(store, db, archiveId, Notification.parse(request.body ?? {})));
  });

  app.get('/api/admin/databases/:db/archives/:archiveId/indexrebuild', async (request) => {
    const { db, archiveId } = OneParams.parse(request.params);
    const auth = await requireDbAdmin(store, request, db);
    refuseConsoleChange(auth);
    const q = RebuildQuery.parse(request.query ?? {});
    const started = await startIndexRebuild(store, db, archiveId, auth.userId, q.docCount ?? INDEX_REBUILD_DOC_COUNT, new Date(ctx.clock.now()));
    jobs.wake();
    return IndexRebuildStarted.parse(started);
  });
}
