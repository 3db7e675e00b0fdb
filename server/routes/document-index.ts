/**
 * GET api/dbs/{db}/archives/{a}/documents/{id}/fields?SecureId= (contract src/api/document-index.ts):
 * one document as a grid page of one row, for the viewer's indexer panel.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DocumentPage } from '../../src/api/search.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { archiveFields, fieldToWire } from '../search/model.js';
import { DOC_ROW_COLUMNS, thumbVersions, toResultDocument, type DocRow } from '../search/run.js';
import { loadDocument } from '../services/documents.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ db: Id, archiveId: Id, docId: Id });
const Query = z.looseObject({ SecureId: z.string().min(1).max(200) });

export function documentIndexRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/fields', async (request) => {
    const auth = requireAuth(request);
    const params = Params.safeParse(request.params);
    const q = Query.safeParse(request.query ?? {});
    if (!params.success || !q.success) throw Errors.badRequest('Incorrect parameters: db, archive and document ids and SecureId are required');
    const { db, archiveId, docId } = params.data;
    const { archive } = await loadDocument(ctx.store, auth.userId, db, archiveId, docId, q.data.SecureId, 1);
    const fields = await archiveFields(ctx.store, archiveId);
    const r = await ctx.store.query<DocRow>(`SELECT ${DOC_ROW_COLUMNS}, NULL::float8 AS hits FROM documents d WHERE d.id = $1 AND NOT d.deleted`, [docId]);
    if (!r.rows[0]) throw Errors.notFound(`Document ${docId} does not exist in archive ${archiveId}`);
    return DocumentPage.parse({
      Count: 1,
      Docs: [toResultDocument(r.rows[0], fields, new Map([[archive.id, archive]]), await thumbVersions(ctx.store, [docId]))],
      Fields: fields.map(fieldToWire),
      Terms: [],
      Permissions: archive.rights,
    });
  });
}
