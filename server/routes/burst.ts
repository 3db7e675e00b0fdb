/**
 * Burst and its import documents (the archive-ops spec §7 "GET files with fileName, action=burst and
 * RequestedPages (repeated)"; the contract and the calls: src/api/burst.ts). Thin: parse, then
 * services/burst.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BurstIndexBody, burstPaths } from '../../src/api/burst.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { contentDisposition } from '../services/document-file.js';
import { burstDocument, dropImportDoc, importDoc, indexImportDoc, type BurstDeps } from '../services/burst.js';
import type { Actor } from '../services/documents.js';
import { thumbAtSize, type Thumbnailer } from '../thumbs/thumbnailer.js';
import { fileMissing } from './documents.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Flag = z.preprocess((v) => (v === '' || v === undefined ? undefined : String(v).toLowerCase()), z.enum(['true', 'false']).optional());
const optionalInt = (min: number, max: number) => z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.coerce.number().int().min(min).max(max).optional());
const Name = z.string().min(1).max(200);
/** One RequestedPages is a string, several an array: always a list of page numbers. */
const Pages = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().min(1).max(1_000_000)).max(100_000));

const BurstQuery = z.looseObject({
  action: z.literal('burst'),
  db: Id,
  archive: Id,
  Id,
  SecureId: z.string().min(1).max(200),
  RequestedPages: Pages,
  fileName: Name.optional(),
  deleteBurstedPages: Flag,
});
const FileQuery = z.looseObject({
  fileName: Name,
  action: z.enum(['thumb', 'file']).optional(),
  Page: optionalInt(1, 100_000),
  Width: optionalInt(1, 100_000),
  Height: optionalInt(1, 100_000),
});
const IndexQuery = z.looseObject({ fileName: Name, destinationDatabaseId: Id, destinationArchiveId: Id, deleteBurstedPages: Flag });
const NameQuery = z.looseObject({ fileName: Name });

const bad = (issues: { path: PropertyKey[]; message: string }[]) => Errors.badRequest(`Incorrect parameters: ${issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
function parse<T>(schema: z.ZodType<T>, v: unknown): T {
  const r = schema.safeParse(v ?? {});
  if (!r.success) throw bad(r.error.issues);
  return r.data;
}

export function burstRoutes(app: FastifyInstance, ctx: ServerContext, thumbs: Thumbnailer) {
  const { store } = ctx;
  const actorOf = (request: FastifyRequest): Actor => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };
  const deps = (): BurstDeps => ({ store, files: ctx.files, now: new Date(ctx.clock.now()) });

  app.get(burstPaths.files, async (request, reply) => {
    const actor = actorOf(request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    if (raw.action === 'burst') {
      const q = parse(BurstQuery, raw);
      return burstDocument(deps(), actor, {
        dbId: q.db,
        archiveId: q.archive,
        docId: q.Id,
        secureId: q.SecureId,
        pages: q.RequestedPages,
        fileName: q.fileName,
        deletePages: q.deleteBurstedPages === 'true',
      });
    }
    const q = parse(FileQuery, raw);
    const f = await importDoc(store, actor, q.fileName);
    if (q.action === 'thumb') {
      const png = await thumbAtSize(thumbs, f.sha256, f.file_type, (q.Page ?? 1) - 1, q);
      if (!png) throw fileMissing();
      // The name is one burst's own (a UUID): its pages never change.
      return reply.type('image/png').header('Cache-Control', 'private, max-age=86400').send(png);
    }
    reply
      .type(f.file_type === 'PDF' ? 'application/pdf' : 'image/tiff')
      .header('Content-Length', String(f.size))
      .header('Content-Disposition', contentDisposition(f.file_name))
      .header('Access-Control-Expose-Headers', 'Content-Disposition')
      .header('Cache-Control', 'no-store');
    return reply.send(ctx.files.stream(f.sha256));
  });

  app.post(burstPaths.files, async (request, reply) => {
    const actor = actorOf(request);
    const q = parse(IndexQuery, request.query);
    const body = BurstIndexBody.safeParse(request.body ?? { Fields: [] });
    if (!body.success) throw bad(body.error.issues);
    const out = await indexImportDoc(deps(), actor, q.fileName, { dbId: q.destinationDatabaseId, archiveId: q.destinationArchiveId, deletePages: q.deleteBurstedPages === 'true', body: body.data });
    return reply.code(out.status).send(out.body);
  });

  app.delete(burstPaths.files, async (request, reply) => {
    const q = parse(NameQuery, request.query);
    await dropImportDoc(store, actorOf(request), q.fileName);
    return reply.code(204).send();
  });
}
