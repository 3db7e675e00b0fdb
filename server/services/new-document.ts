/**
 * A new archive document from a file and index values: the one place that judges the values of a
 * document being created and writes it (its row, file, pages, first version and history entry).
 * Sending an inbox file to an archive (services/inbox-changes.ts) and the import job
 * (services/import.ts) both go through here, so a value refused by one is refused by the other.
 */
import { randomBytes } from 'node:crypto';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, FIELD_PROPS } from '../../src/api/archives.js';
import type { FieldDataInvalid } from '../../src/api/documents.js';
import type { HistoryEvent } from '../../src/api/audit.js';
import { isReadOnlyProp } from '../../src/fields/editability.js';
import type { FieldValueResult } from '../../src/fields/rules.js';
import type { Queryable } from '../db/store.js';
import { Errors } from '../http/errors.js';
import { isMulti, type FieldRow } from '../search/model.js';
import { writeAudit } from './audit.js';
import type { ArchiveRow } from '../auth/permissions.js';
import { archiveWithRights, requireDatabase, type Actor } from './documents.js';
import { outsideDynamicList, revalidate } from './field-edits.js';

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
export const newSecureHash = () => randomBytes(16).toString('hex');

/** The fields the server fills itself when a document is created (unless the import overwrites them). */
const SYSTEM_FILLED = FIELD_PROPS.dateEntered | FIELD_PROPS.indexedBy | FIELD_PROPS.lastModifiedBy | FIELD_PROPS.pageCount | FIELD_PROPS.fileType;
export const isSystemFilled = (f: FieldRow): boolean => (f.prop & SYSTEM_FILLED) !== 0;

export interface GivenValue {
  ID: number;
  VAL?: string | null;
  MVAL?: string[] | null;
}

export interface NewValues {
  values: Record<string, string>;
  mvals: Record<string, string[]>;
  /** The refused fields (empty when the values may be stored); -5 is an empty required field. */
  checks: FieldDataInvalid['Fields'];
}

export interface CheckOptions {
  /** Values of system-filled fields are taken as given (import's OverwriteSystem) instead of refused. */
  overwriteSystem?: boolean;
  /** A field given a value it may not take: a 403 (default), or a refused field. */
  readOnly?: 'forbid' | 'refuse';
  /** The field rules' verdict (a job passes a cached one). */
  verdict?: (f: FieldRow, v: GivenValue) => Promise<FieldValueResult>;
}

/** The archive a new document goes to: view and add (2) there, and not a versions archive. */
export async function archiveToAddTo(db: Queryable, dbId: number, actor: Actor, archiveId: number): Promise<ArchiveRow> {
  await requireDatabase(db, dbId);
  const archive = await archiveWithRights(db, dbId, actor.userId, archiveId);
  if ((archive.rights & ARCHIVE_PERMISSIONS.view) === 0 || (archive.rights & ARCHIVE_PERMISSIONS.add) === 0) throw Errors.forbidden(`You do not have permission to add documents to archive ${archive.name}`);
  if ((archive.props & ARCHIVE_PROPS.versionsArchive) !== 0) throw Errors.badRequest(`Archive ${archive.name} holds versions: documents are not added to it`);
  return archive;
}

const hasValue = (e: GivenValue) => (e.VAL ?? '') !== '' || (e.MVAL ?? []).some((v) => v !== '');

/**
 * The values of a new document, each checked by the shared field rules and the list rules as PUT
 * FieldData checks them; every required field needs a value.
 */
export async function checkNewValues(db: Queryable, fields: readonly FieldRow[], given: readonly GivenValue[], opts: CheckOptions = {}): Promise<NewValues> {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const settable = (f: FieldRow) => !f.extended_config?.liveField && (!isReadOnlyProp(f.prop) || (opts.overwriteSystem === true && isSystemFilled(f)));
  const entries = new Map<number, GivenValue>();
  const checks: FieldDataInvalid['Fields'] = [];
  for (const e of given) {
    const f = byId.get(e.ID);
    if (!f) checks.push({ ID: e.ID, Code: -4, MessageKey: 'FIELD_NOT_FOUND', Message: `Field ${e.ID} is not a field of this archive` });
    else if (!settable(f)) {
      if (!hasValue(e)) continue;
      if (opts.readOnly === 'refuse') checks.push({ ID: f.id, Code: -4, MessageKey: 'FIELD_READ_ONLY', Message: `Field ${f.name} is read-only` });
      else throw Errors.forbidden(`Field ${f.name} is read-only`);
    } else entries.set(e.ID, e);
  }
  const verdict = opts.verdict ?? ((f: FieldRow, v: GivenValue) => revalidate(db, f, { ID: f.id, VAL: v.VAL ?? '', ...(v.MVAL ? { MVAL: v.MVAL } : {}) }));
  const values: Record<string, string> = {};
  const mvals: Record<string, string[]> = {};
  for (const f of fields) {
    if (!settable(f)) continue;
    const e = entries.get(f.id) ?? { ID: f.id, VAL: '' };
    // A system field the server fills needs no value of the user's.
    if (isSystemFilled(f) && !hasValue(e)) continue;
    const r = await verdict(f, e);
    if (r.code !== 0) {
      checks.push({ ID: f.id, Code: r.code, ...(r.key ? { MessageKey: r.key } : {}), Message: r.message ?? (r.code === -5 ? `Field ${f.name} is required` : `Field ${f.name}: invalid value`) });
      continue;
    }
    if (isMulti(f)) {
      if (r.normalizedMVAL?.length) mvals[String(f.id)] = r.normalizedMVAL;
    } else if (r.normalized) values[String(f.id)] = r.normalized;
  }
  // Dynamic lists (Prop 128) hold only the values their parent fields' values allow.
  if (!checks.length) {
    for (const f of fields) {
      const v = isMulti(f) ? mvals[String(f.id)] : values[String(f.id)];
      const bad = v === undefined ? null : await outsideDynamicList(db, f, v, values);
      if (bad) checks.push(bad);
    }
  }
  return { values, mvals, checks };
}

export interface NewFile {
  sha256: string;
  file_name: string;
  file_type: string;
  page_count: number;
}

export interface NewDocument {
  dbId: number;
  archiveId: number;
  fields: readonly FieldRow[];
  values: Record<string, string>;
  mvals: Record<string, string[]>;
  /** None: a document of index data only. */
  file: NewFile | null;
  actor: Actor;
  now: Date;
  /** Keep given values of the system-filled fields (import's OverwriteSystem). */
  overwriteSystem?: boolean;
  /** The first version's comment. */
  comment: string;
  audit: { message: string; event: HistoryEvent; details: Record<string, unknown> };
}

/** Writes the document (in the caller's transaction) with the system fields filled; its id and hash. */
export async function insertDocument(tx: Queryable, d: NewDocument): Promise<{ docId: number; hash: string }> {
  const values = { ...d.values };
  for (const f of d.fields) {
    if (isMulti(f) || !isSystemFilled(f)) continue;
    const k = String(f.id);
    if (d.overwriteSystem && values[k] !== undefined) continue;
    if ((f.prop & FIELD_PROPS.dateEntered) !== 0) values[k] = isoDay(d.now);
    else if ((f.prop & (FIELD_PROPS.indexedBy | FIELD_PROPS.lastModifiedBy)) !== 0) values[k] = d.actor.userName;
    else if ((f.prop & FIELD_PROPS.pageCount) !== 0) {
      if (d.file) values[k] = String(d.file.page_count);
    } else if ((f.prop & FIELD_PROPS.fileType) !== 0) {
      if (d.file) values[k] = d.file.file_type;
    }
  }
  const hash = newSecureHash();
  const file = d.file;
  const r = await tx.query<{ id: number }>(
    `INSERT INTO documents (archive_id, secure_hash, fields, mvals, version, file_name, file_type, page_count, content_text, created_at, created_by, modified_at, modified_by)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, 1, $5, $6, $7, NULL, $8, $9, $8, $9) RETURNING id`,
    [d.archiveId, hash, JSON.stringify(values), JSON.stringify(d.mvals), file?.file_name ?? null, file?.file_type ?? null, file?.page_count ?? 0, d.now, d.actor.userName],
  );
  const docId = Number(r.rows[0]!.id);
  if (file) {
    const fr = await tx.query<{ id: number }>('INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count) VALUES ($1, 0, $2, $3, $4, $5) RETURNING id', [
      docId,
      file.sha256,
      file.file_name,
      file.file_type,
      file.page_count,
    ]);
    await tx.query(
      `INSERT INTO document_pages (document_id, page_no, file_id, page_in_file, rotation, text)
       SELECT $1, g + 1, $2, g, 0, NULL FROM generate_series(0, $3::int - 1) AS g`,
      [docId, Number(fr.rows[0]!.id), file.page_count],
    );
  }
  await tx.query('INSERT INTO document_versions (document_id, version, fields, mvals, files, comment, created_at, created_by) VALUES ($1, 1, $2::jsonb, $3::jsonb, $4::jsonb, $5, $6, $7)', [
    docId,
    JSON.stringify(values),
    JSON.stringify(d.mvals),
    JSON.stringify(file ? [{ sha256: file.sha256, fileName: file.file_name, fileType: file.file_type, pages: file.page_count }] : []),
    d.comment,
    d.now,
    d.actor.userName,
  ]);
  await writeAudit(tx, {
    databaseId: d.dbId,
    archiveId: d.archiveId,
    documentId: docId,
    category: 'indexed',
    message: d.audit.message,
    time: d.now,
    userName: d.actor.userName,
    userId: d.actor.userId,
    event: d.audit.event,
    details: d.audit.details,
  });
  return { docId, hash };
}
