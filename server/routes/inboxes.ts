/**
 * Inbox calls (the user-app spec §7 "GET api/inboxes"; the archive-ops spec §7; the contract and every
 * answer: src/api/inboxes.ts):
 *   GET api/inboxes                                          -> InboxList (the user's inboxes)
 *   GET api/inboxes?Id=&pageNumber=&numberOfDocuments=&sort= -> InboxFiles (one page of one inbox)
 *   GET api/inboxes/{id}?FilePath=&targetInboxId=&deleteOriginal= (move; takes the Idempotency-Key)
 *   POST api/inboxes/{id}?FilePath=&newFileName= (rename) | ?fileName=&destinationDatabaseId=&
 *        destinationArchiveId= (send to archive) | ?export=true (zip of the files)
 *   DELETE api/inboxes/{id}?FilePath=; PUT api/inboxes/{id} (an archive document into the inbox)
 *   GET api/inboxes/{id}/thumb?FileName=&Height=&Width=&Page=; GET api/inboxes/{id}/file?FilePath=
 * The logic and SQL are in services/inboxes.ts (reads) and services/inbox-changes.ts (changes).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { INBOX_PAGE_DEFAULTS, INBOX_PAGE_MAX, INBOX_SORT_COLUMNS, type InboxSortColumn } from '../../src/api/inboxes.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { inboxFiles, inboxWithRights, listInboxes } from '../services/inboxes.js';
import type { Thumbnailer } from '../thumbs/thumbnailer.js';
import { inboxChangeRoutes } from './inbox-changes.js';

const Query = z.looseObject({
  Id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  pageNumber: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  numberOfDocuments: z.coerce.number().int().positive().max(INBOX_PAGE_MAX).optional(),
  sort: z.string().max(200).optional(),
});

/** 'DateModified:desc,FileName' -> columns and directions; anything else is a 400. */
function parseSort(raw: string | undefined): { column: InboxSortColumn; desc: boolean }[] {
  if (!raw) return [{ column: 'FileName', desc: false }];
  return raw.split(',').map((part) => {
    const [col = '', dir = 'asc'] = part.split(':').map((x) => x.trim());
    const column = INBOX_SORT_COLUMNS.find((c) => c.toLowerCase() === col.toLowerCase());
    const d = dir.toLowerCase();
    if (!column || (d !== 'asc' && d !== 'desc')) throw Errors.badRequest(`Incorrect parameters: sort ${part}`);
    return { column, desc: d === 'desc' };
  });
}

export function inboxRoutes(app: FastifyInstance, ctx: ServerContext, thumbs: Thumbnailer) {
  inboxChangeRoutes(app, ctx, thumbs);
  app.get('/api/inboxes', async (request) => {
    const auth = requireAuth(request);
    const q = Query.parse(request.query ?? {});
    if (q.Id === undefined) return listInboxes(ctx.store, auth.userId);
    const sort = parseSort(q.sort);
    const inbox = await inboxWithRights(ctx.store, auth.userId, q.Id);
    return inboxFiles(ctx.store, inbox, {
      pageNumber: q.pageNumber ?? INBOX_PAGE_DEFAULTS.pageNumber,
      numberOfDocuments: q.numberOfDocuments ?? INBOX_PAGE_DEFAULTS.numberOfDocuments,
      sort,
    });
  });
}
