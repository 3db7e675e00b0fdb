/**
 * Import documents with index data (the contract and its rules: src/api/import.ts; issue 11 item 3).
 *
 * ImportDocuments checks the call (licence, rights, archive, mapping, rows, files), then writes ONE job
 * of kind 'import' whose items are the staged rows (services/bulk-update.ts stageRows), each with its
 * values, its line and its file (resolved from the upload that brought it). The runner (jobs/runner.ts)
 * works an item through workImportItem in the item's own transaction: the row's values judged again
 * with the shared field rules (services/new-document.ts, as sending an inbox file to an archive judges
 * them) and one new document written with its file, pages, first version and history entry. A row is
 * imported once: the item's state and its document are one transaction, and a repeated call finds the
 * job its rows' Key named.
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, FIELD_PROPS } from '../../src/api/archives.js';
import type { BulkValue } from '../../src/api/bulk-update.js';
import { IMPORT_JOB_KIND, IMPORT_KEYS, type ImportAccepted, type ImportRequest } from '../../src/api/import.js';
import { JOB_REASON_KEYS } from '../../src/api/jobs.js';
import { FIELD_REGEX_MISMATCH_KEY } from '../../src/fields/codes.js';
import { isReadOnlyProp } from '../../src/fields/editability.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { imagePageCount, loadPdf } from '../files/page-budget.js';
import { ApiError, Errors } from '../http/errors.js';
import { archiveFields, type FieldRow } from '../search/model.js';
import { fieldRuleWords, finishInsert, insertJob, jobByKey, jobPlanContext, refuseReadOnly, requireAllRows, type Refusal } from './bulk-update.js';
import { archiveWithRights, requireDatabase, type Actor } from './documents.js';
import type { JobItemRow, JobRow } from './jobs.js';
import { PDF_CHECK_MAX_BYTES } from './file-check.js';
import { checkNewValues, insertDocument, isSystemFilled } from './new-document.js';
import { fileTypeOf } from './upload.js';

/** What an import job keeps of the call (jobs.payload). */
export interface ImportJobPayload {
  Call: 'ImportDocuments';
  csvPath: string;
  OverwriteSystem: boolean;
}

/** A row's file as the item keeps it: the stored file, 'none' (index data only) or 'missing' (not uploaded). */
type ItemFile = { Sha256: string; Name: string; Type: string } | 'none' | 'missing';
interface ImportItemVals {
  Values: BulkValue[];
  Line: number | null;
  File: ItemFile;
}

/** The archive an import may add to: view and add (2), not a versions archive, not the read-only licence. */
function importRefusal(a: { name: string; rights: number; props: number } | undefined): Refusal | null {
  if (!a || (a.rights & ARCHIVE_PERMISSIONS.view) === 0) return { reason: 'The archive does not exist', key: 'ERROR_NOT_FOUND', words: { Key: JOB_REASON_KEYS.notFound } };
  if ((a.rights & ARCHIVE_PERMISSIONS.add) === 0) return { reason: `You do not have permission to add documents to archive ${a.name}`, key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', words: { Key: JOB_REASON_KEYS.noAddRight, Params: { archive: a.name } } };
  if ((a.props & ARCHIVE_PROPS.versionsArchive) !== 0) return { reason: `Archive ${a.name} holds versions: documents are not added to it`, key: 'ERROR_INCORRECT_PARAMETERS', words: { Key: JOB_REASON_KEYS.versionsArchive, Params: { archive: a.name } } };
  return null;
}

/** Required fields the user must fill that the mapping leaves out (system fields are the server's). */
export function unmappedRequired(fields: readonly FieldRow[], req: Pick<ImportRequest, 'FieldMapping'>): FieldRow[] {
  const mapped = new Set(req.FieldMapping.filter((m) => m.Checked).map((m) => m.FieldID));
  return fields.filter((f) => (f.prop & FIELD_PROPS.required) !== 0 && !isReadOnlyProp(f.prop) && !isSystemFilled(f) && !f.extended_config?.liveField && !mapped.has(f.id));
}

/** POST api/dbs/{db}/import/ImportDocuments: the import job (or the one its rows' Key already made). */
export async function startImport(store: Store, actor: Actor, dbId: number, req: ImportRequest, now: Date): Promise<ImportAccepted> {
  refuseReadOnly(actor, 'import');
  if (req.Database !== dbId) throw Errors.badRequest(`Database ${req.Database} is not the database of this call (${dbId})`);
  await requireDatabase(store, dbId);
  const archive = await archiveWithRights(store, dbId, actor.userId, req.Archive);
  const refused = importRefusal(archive);
  if (refused) throw new ApiError(refused.key === 'ERROR_FAILED_DUE_TO_PERMISSIONS' ? 403 : refused.key === 'ERROR_NOT_FOUND' ? 404 : 400, refused.reason, refused.key);
  // The rows' key names the job: the same rows never make two jobs.
  const jobKey = `import-rows:${req.Key}`;
  const earlier = await jobByKey(store, actor.userId, jobKey, IMPORT_JOB_KIND);
  if (earlier) return earlier;

  const fields = await archiveFields(store, archive.id);
  const byId = new Map(fields.map((f) => [f.id, f]));
  const unknown = req.FieldMapping.filter((m) => !byId.has(m.FieldID));
  if (unknown.length) throw Errors.badRequest(`Incorrect parameters: field ${unknown.map((m) => m.FieldID).join(', ')} is not a field of archive ${archive.name}`);
  const missing = unmappedRequired(fields, req);
  if (missing.length) throw new ApiError(400, `Required fields are not mapped: ${missing.map((f) => f.name).join(', ')}`, IMPORT_KEYS.missingFields);
  await requireAllRows(store, actor.userId, req.Key, req.Total);

  const files = await resolveFiles(store, actor, dbId, archive.id, req);
  const payload: ImportJobPayload = { Call: 'ImportDocuments', csvPath: req.csvPath, OverwriteSystem: req.OverwriteSystem === true };
  const accepted = await store.transaction(async (tx) => {
    const id = await insertJob(tx, actor, dbId, archive.id, jobKey, payload, now, IMPORT_JOB_KIND);
    if (id === null) return jobByKey(tx, actor.userId, jobKey, IMPORT_JOB_KIND);
    // One item a row, in the file's order; an item has no document yet (document_id -(position + 1)).
    await tx.query(
      `INSERT INTO job_items (job_id, position, archive_id, document_id, state, vals)
       SELECT $1, r.position, $2, -(r.position + 1), 'pending',
              jsonb_build_object('Values', r.vals, 'Line', r.line, 'File',
                CASE WHEN r.file_index IS NULL THEN '"none"'::jsonb
                     ELSE coalesce(NULLIF($5::jsonb -> r.file_index, 'null'::jsonb), '"missing"'::jsonb) END)
         FROM bulk_update_rows r WHERE r.owner_id = $3 AND r.key = $4`,
      [id, archive.id, actor.userId, req.Key, JSON.stringify(files)],
    );
    await tx.query('DELETE FROM bulk_update_rows WHERE owner_id = $1 AND key = $2', [actor.userId, req.Key]);
    return finishInsert(tx, id, now, IMPORT_JOB_KIND);
  });
  if (!accepted) throw new Error('import job vanished');
  return accepted;
}

/** Each of Files as an item keeps it: the stored file of its finished upload to this archive, or null. */
async function resolveFiles(db: Queryable, actor: Actor, dbId: number, archiveId: number, req: ImportRequest): Promise<({ Sha256: string; Name: string; Type: string } | null)[]> {
  const ids = [...new Set(req.Files.flatMap((f) => (f.Upload ? [f.Upload] : [])))];
  const found = new Map<string, { file_name: string; sha256: string; state: string; target: { DatabaseID?: number; ArchiveID?: number } }>();
  for (let i = 0; i < ids.length; i += 5_000) {
    const r = await db.query<{ id: string; file_name: string; sha256: string; state: string; target: { DatabaseID?: number; ArchiveID?: number } }>(
      'SELECT id, file_name, sha256, state, target FROM uploads WHERE owner_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))',
      [actor.userId, JSON.stringify(ids.slice(i, i + 5_000))],
    );
    for (const u of r.rows) found.set(u.id, u);
  }
  return req.Files.map((f) => {
    const u = f.Upload ? found.get(f.Upload) : undefined;
    if (!u || u.state !== 'done' || u.target?.ArchiveID !== archiveId || u.target?.DatabaseID !== dbId) return null;
    return { Sha256: u.sha256, Name: u.file_name, Type: fileTypeOf(u.file_name) };
  });
}

// ---- The job's work (jobs/runner.ts, in the item's transaction) ----

/** Page counts of files already looked at (a file named by many rows is read once). */
const pageCounts = new Map<string, number>();

/** The pages of a stored file: a PDF's page count, a TIFF's directories, else 1. */
export async function pageCountOf(files: FileStore | undefined, sha256: string, type: string): Promise<number> {
  const known = pageCounts.get(sha256);
  if (known !== undefined) return known;
  let n = 1;
  if (files && (type === 'PDF' || type === 'TIF')) {
    try {
      const bytes = await files.get(sha256);
      // A larger PDF is not read for its page count (the count then says 1 until the viewer looks), as at upload.
      if (bytes.byteLength <= PDF_CHECK_MAX_BYTES) {
        n = type === 'PDF' ? (await loadPdf(bytes, { updateMetadata: false })).getPageCount() : await imagePageCount(bytes);
      }
    } catch {
      n = 1; // Not readable as its type: one page, as an unknown file.
    }
  }
  if (pageCounts.size > 10_000) pageCounts.clear();
  pageCounts.set(sha256, Math.max(1, n));
  return Math.max(1, n);
}

/**
 * One row of an import job: judged again (rights, the values by the field rules) and written as a new
 * document. Returns the new document's id, or why the row is refused ('Line {n}: reason' on the wire).
 */
export async function workImportItem(tx: Queryable, job: JobRow, item: JobItemRow, actor: Actor, now: Date, files: FileStore | undefined): Promise<{ docId: number } | { refusal: Refusal }> {
  const dbId = job.database_id!;
  const ctx = await jobPlanContext(tx, job, actor, now);
  const payload = (job.payload ?? {}) as Partial<ImportJobPayload>;
  const vals = (item.vals ?? {}) as Partial<ImportItemVals>;
  const archive = ctx.archives.get(item.archive_id);
  const refused = importRefusal(archive);
  if (refused) return { refusal: refused };
  const file = vals.File ?? 'none';
  if (file === 'missing') return { refusal: { reason: 'The file of this row was not uploaded', key: IMPORT_KEYS.fileMissing, words: { Key: JOB_REASON_KEYS.fileMissing } } };

  const fields = [...(await ctx.fieldsOf(item.archive_id)).values()];
  const overwriteSystem = payload.OverwriteSystem === true;
  const checked = await checkNewValues(tx, fields, Array.isArray(vals.Values) ? vals.Values : [], {
    overwriteSystem,
    readOnly: 'refuse',
    verdict: (f, v) => ctx.verdict(f, { ID: f.id, VAL: v.VAL ?? '', ...(v.MVAL ? { MVAL: v.MVAL } : {}) }),
  });
  if (checked.checks.length) {
    const key = checked.checks.some((c) => c.Code === -5) ? IMPORT_KEYS.missingFields : IMPORT_KEYS.datatypeMismatch;
    // One field's refusal is said in words; several stay the server's list (each its field's text).
    const only = checked.checks.length === 1 ? checked.checks[0]! : null;
    const name = only ? (fields.find((f) => f.id === only.ID)?.name ?? String(only.ID)) : '';
    return { refusal: { reason: checked.checks.map((c) => c.Message).join('; '), key, ...(only ? fieldRuleWords(name, only.MessageKey, only.MessageKey === FIELD_REGEX_MISMATCH_KEY ? only.Message : undefined) : {}) } };
  }
  const stored = file === 'none' ? null : { sha256: file.Sha256, file_name: file.Name, file_type: file.Type, page_count: await pageCountOf(files, file.Sha256, file.Type) };
  const line = typeof vals.Line === 'number' ? vals.Line : item.position + 2;
  const csv = payload.csvPath ?? 'CSV';
  const { docId } = await insertDocument(tx, {
    dbId,
    archiveId: item.archive_id,
    fields,
    values: checked.values,
    mvals: checked.mvals,
    file: stored,
    actor,
    now,
    overwriteSystem,
    comment: `Imported from ${csv}`,
    audit: {
      message: `Imported from ${csv} (line ${line})`,
      event: { Kind: 'indexed' },
      details: { JobId: job.id, Line: line, CsvFile: csv, ...(stored ? { FileName: stored.file_name } : {}) },
    },
  });
  return { docId };
}

