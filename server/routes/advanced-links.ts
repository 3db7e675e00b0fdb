/**
 * Advanced links, the reading side (the archive-ops spec §3; the console spec §7 "AdvancedLinks";
 * contract src/api/advanced-links.ts):
 *   GET api/AdvancedLinks/databases/{db}?archiveId=  -> AdvancedLinkList (the archive's, its parents', the database's)
 *   GET api/AdvancedLinks/databases/{db}?id=         -> AdvancedLink
 * Anyone who may view the archive reads its links (view bit 1). The administration's POST, PUT and
 * DELETE are in admin-advanced-links.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdvancedLink, AdvancedLinkList } from '../../src/api/advanced-links.js';
import { archivesWithRights, type ArchiveRow } from '../auth/permissions.js';
import { intArray, type Queryable } from '../db/store.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { LINK_COLUMNS, linkToWire, type LinkRow } from '../services/advanced-links.js';
import { Errors } from '../http/errors.js';
import { requireDatabase } from '../services/documents.js';

const VIEW = 1;
const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id });
const Query = z.looseObject({ archiveId: Id.optional(), id: Id.optional() });


/** The archive and its parents, nearest first. */
function withAncestors(archives: readonly ArchiveRow[], id: number): number[] {
  const out: number[] = [];
  for (let a = archives.find((x) => x.id === id); a && !out.includes(a.id); a = archives.find((x) => x.id === a!.parent_id)) out.push(a.id);
  return out;
}

/** The links a user may read for one archive of a database (404 unknown, 403 without the view right). */
export async function advancedLinksFor(db: Queryable, userId: number, dbId: number, archiveId: number): Promise<AdvancedLink[]> {
  await requireDatabase(db, dbId);
  const archives = await archivesWithRights(db, dbId, userId);
  const archive = archives.find((a) => a.id === archiveId);
  if (!archive) throw Errors.notFound(`Archive ${archiveId} does not exist`);
  if ((archive.rights & VIEW) === 0) throw Errors.forbidden('You do not have permission to view this archive');
  const r = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM advanced_links
      WHERE database_id = $1 AND (archive_id IS NULL OR archive_id = ANY($2::int[])) ORDER BY lower(name), id`,
    [dbId, intArray(withAncestors(archives, archiveId))],
  );
  return r.rows.map(linkToWire);
}

export function advancedLinkRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get('/api/AdvancedLinks/databases/:db', async (request) => {
    const auth = requireAuth(request);
    const params = Params.safeParse(request.params);
    const q = Query.safeParse(request.query ?? {});
    if (!params.success || !q.success || (q.data.archiveId === undefined) === (q.data.id === undefined))
      throw Errors.badRequest('Incorrect parameters: give archiveId or id (a positive integer)');
    const dbId = params.data.db;
    if (q.data.archiveId !== undefined) return AdvancedLinkList.parse(await advancedLinksFor(ctx.store, auth.userId, dbId, q.data.archiveId));

    await requireDatabase(ctx.store, dbId);
    const r = await ctx.store.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM advanced_links WHERE database_id = $1 AND id = $2`, [dbId, q.data.id]);
    const link = r.rows[0];
    if (!link) throw Errors.notFound(`Advanced link ${q.data.id} does not exist`);
    const archives = await archivesWithRights(ctx.store, dbId, auth.userId);
    const viewable = link.archive_id === null ? archives.some((a) => (a.rights & VIEW) !== 0) : ((archives.find((a) => a.id === link.archive_id)?.rights ?? 0) & VIEW) !== 0;
    if (!viewable) throw Errors.forbidden('You do not have permission to view this archive');
    return AdvancedLink.parse(linkToWire(link));
  });
}
