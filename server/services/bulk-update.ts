/**
 * Bulk update (the contract is src/api/bulk-update.ts): the three Count calls (a dry run), the four
 * Update calls (one job of kind 'bulk-update', one item a document that changes, worked by jobs/runner.ts through
 * workBulkUpdateItem) and the staging of a CSV update's rows.
 *
 * What is stored where: a CSV update's rows in bulk_update_rows under (owner, key) until its update
 * takes them (migration 013); a job's values in jobs.payload (basic: one set for every document) or
 * in job_items.vals (CSV: each document its row's). The documents themselves change as PUT FieldData
 * changes them (services/field-edits.ts): fields/mvals, "last modified by" fields, one 'updated'
 * history entry naming each changed field, and the rev trigger of migration 005 bumps Rev and
 * field_revs, so open grids and queued edits see the change.
 *
 * One judgement for the dry run and the job: planDocument decides, from a document's stored values
 * and the new values, what changes or why the document is refused. The count runs it over the
 * documents in the job's order; the job runs it again on each locked document, so with nothing else
 * changing the documents meanwhile the job changes exactly what the count said.
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, FIELD_PROPS } from '../../src/api/archives.js';
import {
  BULK_UPDATE_BATCH_ROWS,
  BULK_UPDATE_DRY_RUN_LIMIT,
  BULK_UPDATE_JOB_KIND,
  BULK_UPDATE_MAX_ROWS,
  BULK_UPDATE_ROWS_KEEP_HOURS,
  BULK_UPDATE_ROWS_MISSING_KEY,
  CSV_UPDATE_DIRECT_SEARCH_REQUIRED_KEY,
  UPDATE_REVISION_ARCHIVE_KEY,
  bulkRefusalMessage,
  type BasicBulkUpdate,
  type BulkChange,
  type BulkRefusal,
  type BulkUpdateAccepted,
  type BulkUpdateCount,
  type BulkValue,
  type CsvBulkUpdate,
  type CsvRowBatch,
  type CsvRowsReceived,
} from '../../src/api/bulk-update.js';
import { JOB_REASON_KEYS, type JobReasonWords } from '../../src/api/jobs.js';
import { documentLabelOf } from '../../src/fields/document-label.js';
import { isReadOnlyProp } from '../../src/fields/editability.js';
import type { FieldValueResult } from '../../src/fields/rules.js';
import { archivesWithRights, withDescendants, type ArchiveRow } from '../auth/permissions.js';
import { intArray, type Queryable, type Store } from '../db/store.js';
import { ApiError, Errors } from '../http/errors.js';
import { archiveFields, isMulti, promptsOf, searchesOf, type FieldRow } from '../search/model.js';
import { parseCriteria } from '../search/query.js';
import { matchingDocuments } from '../search/run.js';
import { writeAudit } from './audit.js';
import { requireDatabase, type Actor } from './documents.js';
import { outsideDynamicList, revalidate } from './field-edits.js';
import type { JobItemRow, JobRow } from './jobs.js';

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const mvalOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : []);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

interface DocState {
  id: number;
  archive_id: number;
  fields: Record<string, unknown>;
  mvals: Record<string, unknown>;
  checked_out_by: number | null;
  file_name: string | null;
}

export interface Refusal {
  reason: string;
  key?: string;
  /** The reason as a message key and its parts (the client words it: src/api/jobs.ts JobReasonWords). */
  words?: JobReasonWords;
}
interface PlannedChange {
  field: FieldRow;
  old: string;
  now: string;
  value: string | string[];
}
export type Plan = { changes: PlannedChange[] } | { refusal: Refusal };

/**
 * What the judgement needs beyond the document, read once per count or job pass: the user's archives
 * with rights, each archive's fields, and the field rules' verdict per distinct value (a CSV of
 * 100,000 rows has few distinct values per list field; each is looked up once).
 */
export class PlanContext {
  constructor(
    readonly db: Queryable,
    readonly archives: ReadonlyMap<number, ArchiveRow>,
    readonly actor: Actor,
    private readonly fields = new Map<number, Map<number, FieldRow>>(),
    private readonly verdicts = new Map<string, FieldValueResult>(),
  ) {}

  /** The same judgement through another connection (a job's next transaction). */
  withDb(db: Queryable): PlanContext {
    return new PlanContext(db, this.archives, this.actor, this.fields, this.verdicts);
  }

  static async open(db: Queryable, dbId: number, actor: Actor): Promise<PlanContext> {
    const list = await archivesWithRights(db, dbId, actor.userId);
    return new PlanContext(db, new Map(list.map((a) => [a.id, a])), actor);
  }

  async fieldsOf(archiveId: number): Promise<Map<number, FieldRow>> {
    let m = this.fields.get(archiveId);
    if (!m) {
      m = new Map((await archiveFields(this.db, archiveId)).map((f) => [f.id, f]));
      this.fields.set(archiveId, m);
    }
    return m;
  }

  async verdict(f: FieldRow, v: BulkValue): Promise<FieldValueResult> {
    const k = `${f.id}\u0000${v.VAL ?? ''}\u0000${(v.MVAL ?? []).join('\u0001')}`;
    let r = this.verdicts.get(k);
    if (!r) {
      r = await revalidate(this.db, f, { ID: v.ID, VAL: v.VAL ?? null, MVAL: v.MVAL ?? null });
      this.verdicts.set(k, r);
    }
    return r;
  }
}

/** Why an archive takes no bulk update, or null (the user-app spec §5: revision control; bit 1024). */
export function archiveRefusal(a: ArchiveRow | undefined): Refusal | null {
  if (!a || (a.rights & ARCHIVE_PERMISSIONS.view) === 0) return { reason: 'The document does not exist', key: 'ERROR_NOT_FOUND', words: { Key: JOB_REASON_KEYS.notFound } };
  if ((a.props & ARCHIVE_PROPS.revisionControl) !== 0) return { reason: `Archive ${a.name} is under revision control and cannot be bulk updated`, key: UPDATE_REVISION_ARCHIVE_KEY, words: { Key: JOB_REASON_KEYS.revisionArchive, Params: { archive: a.name } } };
  if ((a.rights & ARCHIVE_PERMISSIONS.edit) === 0) return { reason: `You do not have permission to edit documents of archive ${a.name}`, key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', words: { Key: JOB_REASON_KEYS.noEditRight, Params: { archive: a.name } } };
  return null;
}

/**
 * A field rule's refusal in words: the rule's key with the field's name (a RegEx's own comment text is
 * the administrator's words, not ours: that reason stays as written).
 */
export function fieldRuleWords(field: string, ruleKey: string | undefined, literal: string | undefined): { words?: JobReasonWords } {
  if (!ruleKey || literal) return {};
  return { words: { Key: JOB_REASON_KEYS.fieldRule, Params: { field, rule: ruleKey } } };
}

/** The one judgement of a document (dry run and job alike). `doc` null: gone or not in that archive. */
export async function planDocument(ctx: PlanContext, archiveId: number, doc: DocState | null, values: readonly BulkValue[]): Promise<Plan> {
  const refused = archiveRefusal(ctx.archives.get(archiveId));
  if (refused) return { refusal: refused };
  if (!doc || doc.archive_id !== archiveId) {
    const archive = ctx.archives.get(archiveId)?.name ?? String(archiveId);
    return { refusal: { reason: `The document does not exist in archive ${archive}`, key: 'ERROR_NOT_FOUND', words: { Key: JOB_REASON_KEYS.notInArchive, Params: { archive } } } };
  }
  if (doc.checked_out_by !== null && doc.checked_out_by !== ctx.actor.userId) return { refusal: { reason: 'The document is checked out by another user', key: 'ERROR_DOCUMENT_CHECKED_OUT', words: { Key: JOB_REASON_KEYS.checkedOut } } };
  const fields = await ctx.fieldsOf(archiveId);
  const changes: PlannedChange[] = [];
  for (const v of values) {
    const f = fields.get(v.ID);
    if (!f) return { refusal: { reason: `Field ${v.ID} is not a field of this archive`, key: 'FIELD_NOT_FOUND', words: { Key: JOB_REASON_KEYS.notAField, Params: { field: v.ID } } } };
    if (isReadOnlyProp(f.prop) || Boolean(f.extended_config?.liveField)) return { refusal: { reason: `Field ${f.name} is read-only`, words: { Key: JOB_REASON_KEYS.readOnlyField, Params: { field: f.name } } } };
    const r = await ctx.verdict(f, v);
    if (r.code !== 0) return { refusal: { reason: r.message ?? `Field ${f.name}: invalid value`, ...(r.key ? { key: r.key } : {}), ...fieldRuleWords(f.name, r.key, r.message) } };
    const key = String(f.id);
    if (isMulti(f)) {
      const next = r.normalizedMVAL ?? [];
      const before = mvalOf(doc.mvals?.[key]);
      if (!sameList(before, next)) changes.push({ field: f, old: before.join(', '), now: next.join(', '), value: next });
    } else {
      const next = r.normalized ?? '';
      const before = text(doc.fields?.[key]);
      if (before !== next) changes.push({ field: f, old: before, now: next, value: next });
    }
  }
  // Dynamic lists (Prop 128) hold only the values their parent fields allow, judged on the document
  // as it will be (the update may change a parent and the child together), as PUT FieldData judges.
  if (changes.some((c) => (c.field.prop & FIELD_PROPS.dynamicDropdown) !== 0)) {
    const after = { ...(doc.fields ?? {}) };
    for (const c of changes) if (!Array.isArray(c.value)) after[String(c.field.id)] = c.value;
    for (const c of changes) {
      const bad = await outsideDynamicList(ctx.db, c.field, c.value, after);
      if (bad) return { refusal: { reason: bad.Message ?? `Field ${c.field.name}: not an item of its list`, ...(bad.MessageKey ? { key: bad.MessageKey } : {}), ...fieldRuleWords(c.field.name, bad.MessageKey, undefined) } };
    }
  }
  return { changes };
}

const DOC_COLUMNS = 'id, archive_id, fields, mvals, checked_out_by, file_name';
const docRow = (d: DocState): DocState => ({ ...d, id: Number(d.id), checked_out_by: d.checked_out_by === null ? null : Number(d.checked_out_by) });

async function docsById(db: Queryable, ids: readonly number[]): Promise<Map<number, DocState>> {
  if (!ids.length) return new Map();
  const r = await db.query<DocState>(`SELECT ${DOC_COLUMNS} FROM documents WHERE NOT deleted AND id = ANY($1::bigint[])`, [intArray(ids)]);
  return new Map(r.rows.map((d) => [Number(d.id), docRow(d)]));
}

/** One document of an update, in the job's order, with its values. */
interface Target {
  archiveId: number;
  docId: number;
  values: readonly BulkValue[];
  line?: number;
}

/** The document as the grid names it (its first character field with a value, else its file name), for the dry run's list. */
async function nameOf(ctx: PlanContext, archiveId: number, doc: DocState): Promise<string> {
  const fields = [...(await ctx.fieldsOf(archiveId)).values()].map((f) => ({ ID: f.id, Type: f.type }));
  const values = Object.entries(doc.fields ?? {}).map(([id, v]) => ({ ID: Number(id), VAL: text(v) }));
  return documentLabelOf({ FileName: doc.file_name, Fields: values }, fields);
}

/** Runs the judgement over the targets (in chunks) and adds up the count. */
async function countTargets(ctx: PlanContext, targets: AsyncIterable<Target[]>, limit: number): Promise<BulkUpdateCount> {
  const out: BulkUpdateCount = { Count: 0, Documents: 0, Unchanged: 0, RefusedCount: 0, Changes: [], Refused: [] };
  for await (const chunk of targets) {
    const docs = await docsById(ctx.db, chunk.map((t) => t.docId));
    for (const t of chunk) {
      out.Documents++;
      const plan = await planDocument(ctx, t.archiveId, docs.get(t.docId) ?? null, t.values);
      if ('refusal' in plan) {
        out.RefusedCount++;
        if (out.Refused.length < limit) out.Refused.push(refusalWire(t.docId, plan.refusal, t.line));
      } else if (plan.changes.length === 0) {
        out.Unchanged++;
      } else {
        out.Count++;
        if (out.Changes.length >= limit) continue;
        const Name = await nameOf(ctx, t.archiveId, docs.get(t.docId)!);
        for (const c of plan.changes) if (out.Changes.length < limit) out.Changes.push({ DocID: t.docId, ArchiveID: t.archiveId, FieldID: c.field.id, Old: c.old, New: c.now, Name } satisfies BulkChange);
      }
    }
  }
  return out;
}

const refusalWire = (docId: number, r: Refusal, line?: number): BulkRefusal => ({
  DocID: docId,
  Reason: r.reason,
  ...(r.key ? { Key: r.key } : {}),
  ...(r.words ? { ReasonWords: r.words } : {}),
  ...(line !== undefined ? { Line: line } : {}),
  Message: bulkRefusalMessage(docId, r.reason),
});

async function* inChunks<T>(items: readonly T[], size = 500): AsyncIterable<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The read-only licence (4) changes no document: 403 naming what it may not do. */
export function refuseReadOnly(actor: Actor, what = 'bulk update') {
  if (actor.licenceType === 4) throw Errors.forbidden(`A read-only licence cannot ${what} documents`);
}

function checkDatabase(bodyDb: number, dbId: number) {
  if (bodyDb !== dbId) throw Errors.badRequest(`DatabaseID ${bodyDb} is not the database of this call (${dbId})`);
}

/** The saved search's documents in an archive and its sub-archives the user may view (grid order). */
async function searchTargets(store: Store, ctx: PlanContext, dbId: number, searchId: number, archiveId: number, criteria: string | undefined, limit: number): Promise<{ archiveId: number; id: number }[]> {
  const [search] = await searchesOf(store, dbId, ctx.actor.userId, searchId);
  if (!search) throw Errors.notFound(`Search ${searchId} does not exist`);
  const list = [...ctx.archives.values()];
  if (!search.allowed || !search.archives.some((a) => ((ctx.archives.get(a)?.rights ?? 0) & ARCHIVE_PERMISSIONS.view) !== 0)) throw Errors.forbidden('You do not have permission to run this search');
  const archive = ctx.archives.get(archiveId);
  if (!archive || !search.archives.some((a) => withDescendants(list, a).includes(archiveId))) throw Errors.notFound(`Archive ${archiveId} is not searched by this search`);
  const conds = parseCriteria(criteria, await promptsOf(store, search.id));
  const archiveIds = withDescendants(list, archiveId).filter((id) => ((ctx.archives.get(id)?.rights ?? 0) & ARCHIVE_PERMISSIONS.view) !== 0);
  const fields = await archiveFields(store, archiveId);
  return matchingDocuments(store, { archiveIds, fields }, conds, { trgm: store.hasTrgm, sort: [], limit });
}

/** The documents of a basic update, in order: the checked ones (first of each id) or the search's. */
async function basicDocs(store: Store, ctx: PlanContext, dbId: number, b: BasicBulkUpdate): Promise<{ archiveId: number; id: number }[]> {
  const a = ctx.archives.get(b.ArchiveID);
  if (!a) throw Errors.notFound(`Archive ${b.ArchiveID} does not exist`);
  // the user-app spec §5: a revision-control archive takes no bulk update at all.
  if ((a.props & ARCHIVE_PROPS.revisionControl) !== 0) throw new ApiError(400, `Archive ${a.name} is under revision control and cannot be bulk updated`, UPDATE_REVISION_ARCHIVE_KEY);
  if ((a.rights & ARCHIVE_PERMISSIONS.edit) === 0) throw Errors.forbidden(`You do not have permission to edit documents of archive ${a.name}`);
  if (b.UpdateType === 'documentSelectUpdate') {
    if (!b.Docs?.length) throw new ApiError(400, 'No documents selected', 'ERROR_NO_DOCUMENTS_SELECTED');
    const seen = new Set<number>();
    return b.Docs.filter((d) => !seen.has(d.DocID) && Boolean(seen.add(d.DocID))).map((d) => ({ archiveId: d.ArchiveID, id: d.DocID }));
  }
  const found = await searchTargets(store, ctx, dbId, b.SearchID, b.ArchiveID, b.SearchInfo.SearchCriteria, BULK_UPDATE_MAX_ROWS + 1);
  if (found.length > BULK_UPDATE_MAX_ROWS) throw Errors.badRequest(`A bulk update takes at most ${BULK_UPDATE_MAX_ROWS} documents; this search finds more`);
  return found;
}

function checkValues(values: readonly BulkValue[]) {
  const ids = new Set<number>();
  for (const v of values) {
    if (ids.has(v.ID)) throw Errors.badRequest(`Field ${v.ID} is given twice`);
    ids.add(v.ID);
  }
}

export async function countBasic(store: Store, actor: Actor, dbId: number, b: BasicBulkUpdate): Promise<BulkUpdateCount> {
  refuseReadOnly(actor);
  checkDatabase(b.DatabaseID, dbId);
  checkValues(b.Values);
  await requireDatabase(store, dbId);
  const ctx = await PlanContext.open(store, dbId, actor);
  const docs = await basicDocs(store, ctx, dbId, b);
  const targets = docs.map((d) => ({ archiveId: d.archiveId, docId: d.id, values: b.Values }));
  return countTargets(ctx, inChunks(targets), b.Limit ?? BULK_UPDATE_DRY_RUN_LIMIT);
}

/**
 * The targets the count said change (planDocument, in the count's order): a job takes only these, so
 * it does exactly what the user confirmed ("1 document will be updated" is a job of 1). Documents
 * that already hold the values or that the count refused take no item; the job judges each item again
 * when it works it (rights or values may change meanwhile).
 */
async function changingTargets(ctx: PlanContext, targets: AsyncIterable<Target[]>): Promise<Target[]> {
  const out: Target[] = [];
  for await (const chunk of targets) {
    const docs = await docsById(ctx.db, chunk.map((t) => t.docId));
    for (const t of chunk) {
      const plan = await planDocument(ctx, t.archiveId, docs.get(t.docId) ?? null, t.values);
      if ('changes' in plan && plan.changes.length > 0) out.push(t);
    }
  }
  return out;
}

// ---- CSV rows ----

/** Stages a batch of CSV rows under its Key (a bulk update's, or an import's: services/import.ts). */
export async function stageRows(store: Store, actor: Actor, dbId: number, batch: CsvRowBatch, now: Date, what = 'bulk update'): Promise<CsvRowsReceived> {
  refuseReadOnly(actor, what);
  await requireDatabase(store, dbId);
  const first = batch.Index * BULK_UPDATE_BATCH_ROWS;
  if (first + batch.Rows.length > batch.Total) throw Errors.badRequest(`Batch ${batch.Index} goes past row ${batch.Total}`);
  const rows = batch.Rows;
  await store.query(
    `INSERT INTO bulk_update_rows (owner_id, key, position, archive_id, document_id, criteria, vals, line, file_index, created_at)
     SELECT $1, $2, $3 + t.i - 1, (t.r->>'ArchiveID')::int, (t.r->>'DocID')::bigint, t.r->>'Criteria', t.r->'Values', (t.r->>'Line')::int, (t.r->>'File')::int, $5
       FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(r, i)
     ON CONFLICT (owner_id, key, position) DO NOTHING`,
    [actor.userId, batch.Key, first, JSON.stringify(rows), now],
  );
  const n = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM bulk_update_rows WHERE owner_id = $1 AND key = $2', [actor.userId, batch.Key]);
  return { Received: Number(n.rows[0]?.n ?? 0), Total: batch.Total };
}

interface StagedRow {
  position: number;
  archive_id: number | null;
  document_id: number | null;
  criteria: string | null;
  vals: BulkValue[];
  line: number | null;
}

export async function requireAllRows(db: Queryable, ownerId: number, key: string, total: number) {
  const r = await db.query<{ n: number; top: number | null }>('SELECT count(*)::int AS n, max(position) AS top FROM bulk_update_rows WHERE owner_id = $1 AND key = $2', [ownerId, key]);
  const n = Number(r.rows[0]?.n ?? 0);
  if (n !== total || (n > 0 && Number(r.rows[0]?.top) !== total - 1)) throw new ApiError(409, `${n} of the ${total} rows have arrived`, BULK_UPDATE_ROWS_MISSING_KEY);
}

async function* stagedRows(db: Queryable, ownerId: number, key: string, size = 1_000): AsyncIterable<StagedRow[]> {
  for (let from = 0; ; from += size) {
    const r = await db.query<StagedRow>(
      'SELECT position, archive_id, document_id, criteria, vals, line FROM bulk_update_rows WHERE owner_id = $1 AND key = $2 AND position >= $3 AND position < $4 ORDER BY position',
      [ownerId, key, from, from + size],
    );
    if (!r.rows.length) return;
    yield r.rows.map((x) => ({ ...x, document_id: x.document_id === null ? null : Number(x.document_id), vals: Array.isArray(x.vals) ? x.vals : [] }));
  }
}

/** A direct CSV update's targets: each row's document, the first row of a document wins (as in the job). */
async function* directTargets(db: Queryable, ownerId: number, key: string, refused: (t: Target, r: Refusal) => void): AsyncIterable<Target[]> {
  const seen = new Set<number>();
  for await (const rows of stagedRows(db, ownerId, key)) {
    const out: Target[] = [];
    for (const row of rows) {
      const t = { archiveId: row.archive_id ?? 0, docId: row.document_id ?? 0, values: row.vals, ...(row.line !== null ? { line: row.line } : {}) };
      if (!row.archive_id || !row.document_id) {
        refused(t, { reason: 'DocumentID and ArchiveID are required', key: 'ERROR_INCORRECT_PARAMETERS', words: { Key: JOB_REASON_KEYS.notFound } });
        continue;
      }
      if (seen.has(row.document_id)) continue;
      seen.add(row.document_id);
      out.push(t);
    }
    yield out;
  }
}

/** A search update's targets: each row's search run with its criteria; a document matched by several rows takes the first. */
async function* searchUpdateTargets(store: Store, ctx: PlanContext, dbId: number, c: CsvBulkUpdate): AsyncIterable<Target[]> {
  const seen = new Set<number>();
  for await (const rows of stagedRows(store, ctx.actor.userId, c.Key, 100)) {
    const out: Target[] = [];
    for (const row of rows) {
      const found = await searchTargets(store, ctx, dbId, c.SearchID!, c.ArchiveID!, row.criteria ?? '', BULK_UPDATE_MAX_ROWS);
      for (const d of found) {
        if (seen.has(d.id)) continue;
        seen.add(d.id);
        out.push({ archiveId: d.archiveId, docId: d.id, values: row.vals, ...(row.line !== null ? { line: row.line } : {}) });
      }
    }
    yield out;
  }
}

function checkSearch(c: CsvBulkUpdate, search: boolean) {
  if (search && (c.SearchID === undefined || c.ArchiveID === undefined)) throw new ApiError(400, 'A CSV search update needs a selected search', CSV_UPDATE_DIRECT_SEARCH_REQUIRED_KEY);
}

export async function countCsv(store: Store, actor: Actor, dbId: number, c: CsvBulkUpdate, search: boolean): Promise<BulkUpdateCount> {
  refuseReadOnly(actor);
  checkDatabase(c.DatabaseID, dbId);
  checkSearch(c, search);
  await requireDatabase(store, dbId);
  await requireAllRows(store, actor.userId, c.Key, c.Total);
  const ctx = await PlanContext.open(store, dbId, actor);
  const limit = c.Limit ?? BULK_UPDATE_DRY_RUN_LIMIT;
  const early: BulkRefusal[] = [];
  const targets = search ? searchUpdateTargets(store, ctx, dbId, c) : directTargets(store, actor.userId, c.Key, (t, r) => early.push(refusalWire(t.docId, r, t.line)));
  const out = await countTargets(ctx, targets, limit);
  out.RefusedCount += early.length;
  out.Documents += early.length;
  out.Refused = [...early, ...out.Refused].slice(0, limit);
  return out;
}

// ---- Starting the job ----

/** The job of an earlier call with this key (a repeat whose answer was lost finds the same job). */
export async function jobByKey(db: Queryable, ownerId: number, key: string, kind: string = BULK_UPDATE_JOB_KIND): Promise<BulkUpdateAccepted | null> {
  const r = await db.query<{ id: number; state: string; total: number; kind: string }>('SELECT id, state, total, kind FROM jobs WHERE owner_id = $1 AND key = $2', [ownerId, key]);
  const j = r.rows[0];
  if (!j) return null;
  if (j.kind !== kind) throw Errors.badRequest('This key was used for another job');
  return { JobId: Number(j.id), State: j.state, Count: Number(j.total) };
}

export interface BulkJobPayload {
  /** A basic update's values (every item); a CSV item has its own (job_items.vals). */
  Values?: BulkValue[];
  Call: string;
}

/** Inserts a job of `kind` (bulk update, or import: services/import.ts) unless its key has one; its id, or null. */
export async function insertJob(tx: Queryable, actor: Actor, dbId: number, archiveId: number | null, jobKey: string, payload: object, now: Date, kind: string = BULK_UPDATE_JOB_KIND): Promise<number | null> {
  const ins = await tx.query<{ id: number }>(
    `INSERT INTO jobs (kind, state, total, received, owner_id, database_id, key, archive_id, payload, notes, created_at, updated_at)
     VALUES ($1, 'queued', 0, 0, $2, $3, $4, $5, $6::jsonb, '[]'::jsonb, $7, $7)
     ON CONFLICT (owner_id, key) WHERE key IS NOT NULL DO NOTHING RETURNING id`,
    [kind, actor.userId, dbId, jobKey, archiveId, JSON.stringify(payload), now],
  );
  return ins.rows[0]?.id === undefined ? null : Number(ins.rows[0].id);
}

/** Sets the job's Count to its items (an empty job ends at once as done); its note names `action`. */
export async function finishInsert(tx: Queryable, jobId: number, now: Date, action: string = BULK_UPDATE_JOB_KIND): Promise<BulkUpdateAccepted> {
  const r = await tx.query<{ total: number; state: string }>(
    `UPDATE jobs SET total = t.n, received = t.n, state = CASE WHEN t.n = 0 THEN 'done' ELSE 'queued' END, finished_at = CASE WHEN t.n = 0 THEN $2::timestamptz ELSE NULL END,
            notes = jsonb_build_array(jsonb_build_array(5, jsonb_build_object('Action', $3::text, 'Count', t.n, 'Succeeded', 0, 'Failed', 0)))
       FROM (SELECT count(*)::int AS n FROM job_items WHERE job_id = $1) t WHERE id = $1 RETURNING total, state`,
    [jobId, now, action],
  );
  return { JobId: jobId, State: r.rows[0]!.state, Count: Number(r.rows[0]!.total) };
}

export async function startBasic(store: Store, actor: Actor, dbId: number, b: BasicBulkUpdate, call: string, now: Date, idempotencyKey?: string): Promise<BulkUpdateAccepted> {
  refuseReadOnly(actor);
  checkDatabase(b.DatabaseID, dbId);
  checkValues(b.Values);
  await requireDatabase(store, dbId);
  const jobKey = `bulk-update:${idempotencyKey ?? globalThis.crypto.randomUUID()}`;
  const earlier = await jobByKey(store, actor.userId, jobKey);
  if (earlier) return earlier;
  const ctx = await PlanContext.open(store, dbId, actor);
  const all = (await basicDocs(store, ctx, dbId, b)).map((d) => ({ archiveId: d.archiveId, docId: d.id, values: b.Values }));
  const docs = await changingTargets(ctx, inChunks(all));
  const accepted = await store.transaction(async (tx) => {
    const id = await insertJob(tx, actor, dbId, b.ArchiveID, jobKey, { Values: b.Values, Call: call }, now);
    if (id === null) return jobByKey(tx, actor.userId, jobKey);
    await tx.query(
      `INSERT INTO job_items (job_id, position, archive_id, document_id, state)
       SELECT $1, t.pos - 1, t.a, t.d, 'pending' FROM unnest($2::int[], $3::bigint[]) WITH ORDINALITY AS t(a, d, pos)`,
      [id, intArray(docs.map((d) => d.archiveId)), intArray(docs.map((d) => d.docId))],
    );
    return finishInsert(tx, id, now);
  });
  if (!accepted) throw new Error('bulk update job vanished');
  return accepted;
}

export async function startCsv(store: Store, actor: Actor, dbId: number, c: CsvBulkUpdate, search: boolean, call: string, now: Date): Promise<BulkUpdateAccepted> {
  refuseReadOnly(actor);
  checkDatabase(c.DatabaseID, dbId);
  checkSearch(c, search);
  await requireDatabase(store, dbId);
  // The rows' key names the job: the same rows never make two jobs.
  const jobKey = `bulk-update-rows:${c.Key}`;
  const earlier = await jobByKey(store, actor.userId, jobKey);
  if (earlier) return earlier;
  await requireAllRows(store, actor.userId, c.Key, c.Total);
  // The documents are found and judged before the transaction: the searches and the judgement read
  // through the store, which on PGlite is the one connection the transaction holds.
  const ctx = await PlanContext.open(store, dbId, actor);
  const found = await changingTargets(ctx, search ? searchUpdateTargets(store, ctx, dbId, c) : directTargets(store, actor.userId, c.Key, () => undefined));
  const accepted = await store.transaction(async (tx) => {
    const id = await insertJob(tx, actor, dbId, c.ArchiveID ?? null, jobKey, { Call: call }, now);
    if (id === null) return jobByKey(tx, actor.userId, jobKey);
    for (let position = 0; position < found.length; position += 1_000) {
      const chunk = found.slice(position, position + 1_000).map((t) => ({ archiveId: t.archiveId, docId: t.docId, values: t.values }));
      await tx.query(
        `INSERT INTO job_items (job_id, position, archive_id, document_id, state, vals)
         SELECT $1, $2 + t.pos - 1, (t.r->>'archiveId')::int, (t.r->>'docId')::bigint, 'pending', t.r->'values'
           FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(r, pos)`,
        [id, position, JSON.stringify(chunk)],
      );
    }
    await tx.query('DELETE FROM bulk_update_rows WHERE owner_id = $1 AND key = $2', [actor.userId, c.Key]);
    return finishInsert(tx, id, now);
  });
  if (!accepted) throw new Error('bulk update job vanished');
  return accepted;
}

/** Staged rows nobody took (the hourly purge). */
export async function purgeBulkRows(db: Queryable, now: number): Promise<number> {
  const r = await db.query('DELETE FROM bulk_update_rows WHERE created_at < $1', [new Date(now - BULK_UPDATE_ROWS_KEEP_HOURS * 3_600_000)]);
  return r.rowCount;
}

// ---- The job's work (jobs/runner.ts, in the item's transaction) ----

/** A pass's rights and fields, reused for a few seconds (a job of 100,000 items reads them ~20 times, not 100,000). */
const contexts = new Map<number, { at: number; ctx: PlanContext }>();
const CONTEXT_MS = 5_000;

/** The judgement context of a job's pass (a bulk update's or an import's), opened again every CONTEXT_MS. */
export async function jobPlanContext(tx: Queryable, job: JobRow, actor: Actor, now: Date): Promise<PlanContext> {
  let cached = contexts.get(job.id);
  if (!cached || now.getTime() - cached.at > CONTEXT_MS || cached.at > now.getTime()) {
    cached = { at: now.getTime(), ctx: await PlanContext.open(tx, job.database_id!, actor) };
    contexts.set(job.id, cached);
    for (const [id, c] of contexts) if (now.getTime() - c.at > 60_000) contexts.delete(id);
  }
  return cached.ctx.withDb(tx);
}

/**
 * One document of a bulk update job: locked, judged again (rights, revision control, values: they may
 * have changed since the count) and changed, with its 'updated' history entry. Returns null when it
 * is done (changed, or already holding the values), else why it is refused ('DocID {id}: reason').
 */
export async function workBulkUpdateItem(tx: Queryable, job: JobRow, item: JobItemRow & { vals?: unknown }, actor: Actor, now: Date): Promise<Refusal | null> {
  const dbId = job.database_id!;
  const ctx = await jobPlanContext(tx, job, actor, now);
  const payload = (job.payload ?? {}) as BulkJobPayload;
  const values = (Array.isArray(item.vals) ? item.vals : (payload.Values ?? [])) as BulkValue[];
  const docId = Number(item.document_id);
  const r = await tx.query<DocState>(`SELECT ${DOC_COLUMNS} FROM documents WHERE id = $1 AND archive_id = $2 AND NOT deleted FOR UPDATE`, [docId, item.archive_id]);
  const doc = r.rows[0] ? docRow(r.rows[0]) : null;
  const plan = await planDocument(ctx, item.archive_id, doc, values);
  if ('refusal' in plan) return plan.refusal;
  if (!plan.changes.length || !doc) return null;
  const nextFields = { ...(doc.fields ?? {}) };
  const nextMvals = { ...(doc.mvals ?? {}) };
  for (const c of plan.changes) {
    const key = String(c.field.id);
    if (Array.isArray(c.value)) {
      if (c.value.length) nextMvals[key] = c.value;
      else delete nextMvals[key];
    } else if (c.value !== '') nextFields[key] = c.value;
    else delete nextFields[key];
  }
  const fields = await ctx.fieldsOf(item.archive_id);
  for (const f of fields.values()) if ((f.prop & FIELD_PROPS.lastModifiedBy) !== 0 && !isMulti(f)) nextFields[String(f.id)] = actor.userName;
  const u = await tx.query<{ rev: number }>('UPDATE documents SET fields = $2::jsonb, mvals = $3::jsonb, modified_at = $4, modified_by = $5 WHERE id = $1 RETURNING rev', [
    docId,
    JSON.stringify(nextFields),
    JSON.stringify(nextMvals),
    now,
    actor.userName,
  ]);
  await writeAudit(tx, {
    databaseId: dbId,
    archiveId: item.archive_id,
    documentId: docId,
    category: 'updated',
    message: plan.changes.map((c) => `Field ${c.field.name} changed from ${c.old || '(empty)'} to ${c.now || '(empty)'}`).join('; '),
    time: now,
    userName: actor.userName,
    userId: actor.userId,
    details: { Rev: Number(u.rows[0]?.rev ?? 0), Fields: plan.changes.map((c) => ({ ID: c.field.id, Name: c.field.name, Old: c.old, New: c.now })), JobId: job.id },
  });
  return null;
}
