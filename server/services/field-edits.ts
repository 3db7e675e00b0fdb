/**
 * Index field edits of one document (the user-app spec §7; issue 4), for PUT FieldData
 * (server/routes/field-data.ts).
 *
 * What is stored where: the values in documents.fields (single values) and documents.mvals
 * (multi-value fields and table columns; an empty value removes the key, as the seed stores it);
 * documents.rev and field_revs are kept by the trigger of migration 005, so a conflict is decided
 * per field: an edit based on Rev n conflicts only if a field it changes has field_revs > n. One
 * audit entry (category 'updated') per applied edit, in the same transaction as the change.
 */
import { FIELD_PROPS, ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { FIELD_DATA_CONFLICT_KEY, type FieldDataConflict, type FieldDataInvalid, type FieldDataResult } from '../../src/api/documents.js';
import type { DocumentField } from '../../src/api/search.js';
import { FIELD_NOT_IN_LIST_KEY } from '../../src/fields/codes.js';
import { isReadOnlyProp } from '../../src/fields/editability.js';
import { validateFieldValue, type FieldValueResult } from '../../src/fields/rules.js';
import type { Queryable, Store } from '../db/store.js';
import { Errors } from '../http/errors.js';
import { archiveFields, fieldToWire, isMulti, type FieldRow } from '../search/model.js';
import { writeAudit } from './audit.js';
import { loadDocument, type Actor } from './documents.js';

interface DocRow {
  id: number;
  secure_hash: string;
  fields: Record<string, unknown>;
  mvals: Record<string, unknown>;
  rev: number;
  field_revs: Record<string, unknown>;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const mvalOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : []);

/** Every field of the archive as a result page shows it (server/search/run.ts). */
function wireFields(fields: readonly FieldRow[], doc: Pick<DocRow, 'fields' | 'mvals'>): DocumentField[] {
  return fields.map((f) => {
    if (isMulti(f)) {
      const m = mvalOf(doc.mvals?.[String(f.id)]);
      return { ID: f.id, VAL: m[0] ?? '', MVAL: m };
    }
    return { ID: f.id, VAL: text(doc.fields?.[String(f.id)]) };
  });
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

interface Change {
  field: FieldRow;
  /** Single value (fields) or values (mvals) after the edit. */
  value: string | string[];
}

/**
 * The server's check of one edited value: the shared field rules in wire form, then what only the
 * catalogue knows (fixed and type-ahead list membership). Returns the normalised value or the failure.
 */
export async function revalidate(db: Queryable, field: FieldRow, entry: DocumentField): Promise<FieldValueResult> {
  const r = validateFieldValue(fieldToWire(field), { VAL: entry.VAL, MVAL: entry.MVAL }, null);
  if (r.code !== 0) return r;
  // Fixed and type-ahead lists (dynamic ones: outsideDynamicList, with the parents' values).
  if (field.list_id !== null && (field.prop & FIELD_PROPS.dynamicDropdown) === 0) {
    const values = isMulti(field) ? (r.normalizedMVAL ?? []) : [r.normalized ?? ''];
    const wanted = [...new Set(values.filter((v) => v !== ''))];
    if (wanted.length) {
      const found = await db.query<{ value: string }>('SELECT value FROM list_values WHERE list_id = $1 AND value IN (SELECT jsonb_array_elements_text($2::jsonb))', [field.list_id, JSON.stringify(wanted)]);
      const known = new Set(found.rows.map((x) => x.value));
      if (wanted.some((v) => !known.has(v))) return { code: -1, key: FIELD_NOT_IN_LIST_KEY };
    }
  }
  return r;
}

/** A dynamic-list value that its list, filtered by the parents' values (ListF1, ListF2), does not hold. */
export async function outsideDynamicList(
  db: Queryable,
  field: FieldRow,
  value: string | string[],
  fieldsAfter: Record<string, unknown>,
): Promise<FieldDataInvalid['Fields'][number] | null> {
  if ((field.prop & FIELD_PROPS.dynamicDropdown) === 0 || field.list_id === null) return null;
  const wanted = [...new Set((Array.isArray(value) ? value : [value]).filter((v) => v !== ''))];
  if (!wanted.length) return null;
  const parent = (id: number | null) => (id === null ? null : text(fieldsAfter[String(id)]).toLowerCase() || null);
  const found = await db.query<{ value: string }>(
    `SELECT DISTINCT value FROM dynamic_list_rows
      WHERE list_id = $1 AND value IN (SELECT jsonb_array_elements_text($2::jsonb))
        AND ($3::text IS NULL OR lower(filter1) = $3) AND ($4::text IS NULL OR lower(filter2) = $4)`,
    [field.list_id, JSON.stringify(wanted), parent(field.list_f1), parent(field.list_f2)],
  );
  const known = new Set(found.rows.map((r) => r.value));
  const missing = wanted.find((v) => !known.has(v));
  if (missing === undefined) return null;
  return { ID: field.id, Code: -1, MessageKey: FIELD_NOT_IN_LIST_KEY, Message: `Field ${field.name}: ${missing} is not an item of its list for the values chosen` };
}

/** The first few failures in one sentence: Fields names them all, the message stays short. */
const SUMMARY_ITEMS = 3;
function summary(checks: FieldDataInvalid['Fields']): string {
  const head = checks.slice(0, SUMMARY_ITEMS).map((c) => c.Message).join('; ');
  return checks.length > SUMMARY_ITEMS ? `${head}; and ${checks.length - SUMMARY_ITEMS} more` : head;
}

export interface FieldEditRequest {
  db: number;
  archiveId: number;
  docId: number;
  secureId: string;
  /** The fields to change (parsed FieldData, each field once). */
  edits: readonly DocumentField[];
  /** The Rev the edit was based on (If-Match), or null. */
  baseRev: number | null;
  idempotencyKey: string | null;
  now: Date;
}

/** What the call answers: 200 FieldDataResult, 400 FieldDataInvalid, 409 FieldDataConflict; rev for the ETag. */
export type FieldEditOutcome =
  | { status: 200; body: FieldDataResult; rev: number }
  | { status: 400; body: FieldDataInvalid; rev?: number }
  | { status: 409; body: FieldDataConflict; rev: number };

/** Checks and applies one document's field edit; refusals (403, 404) are thrown. */
export async function editFields(store: Store, actor: Actor, req: FieldEditRequest): Promise<FieldEditOutcome> {
  const { db, archiveId, docId, secureId, edits, baseRev, idempotencyKey, now } = req;
  await loadDocument(store, actor.userId, db, archiveId, docId, secureId, ARCHIVE_PERMISSIONS.edit, 'You do not have permission to edit documents of this archive');

  const fields = await archiveFields(store, archiveId);
  const byId = new Map(fields.map((f) => [f.id, f]));
  const checks: FieldDataInvalid['Fields'] = [];
  const changes: Change[] = [];
  for (const e of edits) {
    const f = byId.get(e.ID);
    if (!f) {
      checks.push({ ID: e.ID, Code: -4, MessageKey: 'FIELD_NOT_FOUND', Message: `Field ${e.ID} is not a field of this archive` });
      continue;
    }
    if (isReadOnlyProp(f.prop) || Boolean(f.extended_config?.liveField)) {
      throw Errors.forbidden(`Field ${f.name} is read-only`);
    }
    const r = await revalidate(store, f, e);
    if (r.code !== 0) {
      checks.push({ ID: e.ID, Code: r.code, ...(r.key ? { MessageKey: r.key } : {}), Message: r.message ?? `Field ${f.name}: invalid value` });
      continue;
    }
    changes.push({ field: f, value: isMulti(f) ? (r.normalizedMVAL ?? []) : (r.normalized ?? '') });
  }
  if (checks.length) {
    const body: FieldDataInvalid = { Message: summary(checks), Key: 'ERROR_INCORRECT_PARAMETERS', Fields: checks };
    return { status: 400, body };
  }

  const outcome = await store.transaction(async (tx) => {
    const r = await tx.query<DocRow>('SELECT id, secure_hash, fields, mvals, rev, field_revs FROM documents WHERE id = $1 AND archive_id = $2 AND NOT deleted FOR UPDATE', [docId, archiveId]);
    const doc = r.rows[0];
    if (!doc) throw Errors.notFound(`Document ${docId} does not exist in archive ${archiveId}`);
    const rev = Number(doc.rev);
    if (baseRev !== null && baseRev !== rev) {
      const conflicts = changes
        .map((c) => c.field.id)
        .filter((id) => baseRev > rev || Number(doc.field_revs?.[String(id)] ?? 0) > baseRev);
      if (conflicts.length) return { kind: 'conflict' as const, doc, conflicts };
    }
    const nextFields = { ...(doc.fields ?? {}) };
    const nextMvals = { ...(doc.mvals ?? {}) };
    const changed: { f: FieldRow; old: string; now: string }[] = [];
    for (const c of changes) {
      const key = String(c.field.id);
      if (Array.isArray(c.value)) {
        const before = mvalOf(doc.mvals?.[key]);
        if (sameList(before, c.value)) continue;
        if (c.value.length) nextMvals[key] = c.value;
        else delete nextMvals[key];
        changed.push({ f: c.field, old: before.join(', '), now: c.value.join(', ') });
      } else {
        const before = text(doc.fields?.[key]);
        if (before === c.value) continue;
        if (c.value !== '') nextFields[key] = c.value;
        else delete nextFields[key];
        changed.push({ f: c.field, old: before, now: c.value });
      }
    }
    if (!changed.length) return { kind: 'done' as const, doc };
    // Dynamic lists (Prop 128) hold only the values their two parent fields allow, judged on the
    // document as it will be (an edit may change a parent and the child together).
    for (const c of changes) {
      const bad = await outsideDynamicList(tx, c.field, c.value, nextFields);
      if (bad) return { kind: 'invalid' as const, doc, check: bad };
    }
    // "Last modified by" fields (Prop 256) name whoever changed the document.
    for (const f of fields) if ((f.prop & FIELD_PROPS.lastModifiedBy) !== 0 && !isMulti(f)) nextFields[String(f.id)] = actor.userName;
    const u = await tx.query<DocRow>(
      `UPDATE documents SET fields = $2::jsonb, mvals = $3::jsonb, modified_at = $4, modified_by = $5 WHERE id = $1
       RETURNING id, secure_hash, fields, mvals, rev, field_revs`,
      [docId, JSON.stringify(nextFields), JSON.stringify(nextMvals), now, actor.userName],
    );
    const updated = u.rows[0]!;
    const message = changed.map((c) => `Field ${c.f.name} changed from ${c.old || '(empty)'} to ${c.now || '(empty)'}`).join('; ');
    // The parts (details.Fields) become a fields-changed Event when read (server/audit/history-event.ts).
    await writeAudit(tx, {
      databaseId: db,
      archiveId,
      documentId: docId,
      category: 'updated',
      message,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      details: { Rev: Number(updated.rev), Fields: changed.map((c) => ({ ID: c.f.id, Name: c.f.name, Old: c.old, New: c.now })), IdempotencyKey: idempotencyKey },
    });
    return { kind: 'done' as const, doc: updated };
  });

  const fieldRevs: Record<string, number> = {};
  for (const [k, v] of Object.entries(outcome.doc.field_revs ?? {})) if (byId.has(Number(k))) fieldRevs[k] = Number(v);
  const current: FieldDataResult = { Rev: Number(outcome.doc.rev), Fields: wireFields(fields, outcome.doc), FieldRevs: fieldRevs };
  if (outcome.kind === 'invalid') {
    const body: FieldDataInvalid = { Message: outcome.check.Message ?? 'Invalid value', Key: 'ERROR_INCORRECT_PARAMETERS', Fields: [outcome.check] };
    return { status: 400, body, rev: current.Rev };
  }
  if (outcome.kind === 'conflict') {
    const names = outcome.conflicts.map((id) => byId.get(id)?.name ?? String(id)).join(', ');
    const body: FieldDataConflict = {
      Message: `The document was changed by someone else since you edited it: ${names}`,
      Key: FIELD_DATA_CONFLICT_KEY,
      Current: current,
      Conflicts: outcome.conflicts,
    };
    return { status: 409, body, rev: current.Rev };
  }
  return { status: 200, body: current, rev: current.Rev };
}
