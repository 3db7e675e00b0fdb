/**
 * GET api/dbs/{db}/archives/{a}/documents/{id}/email?SecureId=&To=&Subject=&Message= (the user-app spec §7):
 * the contract is src/api/documents.ts DocumentEmailQuery; the work and the refusals are in
 * services/email.ts. GET api/email/settings answers whether e-mail is set up at all (EmailSettingsAnswer).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DocumentEmailAnswer, DocumentEmailQuery, EmailSettingsAnswer, documentPaths } from '../../src/api/documents.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import type { EmailService } from '../services/email.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DocParams = z.object({ db: Id, archiveId: Id, docId: Id });

export function documentEmailRoutes(app: FastifyInstance, ctx: ServerContext, email: EmailService) {
  app.get(documentPaths.emailSettings, async (request) => {
    requireAuth(request);
    return EmailSettingsAnswer.parse({ Configured: email.configured });
  });
  app.get('/api/dbs/:db/archives/:archiveId/documents/:docId/email', async (request) => {
    const auth = requireAuth(request);
    const { db, archiveId, docId } = DocParams.parse(request.params);
    const q = DocumentEmailQuery.parse(request.query ?? {});
    const actor = { userId: auth.userId, userName: auth.userName, licenceType: auth.licenceType };
    return DocumentEmailAnswer.parse(await email.send(ctx.store, actor, db, archiveId, docId, q, new Date(ctx.clock.now())));
  });
}
