/**
 * The outbox kind of a bulk update (issue 11 item 4; src/api/bulk-update.ts): ONE entry per confirmed
 * update, a POST of one of the Update calls (UserPassedBulkUpdateSearch, UserPassedUpdateSearch,
 * BulkUpdateDirect, BulkUpdateSearch) with the entry's id as the Idempotency-Key. A basic update's
 * key names its job; a CSV update's job is named by its staged rows' Key, so a re-send after a lost
 * answer finds the same job and never updates twice.
 *
 * What is stored where: the request in the entry (path, body); what the tray and the grid need in
 * `meta` (BulkUpdateMeta). When the server accepts it, its JobId becomes a record in the Dexie `jobs`
 * table (followUp -> trackJob): the jobs worker polls it, the tray shows its progress and failures
 * ('DocID {id}: reason'), and the results screen refreshes when it ends. A refusal's catalogue key
 * (e.g. ERROR_UPDATE_REVISION_ARCHIVE) is kept in meta.refusedKey for the tray to translate.
 * No React here: the service worker runs it too.
 */
import { isApiError } from '../../api/api-error';
import { BULK_UPDATE_JOB_KIND, BulkUpdateAccepted, bulkUpdatePaths, type BasicBulkUpdate, type BulkUpdateCall, type CsvBulkUpdate } from '../../api/bulk-update';
import { IDEMPOTENCY_HEADER } from '../../api/errors';
import { apiRequest } from '../../api/http';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { jobTitleWords } from '../job-title';
import { getSession } from '../../session/session';
import { trackJob } from '../jobs';
import { registerKind, type OutboxKind, type SendContext } from '../kinds';
import { enqueue } from '../outbox';

export const BULK_UPDATE_KIND = 'bulk-update';

export interface BulkUpdateMeta {
  dbId: number;
  archiveId: number;
  call: BulkUpdateCall;
  /** How many documents the confirmed count said would change (the job's Count replaces it). */
  count: number;
  /** "Bulk update of 12 documents", worded by the caller: the fallback of titleWords. */
  title: string;
  /** The same as words (jobs-view.ts jobTitleWords), said in the language of the moment. */
  titleWords?: Words;
  refusedKey?: string;
}

export function isBulkUpdateMeta(m: unknown): m is BulkUpdateMeta {
  const o = m as Partial<BulkUpdateMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.dbId === 'number' && typeof o.archiveId === 'number' && typeof o.call === 'string' && typeof o.title === 'string';
}

export async function sendBulkUpdate(entry: OutboxEntry, ctx: SendContext): Promise<BulkUpdateAccepted> {
  const meta = isBulkUpdateMeta(entry.meta) ? entry.meta : null;
  try {
    return await apiRequest({
      method: 'POST',
      path: entry.path,
      headers: { ...entry.headers, [IDEMPOTENCY_HEADER]: entry.id },
      body: entry.body,
      auth: 'header',
      schema: BulkUpdateAccepted,
    });
  } catch (e) {
    if (meta && isApiError(e) && e.kind === 'http' && e.status >= 400 && e.status < 500 && !e.loginRedirect) {
      const { refusedKey: _old, ...rest } = meta;
      await ctx.saveProgress({ meta: e.key ? { ...rest, refusedKey: e.key } : rest });
    }
    throw e;
  }
}

export async function followBulkUpdate(database: ArchiveDb, entry: OutboxEntry, result: unknown): Promise<void> {
  if (!isBulkUpdateMeta(entry.meta)) return;
  const parsed = BulkUpdateAccepted.safeParse(result);
  if (!parsed.success) return;
  const m = entry.meta;
  await trackJob({ id: parsed.data.JobId, dbId: m.dbId, kind: BULK_UPDATE_JOB_KIND, total: parsed.data.Count, owner: entry.owner ?? null, archiveId: m.archiveId, entryId: entry.id }, database);
}

export const bulkUpdateKind: OutboxKind = { kind: BULK_UPDATE_KIND, send: sendBulkUpdate, response: BulkUpdateAccepted, followUp: followBulkUpdate };
registerKind(bulkUpdateKind);

export interface BulkUpdateInput {
  call: BulkUpdateCall;
  body: BasicBulkUpdate | CsvBulkUpdate;
  archiveId: number;
  count: number;
  title: string;
}

/** Keeps one confirmed bulk update in the outbox (queued); the enqueue trigger sends it. Resolves with the entry's id. */
export async function enqueueBulkUpdate(input: BulkUpdateInput, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  const dbId = input.body.DatabaseID;
  const titleWords = jobTitleWords({ kind: BULK_UPDATE_JOB_KIND, total: input.count });
  const meta: BulkUpdateMeta = { dbId, archiveId: input.archiveId, call: input.call, count: input.count, title: input.title, ...(titleWords ? { titleWords } : {}) };
  // The count's Limit is not part of the update.
  const { Limit: _limit, ...body } = input.body;
  return enqueue(
    {
      kind: BULK_UPDATE_KIND,
      method: 'POST',
      path: bulkUpdatePaths.call(dbId, input.call),
      body,
      meta,
      // Its own target: it neither waits behind nor holds back other changes (the job re-judges each document).
      target: `${dbId}|${BULK_UPDATE_KIND}|${globalThis.crypto.randomUUID()}`,
    },
    database,
    owner,
  );
}
