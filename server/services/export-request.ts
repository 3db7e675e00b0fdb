/**
 * Starting an export (POST api/dbs/{db}/export; the contract is src/api/export.ts): the request is
 * checked, its documents resolved and checked, and ONE job of kind 'export' is written with one
 * job_item a document, in the order the documents will go into the file. Nothing of the export is
 * done here: the job runner does it (services/export.ts). Every refusal happens before the job
 * exists, so a refused export leaves nothing behind.
 *
 * Repeats: the Idempotency-Key middleware replays the first answer; the key is also the job's key
 * (jobs.key, unique per owner), so a repeat whose first answer was lost in a crash still finds the
 * job the first call made instead of starting a second export.
 */
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import {
  EXPORT_IN_WORKFLOW_KEY,
  EXPORT_MAX_DOCUMENTS,
  EXPORT_NO_RESULTS_KEY,
  EXPORT_PDF_PENDING_KEY,
  EXPORT_PDF_WORKFLOW_PENDING_KEY,
  FORBIDDEN_NAME_CHARS,
  type ExportAccepted,
  type ExportFormat,
  type ExportSettings,
} from '../../src/api/export.js';
import { EXPORT_JOB_KIND } from '../../src/api/jobs.js';
import { archivesWithRights, withDescendants, type ArchiveRow } from '../auth/permissions.js';
import { intArray, type Queryable, type Store } from '../db/store.js';
import { ApiError, Errors } from '../http/errors.js';
import { fieldById, promptsOf, searchesOf, archiveFields } from '../search/model.js';
import { parseCriteria } from '../search/query.js';
import { matchingDocuments } from '../search/run.js';
import { requireDatabase, type Actor } from './documents.js';
import type { ExportJobParams } from './export.js';

export interface ExportQueryValues {
  field?: number;
  auditEntry: boolean;
  alwaysExportZip: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The right an export needs on each archive of its documents: 128 for files, 64 for Excel. */
export function exportBit(format: ExportFormat): number {
  return format === 'xlsx' ? ARCHIVE_PERMISSIONS.excelExport : ARCHIVE_PERMISSIONS.export;
}

function checkNames(s: ExportSettings) {
  for (const [name, value] of [
    ['FilePath', s.FilePath],
    ['Filename', s.Filename],
    ['CsvFile', s.CsvFile],
  ] as const) {
    if (value === undefined) continue;
    // the user-app spec §5: folder path and file name forbid \ / : * ? " < > |; control characters cannot name a file either.
    // eslint-disable-next-line no-control-regex
    if (FORBIDDEN_NAME_CHARS.test(value) || /[\u0000-\u001f]/.test(value)) throw Errors.badRequest(`${name} must not contain \\ / : * ? " < > | or control characters`);
    if (value.length > 200) throw Errors.badRequest(`${name} is longer than 200 characters`);
  }
  const fd = s.FieldDelimiter;
  const sd = s.StringDelimiter;
  if ([...fd].length !== 1 || [...sd].length !== 1 || /[\r\n]/.test(fd + sd)) throw Errors.badRequest('FieldDelimiter and StringDelimiter must each be one character (not a line break)');
  if (fd === sd) throw Errors.badRequest('FieldDelimiter and StringDelimiter must differ');
}

interface Resolved {
  docs: { archiveId: number; id: number }[];
}

/** Whether the user may run the saved search (as the results route decides). */
function runnable(search: { allowed: boolean; archives: number[] }, archives: ReadonlyMap<number, ArchiveRow>): boolean {
  return search.allowed && search.archives.some((a) => ((archives.get(a)?.rights ?? 0) & ARCHIVE_PERMISSIONS.view) !== 0);
}

/**
 * Every document of the saved search in ArchiveID (and its sub-archives the user may view) with
 * SearchCriteria, in the grid's default order: the search code the results route runs.
 */
async function searchDocuments(store: Store, actor: Actor, dbId: number, s: ExportSettings, list: ArchiveRow[], archives: Map<number, ArchiveRow>): Promise<Resolved> {
  if (s.SearchID === undefined) throw Errors.badRequest('Docs or SearchID is required');
  const [search] = await searchesOf(store, dbId, actor.userId, s.SearchID);
  if (!search) throw Errors.notFound(`Search ${s.SearchID} does not exist`);
  if (!runnable(search, archives)) throw Errors.forbidden('You do not have permission to run this search');
  const archive = archives.get(s.ArchiveID);
  if (!archive || !search.archives.some((a) => withDescendants(list, a).includes(s.ArchiveID))) throw Errors.notFound(`Archive ${s.ArchiveID} is not searched by this search`);
  if ((archive.rights & ARCHIVE_PERMISSIONS.view) === 0) throw Errors.forbidden('You do not have permission to view this archive');
  const conds = parseCriteria(s.SearchCriteria, await promptsOf(store, search.id));
  const archiveIds = withDescendants(list, s.ArchiveID).filter((id) => ((archives.get(id)?.rights ?? 0) & ARCHIVE_PERMISSIONS.view) !== 0);
  const fields = await archiveFields(store, s.ArchiveID);
  const found = await matchingDocuments(store, { archiveIds, fields }, conds, { trgm: store.hasTrgm, sort: [], limit: EXPORT_MAX_DOCUMENTS + 1 });
  if (found.length > EXPORT_MAX_DOCUMENTS) throw Errors.badRequest(`An export takes at most ${EXPORT_MAX_DOCUMENTS} documents; this search finds more`);
  return { docs: found };
}

/**
 * The documents that wait for PDF conversion or are in a workflow: the spec's three refusals
 * (the user-app spec §8 reads the Message: "PDF conversion", "workflow", or both).
 */
async function refuseHeld(db: Queryable, ids: readonly number[]) {
  const r = await db.query<{ id: number; pdf_pending: boolean; in_workflow: boolean }>(
    'SELECT id, pdf_pending, in_workflow FROM documents WHERE (pdf_pending OR in_workflow) AND NOT deleted AND id = ANY($1::bigint[]) ORDER BY id',
    [intArray(ids)],
  );
  if (!r.rowCount) return;
  const pending = r.rows.filter((d) => d.pdf_pending).map((d) => Number(d.id));
  const workflow = r.rows.filter((d) => d.in_workflow).map((d) => Number(d.id));
  const list = (xs: number[]) => `DocID ${xs.slice(0, 10).join(', ')}${xs.length > 10 ? ', ...' : ''}`;
  const parts: string[] = [];
  if (pending.length) parts.push(`${plural(pending.length, 'document waits', 'documents wait')} for PDF conversion (${list(pending)})`);
  if (workflow.length) parts.push(`${plural(workflow.length, 'document is', 'documents are')} in a workflow (${list(workflow)})`);
  const key = pending.length && workflow.length ? EXPORT_PDF_WORKFLOW_PENDING_KEY : pending.length ? EXPORT_PDF_PENDING_KEY : EXPORT_IN_WORKFLOW_KEY;
  throw new ApiError(409, `Cannot export yet: ${parts.join('; ')}`, key);
}

/** The job of an earlier call with this Idempotency-Key, if there is one. */
async function jobByKey(db: Queryable, ownerId: number, key: string): Promise<ExportAccepted | null> {
  const r = await db.query<{ id: number; state: string; total: number; kind: string }>('SELECT id, state, total, kind FROM jobs WHERE owner_id = $1 AND key = $2', [ownerId, key]);
  const j = r.rows[0];
  if (!j) return null;
  if (j.kind !== EXPORT_JOB_KIND) throw Errors.badRequest('This Idempotency-Key was used for another job');
  return { JobId: Number(j.id), State: j.state, Count: Number(j.total) };
}

/**
 * Checks the request and writes its job (queued; the caller wakes the runner). Refusals, in order:
 * the read-only licence for Excel (403); the request itself (400: DatabaseID,
 * names, delimiters, field ids, too many documents); unknown database, search or archive (404); no
 * view or no export right on an archive of the documents (403); nothing to export (400
 * ERROR_EXPORT_NO_RESULTS); documents held back (409, the three keys).
 */
export async function startExport(store: Store, actor: Actor, dbId: number, s: ExportSettings, q: ExportQueryValues, now: Date, idempotencyKey?: string): Promise<ExportAccepted> {
  const format: ExportFormat = s.Format ?? 'zip';
  if (format === 'xlsx' && actor.licenceType === 4) throw Errors.forbidden('A read-only licence cannot export to Excel');
  if (s.DatabaseID !== dbId) throw Errors.badRequest(`DatabaseID ${s.DatabaseID} is not the database of this call (${dbId})`);
  checkNames(s);
  await requireDatabase(store, dbId);
  const jobKey = idempotencyKey ? `export:${idempotencyKey}` : null;
  if (jobKey) {
    const earlier = await jobByKey(store, actor.userId, jobKey);
    if (earlier) return earlier;
  }
  for (const id of [...(s.FieldIDs ?? []), ...(q.field !== undefined ? [q.field] : [])]) {
    if (!(await fieldById(store, dbId, id))) throw Errors.badRequest(`Field ${id} is not a field of database ${dbId}`);
  }

  const list = await archivesWithRights(store, dbId, actor.userId);
  const archives = new Map(list.map((a) => [a.id, a]));
  let resolved: Resolved;
  if (s.Docs && s.Docs.length > 0) {
    if (s.Docs.length > EXPORT_MAX_DOCUMENTS) throw Errors.badRequest(`An export takes at most ${EXPORT_MAX_DOCUMENTS} documents`);
    const seen = new Set<number>();
    resolved = { docs: [] };
    for (const d of s.Docs) {
      if (seen.has(d.DocID)) continue;
      seen.add(d.DocID);
      resolved.docs.push({ archiveId: d.ArchiveID, id: d.DocID });
    }
  } else {
    resolved = await searchDocuments(store, actor, dbId, s, list, archives);
  }

  const bit = exportBit(format);
  for (const archiveId of new Set(resolved.docs.map((d) => d.archiveId))) {
    const a = archives.get(archiveId);
    if (!a) throw Errors.notFound(`Archive ${archiveId} does not exist`);
    if ((a.rights & ARCHIVE_PERMISSIONS.view) === 0) throw Errors.forbidden(`You do not have permission to view archive ${a.name}`);
    if ((a.rights & bit) === 0) throw Errors.forbidden(format === 'xlsx' ? `You do not have permission to export documents of archive ${a.name} to Excel` : `You do not have permission to export documents of archive ${a.name}`);
  }

  // Documents named by Docs that are gone (or not in the archive named) stay in the job and fail
  // there as 'DocID {id}: reason', like any document that goes while the export runs; only when
  // none is left is there nothing to export.
  const ids = resolved.docs.map((d) => d.id);
  const live = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM documents WHERE NOT deleted AND id = ANY($1::bigint[])', [intArray(ids)]);
  if (!ids.length || !live.rows[0]?.n) throw new ApiError(400, 'There is nothing to export: no documents match', EXPORT_NO_RESULTS_KEY);
  await refuseHeld(store, ids);

  // The documents are the job's items; kept out of payload, which every job listing reads (100,000 Docs are ~4 MB).
  const { Docs: _docs, ...settings } = s;
  const params: ExportJobParams = { settings, format, field: q.field ?? null, auditEntry: q.auditEntry, alwaysExportZip: q.alwaysExportZip };
  const accepted = await store.transaction(async (tx) => {
    const ins = await tx.query<{ id: number }>(
      `INSERT INTO jobs (kind, state, total, received, owner_id, database_id, key, archive_id, payload, notes, created_at, updated_at)
       VALUES ($1, 'queued', $2::int, $2::int, $3, $4, $5, $6, $7::jsonb, '[]'::jsonb, $8, $8)
       ON CONFLICT (owner_id, key) WHERE key IS NOT NULL DO NOTHING RETURNING id`,
      [EXPORT_JOB_KIND, ids.length, actor.userId, dbId, jobKey, s.ArchiveID, JSON.stringify(params), now],
    );
    const id = ins.rows[0]?.id;
    // Two calls with one key at once: the other one wrote the job.
    if (id === undefined) return jobByKey(tx, actor.userId, jobKey ?? '');
    await tx.query(
      `INSERT INTO job_items (job_id, position, archive_id, document_id, state)
       SELECT $1, t.pos - 1, t.a, t.d, 'pending' FROM unnest($2::int[], $3::bigint[]) WITH ORDINALITY AS t(a, d, pos)`,
      [id, intArray(resolved.docs.map((d) => d.archiveId)), intArray(ids)],
    );
    return { JobId: Number(id), State: 'queued', Count: ids.length };
  });
  if (!accepted) throw new Error('export job vanished');
  return accepted;
}
