/**
 * The outbox kind of an export (issue 10 item 1; the user-app spec §7 POST api/dbs/{db}/export): ONE entry
 * per export the user starts, a POST of the ExportSettings body with the entry's id as the
 * Idempotency-Key, so a re-send (after a lost answer, a reload, the service worker's sync) gives the
 * same JobId and never starts a second export. Offline it waits in the outbox like every kind.
 *
 * What is stored where: the request itself in the entry (path, query, body), what the tray and the
 * job need in `meta` (ExportRequestMeta). When the server accepts it, its JobId becomes a record in
 * the Dexie `jobs` table (followUp -> trackJob), which the jobs worker polls and the tray shows with
 * its Download button once done. A refusal (400 no results, 403, the three 409 keys) ends the entry
 * as refused by the drain's policy; its catalogue key is kept in meta.refusedKey first, so the tray
 * words it in the user's language instead of showing the server's English Message.
 * No React here: the service worker runs it too.
 */
import { isApiError } from '../../api/api-error';
import { IDEMPOTENCY_HEADER } from '../../api/errors';
import { EXPORT_MAX_DOCUMENTS, ExportAccepted, exportPaths, type ExportFormat, type ExportQuery, type ExportSettings } from '../../api/export';
import { EXPORT_JOB_KIND } from '../../api/jobs';
import { apiRequest } from '../../api/http';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { jobTitleWords } from '../job-title';
import { trackJob } from '../jobs';
import { enqueue } from '../outbox';
import { registerKind, type OutboxKind, type SendContext } from '../kinds';

export const EXPORT_REQUEST_KIND = 'export-request';

export interface ExportRequestMeta {
  dbId: number;
  archiveId: number;
  format: ExportFormat;
  /** How many documents the user asked for (checked ones, or the search's count); the job's Count replaces it. */
  count: number;
  /** How the user knows the export ("Export 12 documents"), worded by the caller: the fallback of titleWords. */
  title: string;
  /** The same as words (jobs-view.ts jobTitleWords), said in the language of the moment. */
  titleWords?: Words;
  /** The catalogue key of the server's refusal (e.g. ERROR_EXPORT_PDF_PENDING), when it gave one. */
  refusedKey?: string;
}

export function isExportRequestMeta(m: unknown): m is ExportRequestMeta {
  const o = m as Partial<ExportRequestMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.dbId === 'number' && typeof o.title === 'string' && (o.format === 'zip' || o.format === 'xlsx');
}

/** The entry's query: only what differs from the server's defaults, as strings (OutboxEntry.query). */
export function exportQueryStrings(q: ExportQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.field !== undefined) out.field = String(q.field);
  if (q.auditEntry !== undefined) out.auditEntry = String(q.auditEntry);
  if (q.alwaysExportZip !== undefined) out.alwaysExportZip = String(q.alwaysExportZip);
  return out;
}

export async function sendExportRequest(entry: OutboxEntry, ctx: SendContext): Promise<ExportAccepted> {
  const meta = isExportRequestMeta(entry.meta) ? entry.meta : null;
  try {
    return await apiRequest({
      method: 'POST',
      path: entry.path,
      query: entry.query,
      headers: { ...entry.headers, [IDEMPOTENCY_HEADER]: entry.id },
      body: entry.body,
      auth: 'header',
      schema: ExportAccepted,
    });
  } catch (e) {
    // Kept before the drain marks the entry refused (it leaves meta alone), so the tray can translate it.
    if (meta && isApiError(e) && e.kind === 'http' && e.status >= 400 && e.status < 500 && !e.loginRedirect) {
      const { refusedKey: _old, ...rest } = meta;
      await ctx.saveProgress({ meta: e.key ? { ...rest, refusedKey: e.key } : rest });
    }
    throw e;
  }
}

/** Once accepted: the tray and the jobs worker follow the export job. */
export async function followExportRequest(database: ArchiveDb, entry: OutboxEntry, result: unknown): Promise<void> {
  if (!isExportRequestMeta(entry.meta)) return;
  const parsed = ExportAccepted.safeParse(result);
  if (!parsed.success) return;
  const m = entry.meta;
  await trackJob(
    // Named by its kind, Count and format (jobs-view.ts jobTitleWords), as a device that learns of it from the server's list names it.
    { id: parsed.data.JobId, dbId: m.dbId, kind: EXPORT_JOB_KIND, total: parsed.data.Count, owner: entry.owner ?? null, format: m.format, archiveId: m.archiveId, entryId: entry.id },
    database,
  );
}

export const exportRequestKind: OutboxKind = {
  kind: EXPORT_REQUEST_KIND,
  send: sendExportRequest,
  response: ExportAccepted,
  followUp: followExportRequest,
};
registerKind(exportRequestKind);

export interface ExportRequestInput {
  settings: ExportSettings;
  query?: ExportQuery;
  count: number;
  title: string;
}

/** Keeps one export in the outbox (queued); the enqueue trigger sends it. Resolves with the entry's id. */
export async function enqueueExportRequest(input: ExportRequestInput, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  const s = input.settings;
  if ((s.Docs?.length ?? 0) > EXPORT_MAX_DOCUMENTS) throw new Error(`enqueueExportRequest: more than ${EXPORT_MAX_DOCUMENTS} documents`);
  const format = s.Format ?? 'zip';
  const titleWords = jobTitleWords({ kind: EXPORT_JOB_KIND, total: input.count, format });
  const meta: ExportRequestMeta = { dbId: s.DatabaseID, archiveId: s.ArchiveID, format, count: input.count, title: input.title, ...(titleWords ? { titleWords } : {}) };
  const query = exportQueryStrings(input.query ?? {});
  return enqueue(
    {
      kind: EXPORT_REQUEST_KIND,
      method: 'POST',
      path: exportPaths.job(s.DatabaseID),
      ...(Object.keys(query).length ? { query } : {}),
      body: s,
      meta,
      // Its own target: an export neither waits behind nor holds back any other change.
      target: `${s.DatabaseID}|${EXPORT_REQUEST_KIND}|${globalThis.crypto.randomUUID()}`,
    },
    database,
    owner,
  );
}
