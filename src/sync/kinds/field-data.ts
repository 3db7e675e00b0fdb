/**
 * The field-edit kind (docs/architecture.md "Writes: the outbox"): one PUT FieldData of a document's
 * edited fields, based on the Rev the user saw. Registers itself with the drain (../kinds.ts).
 *
 * An entry keeps the edited fields in `body` (the PUT FieldData body) and in `meta` (FieldEditMeta:
 * the document, its Hash, the Rev the edit was based on). A 409 CONFLICT makes it a conflict the tray
 * shows with both values (keepMine / takeTheirs); when it is done, later edits of the same document
 * move onto its new Rev (rebaseLater). The grid overlays the values not yet confirmed (pending values).
 */
import { documentPaths, FIELD_DATA_CONFLICT_KEY, FieldDataResult, formatRevTag, SECURE_ID_HEADER, type FieldDataConflict } from '../../api/documents';
import type { DocumentField } from '../../api/search';
import type { FieldRule } from '../../fields/rules';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type OutboxState } from '../../db/db';
import { registerKind } from '../kinds';
import { enqueue, newEntryId, notifyEnqueued, outboxTarget } from '../outbox';

export const FIELD_DATA_KIND = 'fieldData';

export interface FieldEdit {
  dbId: number;
  archiveId: number;
  docId: number;
  /** The document's Hash (secureId). */
  hash: string;
  /** The edited fields only, in wire form (ID, VAL, MVAL). */
  fields: DocumentField[];
  /** The Rev the edit was based on (ResultDocument.Rev); null: no conflict check. */
  baseStamp: number | null;
  /** Field names by id, for the tray (the grid knows them; the outbox does not fetch them). */
  labels?: Record<number, string>;
  /**
   * How each edited field's values are shown (its Type, Mask, Currency), so the tray shows "13.05.2025"
   * and "17.038,12" as the grid does (src/fields formatWireValue), not the wire's 2025-05-13 and 17038.12.
   */
  formats?: Record<number, FieldFormat>;
  /** How the user knows the document (e.g. its title), for the tray. */
  title?: string;
}

export type FieldFormat = Pick<FieldRule, 'Type' | 'Mask' | 'Currency'>;

export type FieldEditMeta = Omit<FieldEdit, 'fields'>;

export function isFieldEditMeta(m: unknown): m is FieldEditMeta {
  const o = m as Partial<FieldEditMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.docId === 'number' && typeof o.hash === 'string';
}

function fieldDataRequest(meta: FieldEditMeta): Pick<OutboxEntry, 'path' | 'query' | 'headers'> {
  const headers: Record<string, string> = { [SECURE_ID_HEADER]: meta.hash };
  if (meta.baseStamp !== null) headers['If-Match'] = formatRevTag(meta.baseStamp);
  return { path: documentPaths.fieldData(meta.dbId, meta.archiveId, meta.docId), query: { secureId: meta.hash }, headers };
}

/** Keeps a field edit in the outbox (queued). Resolves with the entry's id (its Idempotency-Key). */
export async function enqueueFieldEdit(edit: FieldEdit, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  if (!edit.fields.length) throw new Error('enqueueFieldEdit: no fields');
  const meta: FieldEditMeta = {
    dbId: edit.dbId,
    archiveId: edit.archiveId,
    docId: edit.docId,
    hash: edit.hash,
    baseStamp: edit.baseStamp,
    ...(edit.labels ? { labels: { ...edit.labels } } : {}),
    ...(edit.formats ? { formats: { ...edit.formats } } : {}),
    ...(edit.title ? { title: edit.title } : {}),
  };
  return enqueue(
    {
      kind: FIELD_DATA_KIND,
      method: 'PUT',
      ...fieldDataRequest(meta),
      body: edit.fields.map((f) => ({ ID: f.ID, VAL: f.VAL ?? '', ...(f.MVAL ? { MVAL: [...f.MVAL] } : {}) })),
      meta,
      target: outboxTarget(edit.dbId, edit.archiveId, edit.docId),
    },
    database,
    owner,
  );
}

/**
 * After a field edit was applied (base b, result Rev R): later queued edits of the same document
 * based on b or later were made on top of it (the grid showed it as pending), so they move to R
 * unless a field they edit was changed by someone else in between (then the server decides).
 */
async function rebaseLater(database: ArchiveDb, done: OutboxEntry, result: unknown): Promise<void> {
  if (!isFieldEditMeta(done.meta) || done.meta.baseStamp === null) return;
  const parsed = FieldDataResult.safeParse(result);
  if (!parsed.success) return;
  const { Rev: rev, FieldRevs: fieldRevs = {} } = parsed.data;
  const base = done.meta.baseStamp;
  const mine = new Set(((done.body as DocumentField[] | undefined) ?? []).map((f) => f.ID));
  const later = await database.outbox.where('[target+seq]').between([done.target, (done.seq ?? 0) + 1], [done.target, Infinity]).toArray();
  for (const e of later) {
    if (e.kind !== FIELD_DATA_KIND || e.state !== 'queued' || !isFieldEditMeta(e.meta) || e.meta.baseStamp === null) continue;
    // Sent before (its answer may be stored on the server under its key): a repeat must be the
    // same request, If-Match included, or the server refuses the key as reused (422).
    if (e.attempts > 0) continue;
    const b = e.meta.baseStamp;
    if (b < base || b >= rev) continue;
    const foreign = ((e.body as DocumentField[] | undefined) ?? []).some((f) => {
      const changedAt = fieldRevs[String(f.ID)] ?? 0;
      return changedAt > b && !(changedAt === rev && mine.has(f.ID));
    });
    if (foreign) continue;
    const meta: FieldEditMeta = { ...e.meta, baseStamp: rev };
    await database.outbox.update(e.seq!, { meta, headers: { ...e.headers, 'If-Match': formatRevTag(rev) } });
  }
}

registerKind({
  kind: FIELD_DATA_KIND,
  response: FieldDataResult,
  conflictKey: FIELD_DATA_CONFLICT_KEY,
  afterDone: rebaseLater,
});

// --- the user's decision on a conflict -------------------------------------------------------------

/**
 * Conflict, keep mine: the same edit, now based on the server's current Rev, at the same place in
 * the order. It needs a new Idempotency-Key: the old one's answer (the 409) is stored on the server.
 * (Take theirs is the outbox's takeTheirs: the edit is dropped.)
 */
export async function keepMine(seq: number, database: ArchiveDb = defaultDb): Promise<boolean> {
  const ok = await database.transaction('rw', database.outbox, async () => {
    const e = await database.outbox.get(seq);
    if (!e || e.state !== 'conflict' || e.kind !== FIELD_DATA_KIND || !isFieldEditMeta(e.meta)) return false;
    const current = (e.result as FieldDataConflict | undefined)?.Current;
    const meta: FieldEditMeta = { ...e.meta, baseStamp: current ? current.Rev : e.meta.baseStamp };
    await database.outbox.update(seq, {
      ...fieldDataRequest(meta),
      meta,
      id: newEntryId(),
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      error: undefined,
      result: undefined,
      updatedAt: Date.now(),
    });
    return true;
  });
  if (ok) notifyEnqueued();
  return ok;
}

// --- pending values for the grid ---------------------------------------------------------------

export interface PendingValue {
  VAL: string;
  MVAL?: string[];
  /** State of the newest entry that sets this field. */
  state: OutboxState;
  entryId: string;
}
/** Field id -> the value the user last saved for it that the server has not confirmed yet. */
export type PendingValues = Map<number, PendingValue>;

/** The pending values of one target from a list of entries (newest wins). Done entries are left out. */
export function pendingValuesFrom(entries: readonly OutboxEntry[], target: string): PendingValues {
  const out: PendingValues = new Map();
  const mine = entries.filter((e) => e.target === target && e.kind === FIELD_DATA_KIND && e.state !== 'done').sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  for (const e of mine) {
    for (const f of (e.body as DocumentField[] | undefined) ?? []) {
      out.set(f.ID, { VAL: f.VAL ?? '', ...(f.MVAL ? { MVAL: f.MVAL } : {}), state: e.state, entryId: e.id });
    }
  }
  return out;
}

/** Pending values of every target with unfinished field edits. */
export function pendingValuesByTarget(entries: readonly OutboxEntry[]): Map<string, PendingValues> {
  const out = new Map<string, PendingValues>();
  for (const t of new Set(entries.filter((e) => e.kind === FIELD_DATA_KIND && e.state !== 'done').map((e) => e.target))) out.set(t, pendingValuesFrom(entries, t));
  return out;
}

/** The edits of one document the server has not confirmed yet, for the grid's overlay. */
export async function pendingValuesFor(target: string, database: ArchiveDb = defaultDb): Promise<PendingValues> {
  const entries = await database.outbox.where('[target+seq]').between([target, -Infinity], [target, Infinity]).toArray();
  return pendingValuesFrom(entries, target);
}
