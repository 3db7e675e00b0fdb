/**
 * GET api/dbs/{db}/archives/{a}/documents/{id}/file?SecureId=&fileNameFieldId=&auditEntry= (the user-app spec
 * §7 single export; contract src/api/export.ts SingleExportQuery): the document's file as an
 * attachment, with its length and an RFC 5987 name. The checks and the bytes are in
 * services/document-file.ts. Not compressed: the bytes and Content-Length are the file's own, and
 * PDF and TIFF gain little from it.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth, type ServerContext } from '../http/context.js';
import { contentDisposition, documentFile } from '../services/document-file.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DocParams = z.object({ db: Id, archiveId: Id, docId: Id });
const Flag = z.preprocess((v) => (v === '' || v === undefined ? undefined : String(v).toLowerCase()), z.enum(['true', 'false']).optional());
const FileQuery = z.looseObject({
  SecureId: z.string().min(1),
  // Empty (a form left blank) is the same as absent: the stored name.
  fileNameFieldId: z.preprocess((v) => (v === '' ? undefined : v), Id.optional()),
  auditEntry: Flag,
  // View=true: the file read to be shown (the viewer, keep offline): the view right suffices, no history.
  View: Flag,
});

export function documentFileRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/file', { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = DocParams.parse(request.params);
    const q = FileQuery.parse(request.query ?? {});
    const actor = { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
    // Fastify answers HEAD with this handler too: a HEAD (a size check) exports nothing, so it writes no history.
    const file = await documentFile(
      ctx.store,
      ctx.files,
      actor,
      { dbId: db, archiveId, docId, secureId: q.SecureId, fileNameFieldId: q.fileNameFieldId, auditEntry: q.auditEntry === 'true' && q.View !== 'true' && request.method === 'GET', forView: q.View === 'true' },
      new Date(ctx.clock.now()),
    );
    reply
      .type(file.type)
      .header('Content-Length', String(file.size))
      .header('Content-Disposition', contentDisposition(file.name))
      // A client on another origin (config.json apiBaseUrl) may read the name only when it is exposed.
      .header('Access-Control-Expose-Headers', 'Content-Disposition')
      // The answer depends on the token and writes history: never from a cache.
      .header('Cache-Control', 'no-store');
    return reply.send('path' in file ? createReadStream(file.path) : Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
  });
}
