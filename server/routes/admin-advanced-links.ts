/**
 * Advanced links, the administration's side (the console spec §3, §7; contract
 * src/api/admin-advanced-links.ts): POST, PUT ?id= and DELETE ?id= on api/AdvancedLinks/databases/{db},
 * and GET api/admin/databases/{db}/advancedlinks for the console's list. The reading side for users
 * (GET ?archiveId= / ?id=) is advanced-links.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdvancedLinkInput, linkPatternIsHttp } from '../../src/api/admin-advanced-links.js';
import { AdvancedLink, AdvancedLinkList } from '../../src/api/advanced-links.js';
import type { Queryable } from '../db/store.js';
import type { ServerContext } from '../http/context.js';
import { ApiError, Errors } from '../http/errors.js';
import { LINK_COLUMNS, linkToWire, type LinkRow } from '../services/advanced-links.js';
import { requireDbAdmin } from './admin-console/require-admin.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id });
const IdQuery = z.looseObject({ id: Id });
const ListQuery = z.looseObject({ archiveId: Id.optional() });

export const LINK_NOT_HTTP_KEY = 'ADMIN_LINK_NOT_HTTP';

const toWire = (r: LinkRow): AdvancedLink => AdvancedLink.parse(linkToWire(r));

async function checkedInput(db: Queryable, dbId: number, body: unknown) {
  const input = AdvancedLinkInput.parse(body);
  if (input.ArchiveId !== null) {
    const a = await db.query('SELECT 1 FROM archives WHERE id = $1 AND database_id = $2', [input.ArchiveId, dbId]);
    if (!a.rowCount) throw Errors.badRequest(`Incorrect parameters: archive ${input.ArchiveId} is not an archive of this database`);
  }
  if (input.FieldId !== null) {
    const f =
      input.ArchiveId !== null
        ? await db.query('SELECT 1 FROM archive_fields WHERE archive_id = $1 AND field_id = $2', [input.ArchiveId, input.FieldId])
        : await db.query('SELECT 1 FROM fields WHERE database_id = $1 AND id = $2', [dbId, input.FieldId]);
    if (!f.rowCount) throw Errors.badRequest(`Incorrect parameters: field ${input.FieldId} is not a field of this archive`);
  }
  if (!linkPatternIsHttp(input.UrlPattern)) throw new ApiError(400, 'Incorrect parameters: the link must give an http or https address', LINK_NOT_HTTP_KEY);
  return input;
}

export function adminAdvancedLinkRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.get('/api/admin/databases/:db/advancedlinks', async (request) => {
    const { db } = Params.parse(request.params);
    await requireDbAdmin(store, request, db);
    const { archiveId } = ListQuery.parse(request.query ?? {});
    const r = await store.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM advanced_links WHERE database_id = $1 AND ($2::int IS NULL OR archive_id = $2) ORDER BY lower(name), id`,
      [db, archiveId ?? null],
    );
    return AdvancedLinkList.parse(r.rows.map(toWire));
  });

  app.post('/api/AdvancedLinks/databases/:db', async (request) => {
    const { db } = Params.parse(request.params);
    await requireDbAdmin(store, request, db);
    const v = await checkedInput(store, db, request.body);
    const r = await store.query<LinkRow>(
      `INSERT INTO advanced_links (database_id, archive_id, field_id, name, url_pattern) VALUES ($1, $2, $3, $4, $5) RETURNING ${LINK_COLUMNS}`,
      [db, v.ArchiveId, v.FieldId, v.Name, v.UrlPattern],
    );
    return toWire(r.rows[0]!);
  });

  app.put('/api/AdvancedLinks/databases/:db', async (request) => {
    const { db } = Params.parse(request.params);
    await requireDbAdmin(store, request, db);
    const { id } = IdQuery.parse(request.query ?? {});
    const v = await checkedInput(store, db, request.body);
    const r = await store.query<LinkRow>(
      `UPDATE advanced_links SET archive_id = $3, field_id = $4, name = $5, url_pattern = $6 WHERE database_id = $1 AND id = $2 RETURNING ${LINK_COLUMNS}`,
      [db, id, v.ArchiveId, v.FieldId, v.Name, v.UrlPattern],
    );
    if (!r.rows[0]) throw Errors.notFound(`Advanced link ${id} does not exist`);
    return toWire(r.rows[0]);
  });

  app.delete('/api/AdvancedLinks/databases/:db', async (request, reply) => {
    const { db } = Params.parse(request.params);
    await requireDbAdmin(store, request, db);
    const { id } = IdQuery.parse(request.query ?? {});
    const r = await store.query('DELETE FROM advanced_links WHERE database_id = $1 AND id = $2', [db, id]);
    if (r.rowCount === 0) throw Errors.notFound(`Advanced link ${id} does not exist`);
    return reply.code(204).send();
  });
}
