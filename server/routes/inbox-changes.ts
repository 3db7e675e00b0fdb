/**
 * The inbox calls that change files, and an inbox file's thumbnail and bytes (the archive-ops spec
 * §7 "On inboxes/{id}"; the user-app spec §7 "inbox thumbnail by inbox and FileName"; the contract:
 * src/api/inboxes.ts). Thin: parse, then services/inbox-changes.ts. Every name in a query (FilePath,
 * newFileName, fileName, FileName) is checked by inboxNameProblem before anything reads it.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { INBOX_EXPORT_MAX, InboxExportBody, InboxPutDocument, InboxSendBody } from '../../src/api/inboxes.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { fileMissing } from './documents.js';
import { contentDisposition } from '../services/document-file.js';
import type { Actor } from '../services/documents.js';
import { checkInboxName, deleteInboxFile, exportFiles, moveInboxFile, putDocumentInInbox, renameInboxFile, sendInboxFile } from '../services/inbox-changes.js';
import { inboxFile, inboxWithRights } from '../services/inboxes.js';
import { StreamingZipWriter } from '../services/zip-writer.js';
import { thumbAtSize, type Thumbnailer } from '../thumbs/thumbnailer.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Params = z.object({ id: Id });
const Flag = z.preprocess((v) => (v === '' || v === undefined ? undefined : String(v).toLowerCase()), z.enum(['true', 'false']).optional());
const Name = z.string().max(10_000);
const optionalInt = (min: number, max: number) => z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

const MoveQuery = z.looseObject({ FilePath: Name, targetInboxId: Id, deleteOriginal: Flag });
const PostQuery = z.looseObject({
  FilePath: Name.optional(),
  newFileName: Name.optional(),
  fileName: Name.optional(),
  destinationDatabaseId: Id.optional(),
  destinationArchiveId: Id.optional(),
  deleteOriginal: Flag,
  export: Flag,
});
const PathQuery = z.looseObject({ FilePath: Name });
const ThumbQuery = z.looseObject({ FileName: Name, Height: optionalInt(1, 100_000), Width: optionalInt(1, 100_000), Page: optionalInt(1, 100_000) });

const MIME: Record<string, string> = { PDF: 'application/pdf', TIF: 'image/tiff', TIFF: 'image/tiff', PNG: 'image/png', JPG: 'image/jpeg', JPEG: 'image/jpeg' };
const mimeOf = (type: string) => MIME[type.toUpperCase()] ?? 'application/octet-stream';

const bad = (issues: { path: PropertyKey[]; message: string }[]) => Errors.badRequest(`Incorrect parameters: ${issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);

export function inboxChangeRoutes(app: FastifyInstance, ctx: ServerContext, thumbs: Thumbnailer) {
  const { store } = ctx;
  const actorOf = (request: Parameters<typeof requireAuth>[0]): Actor => {
    const auth = requireAuth(request);
    return { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
  };

  // The spec makes the move a GET; it changes files, so it takes the Idempotency-Key like a POST.
  app.get('/api/inboxes/:id', { config: { idempotent: true } }, async (request) => {
    const { id } = Params.parse(request.params);
    const q = MoveQuery.parse(request.query ?? {});
    return moveInboxFile(store, actorOf(request), id, q.FilePath, q.targetInboxId, q.deleteOriginal !== 'false', new Date(ctx.clock.now()));
  });

  app.post('/api/inboxes/:id', async (request, reply) => {
    const actor = actorOf(request);
    const { id } = Params.parse(request.params);
    const q = PostQuery.parse(request.query ?? {});
    const now = new Date(ctx.clock.now());
    if (q.newFileName !== undefined) {
      if (q.FilePath === undefined) throw Errors.badRequest('Incorrect parameters: FilePath is required');
      return renameInboxFile(store, actor, id, q.FilePath, q.newFileName);
    }
    if (q.destinationArchiveId !== undefined || q.destinationDatabaseId !== undefined) {
      if (q.fileName === undefined || q.destinationArchiveId === undefined || q.destinationDatabaseId === undefined) {
        throw Errors.badRequest('Incorrect parameters: fileName, destinationDatabaseId and destinationArchiveId are required');
      }
      const body = InboxSendBody.safeParse(request.body ?? { Fields: [] });
      if (!body.success) throw bad(body.error.issues);
      const out = await sendInboxFile(store, actor, id, { fileName: q.fileName, dbId: q.destinationDatabaseId, archiveId: q.destinationArchiveId, deleteOriginal: q.deleteOriginal !== 'false', body: body.data }, now);
      return reply.code(out.status).send(out.body);
    }
    if (q.export === 'true') {
      const body = InboxExportBody.safeParse(request.body);
      if (!body.success) throw bad(body.error.issues);
      if (body.data.FilePaths.length === 0 || body.data.FilePaths.length > INBOX_EXPORT_MAX) throw Errors.badRequest(`Incorrect parameters: FilePaths holds 1 to ${INBOX_EXPORT_MAX} names`);
      const list = await exportFiles(store, actor, id, body.data.FilePaths);
      // Stored, not deflated: PDF and TIFF gain little, and the zip streams at disk speed. The same
      // writer as an export's zip (services/zip-writer.ts), its central directory spooled to a temp file.
      const out = new PassThrough();
      const zip = new StreamingZipWriter(out, { spoolPath: join(tmpdir(), `inbox-zip-${randomUUID()}.cd`) });
      void (async () => {
        for (const f of list) await zip.add(ctx.files.stream(f.sha256), f.file_name, false);
        await zip.finish();
      })().catch((e: unknown) => {
        void zip.abort().catch(() => undefined);
        out.destroy(e instanceof Error ? e : new Error(String(e)));
      });
      reply.type('application/zip').header('Content-Disposition', contentDisposition(`inbox-${id}.zip`)).header('Access-Control-Expose-Headers', 'Content-Disposition').header('Cache-Control', 'no-store');
      return reply.send(out);
    }
    throw Errors.badRequest('Incorrect parameters: newFileName, destinationArchiveId or export=true is required');
  });

  app.delete('/api/inboxes/:id', async (request) => {
    const { id } = Params.parse(request.params);
    const q = PathQuery.parse(request.query ?? {});
    return deleteInboxFile(store, actorOf(request), id, q.FilePath);
  });

  app.put('/api/inboxes/:id', async (request) => {
    const actor = actorOf(request);
    const { id } = Params.parse(request.params);
    const body = InboxPutDocument.safeParse(request.body);
    if (!body.success) throw bad(body.error.issues);
    return putDocumentInInbox(store, ctx.files, actor, id, body.data, new Date(ctx.clock.now()));
  });

  app.get('/api/inboxes/:id/thumb', async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = Params.parse(request.params);
    const q = ThumbQuery.parse(request.query ?? {});
    const name = checkInboxName(q.FileName, 'FileName');
    const inbox = await inboxWithRights(store, auth.userId, id);
    const f = await inboxFile(store, inbox.id, name);
    const png = await thumbAtSize(thumbs, f.sha256, f.file_type, (q.Page ?? 1) - 1, q);
    if (!png) throw fileMissing();
    // Keyed by name, and a name can be given to other bytes (rename, delete, a new file): not cached long.
    return reply.type('image/png').header('Cache-Control', 'private, no-cache').send(png);
  });

  app.get('/api/inboxes/:id/file', { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = Params.parse(request.params);
    const q = PathQuery.parse(request.query ?? {});
    const name = checkInboxName(q.FilePath);
    const inbox = await inboxWithRights(store, auth.userId, id);
    const f = await inboxFile(store, inbox.id, name);
    reply
      .type(mimeOf(f.file_type))
      .header('Content-Length', String(f.size))
      .header('Content-Disposition', contentDisposition(f.file_name))
      .header('Access-Control-Expose-Headers', 'Content-Disposition')
      .header('Cache-Control', 'no-store');
    return reply.send(ctx.files.stream(f.sha256));
  });
}
