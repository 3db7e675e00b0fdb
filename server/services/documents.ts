/**
 * Documents: loading one with its rights check, and copying, moving and deleting one
 * (the archive-ops spec §4, §6, §7). Routes and the job runner both call these; each change writes
 * its history entry (services/audit.ts) in the caller's transaction.
 *
 * What each operation does to the rows:
 * - copy: a new document (new id, new secure hash, version 1) in the destination archive with the
 *   source's field values (fields, mvals: every value, also of fields the destination does not show,
 *   so nothing is lost), file name and type, page count and content text; its files rows point at
 *   the same content-addressed blobs (same sha256: no bytes are copied) and its pages at the new
 *   files rows; one version row (a revision-controlled source gives its current version only).
 *   History: 'copied' on the new document (OldArchiveID/OldDocID = the source) and on the source.
 * - move: the same document (its id is kept, so its versions, files, pages and earlier history stay
 *   attached) gets the destination's archive id; OldDocID is therefore the same id. History: ONE
 *   'moved' entry filed under the destination with OldArchiveID = the source archive. A document's
 *   history is read by document id, so its earlier entries (filed under the archive they happened
 *   in, where that archive's history keeps them) show in the new archive too.
 * - delete: the schema's soft delete (deleted = true, deleted_at): searches, counts
 *   (archive_doc_counts, by trigger) and the data version (by trigger) all follow. History: 'deleted'.
 */
import { randomBytes } from 'node:crypto';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS } from '../../src/api/archives.js';
import { DOCUMENT_CHECKED_OUT_KEY } from '../../src/api/documents.js';
import { JOB_REASON_KEYS, type JobKind } from '../../src/api/jobs.js';
import { archivesWithRights, type ArchiveRow } from '../auth/permissions.js';
import type { Queryable } from '../db/store.js';
import { ApiError, Errors, withWords } from '../http/errors.js';
import { writeAudit } from './audit.js';

export interface Actor {
  userId: number;
  userName: string;
  /** Licence type of the sign-in (4: web-only read-only); unknown for work done later by a job. */
  licenceType?: number;
}

export interface DocumentRow {
  id: number;
  archive_id: number;
  secure_hash: string;
  checked_out_by: number | null;
}

export async function requireDatabase(db: Queryable, dbId: number): Promise<void> {
  const r = await db.query('SELECT 1 FROM databases WHERE id = $1', [dbId]);
  if (r.rowCount === 0) throw Errors.notFound(`Database ${dbId} does not exist`);
}

/** The archive of this database with the user's rights on it; 404 when there is none. */
export async function archiveWithRights(db: Queryable, dbId: number, userId: number, archiveId: number): Promise<ArchiveRow> {
  const archive = (await archivesWithRights(db, dbId, userId)).find((a) => a.id === archiveId);
  if (!archive) throw Errors.notFound(`Archive ${archiveId} does not exist`);
  return archive;
}

/** A live (not deleted) document of this archive; 404 when there is none. */
export async function documentIn(db: Queryable, archiveId: number, docId: number, lock = false): Promise<DocumentRow> {
  const r = await db.query<DocumentRow>(
    `SELECT id, archive_id, secure_hash, checked_out_by FROM documents WHERE id = $1 AND archive_id = $2 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`,
    [docId, archiveId],
  );
  const doc = r.rows[0];
  if (!doc) throw withWords(Errors.notFound(`Document ${docId} does not exist in archive ${archiveId}`), JOB_REASON_KEYS.notInArchive, { archive: archiveId });
  return { ...doc, id: Number(doc.id) };
}

/**
 * The document if it is in this archive of this database, the user holds `bit` there and secureId is
 * its Hash: 404 for an unknown database, archive or document, 403 otherwise.
 */
export async function loadDocument(db: Queryable, userId: number, dbId: number, archiveId: number, docId: number, secureId: string, bit: number, refusal = 'You do not have permission to view this archive') {
  await requireDatabase(db, dbId);
  const archive = await archiveWithRights(db, dbId, userId, archiveId);
  if ((archive.rights & bit) === 0) throw Errors.forbidden(refusal);
  const doc = await documentIn(db, archiveId, docId);
  if (doc.secure_hash !== secureId) throw Errors.forbidden('The secure id does not match this document');
  return { archive, doc };
}

export const checkedOut = () => new ApiError(409, 'The document is checked out by another user', DOCUMENT_CHECKED_OUT_KEY);

export interface OperationTarget {
  dbId: number;
  archiveId: number;
  docId: number;
  op: JobKind;
  destinationArchiveId?: number | null;
  /** Checked when given (the call); a job working its items later has checked it already. */
  secureId?: string;
}

export interface CheckedOperation {
  source: ArchiveRow;
  destination: ArchiveRow | null;
  doc: DocumentRow;
}

/**
 * The archives an operation names (source and destination), each with the user's rights, in one
 * query: a group of 10,000 documents asks this 10,000 times. Only archives of this database count.
 */
export async function operationArchives(db: Queryable, dbId: number, userId: number, archiveId: number, destinationId: number | null): Promise<Map<number, ArchiveRow>> {
  const r = await db.query<ArchiveRow>(
    `SELECT a.id, a.parent_id, a.name, a.props, a.folder_options, a.content_search, a.views, a.position,
            COALESCE((SELECT bit_or(p.rights) FROM archive_permissions p
                       WHERE p.archive_id = a.id AND (p.user_id = $2 OR p.group_id IN (SELECT group_id FROM group_members WHERE user_id = $2))), 0)::bigint AS rights
       FROM archives a WHERE a.database_id = $1 AND (a.id = $3 OR a.id = $4)`,
    [dbId, userId, archiveId, destinationId],
  );
  return new Map(r.rows.map((a) => [a.id, { ...a, rights: Number(a.rights) }]));
}

/**
 * The call's own problems, whatever the document: DestinationArchive missing, the source itself, a
 * versions archive (400), or not an archive of this database (404). Returns the destination.
 */
export function checkDestination(archives: ReadonlyMap<number, ArchiveRow>, t: Pick<OperationTarget, 'archiveId' | 'op' | 'destinationArchiveId'>): ArchiveRow | null {
  if (t.op === 'delete') return null;
  const destId = t.destinationArchiveId;
  if (!destId) throw Errors.badRequest('DestinationArchive is required to copy or move a document');
  const dest = archives.get(destId);
  if (!dest) throw withWords(Errors.notFound(`Archive ${destId} does not exist`), JOB_REASON_KEYS.destinationGone, { archive: destId });
  if ((dest.props & ARCHIVE_PROPS.versionsArchive) !== 0) throw Errors.badRequest('A versions archive cannot be the destination');
  return dest;
}

/**
 * Whether the actor may do `op` on the document now (the archive-ops spec §6; the user-app spec §6): the
 * read-only licence may not; delete needs bit 8 and move bit 131072 on the source, copy needs view
 * there; copy and move need add (2) on the destination; a document checked out by another user in a
 * revision-controlled archive is refused. Throws the refusal (ApiError); the caller records it.
 * `archives`: operationArchives, when the caller has them already.
 */
export async function checkOperation(db: Queryable, actor: Actor, t: OperationTarget, lock = false, archives?: ReadonlyMap<number, ArchiveRow>): Promise<CheckedOperation> {
  const found = archives ?? (await operationArchives(db, t.dbId, actor.userId, t.archiveId, t.destinationArchiveId ?? null));
  const source = found.get(t.archiveId);
  if (!source) {
    await requireDatabase(db, t.dbId);
    throw withWords(Errors.notFound(`Archive ${t.archiveId} does not exist`), JOB_REASON_KEYS.archiveGone, { archive: t.archiveId });
  }
  const destination = checkDestination(found, t);
  // A refusal of this document, not of the call: a group listed from a parent archive may hold
  // documents that are in the destination already.
  if (destination && destination.id === t.archiveId) throw withWords(Errors.badRequest('The document is in the destination archive already'), JOB_REASON_KEYS.inDestination);
  const doc = await documentIn(db, t.archiveId, t.docId, lock);
  if (actor.licenceType === 4) throw withWords(Errors.forbidden('A read-only licence cannot change documents'), JOB_REASON_KEYS.readOnlyLicence);
  if (t.secureId !== undefined && doc.secure_hash !== t.secureId) throw withWords(Errors.forbidden('The secure id does not match this document'), JOB_REASON_KEYS.secureId);
  const need = t.op === 'delete' ? ARCHIVE_PERMISSIONS.delete : t.op === 'move' ? ARCHIVE_PERMISSIONS.move : ARCHIVE_PERMISSIONS.view;
  if ((source.rights & need) === 0) {
    throw withWords(
      Errors.forbidden(
        t.op === 'delete'
          ? 'You do not have permission to delete documents of this archive'
          : t.op === 'move'
            ? 'You do not have permission to move documents of this archive'
            : 'You do not have permission to view this archive',
      ),
      t.op === 'delete' ? JOB_REASON_KEYS.noDeleteRight : t.op === 'move' ? JOB_REASON_KEYS.noMoveRight : JOB_REASON_KEYS.noViewRight,
      { archive: source.name },
    );
  }
  if (destination && (destination.rights & ARCHIVE_PERMISSIONS.add) === 0) throw withWords(Errors.forbidden(`You do not have permission to add documents to archive ${destination.name}`), JOB_REASON_KEYS.noAddRight, { archive: destination.name });
  if ((source.props & ARCHIVE_PROPS.revisionControl) !== 0 && doc.checked_out_by !== null && doc.checked_out_by !== actor.userId) throw withWords(checkedOut(), JOB_REASON_KEYS.checkedOut);
  return { source, destination, doc };
}

export interface OperationOutcome {
  newDocumentId?: number;
  newArchiveId?: number;
}

const newSecureHash = () => randomBytes(16).toString('hex');

/**
 * Copies one document (see the file comment) in one statement, which matters when a job copies
 * thousands: the new files rows take their ids from the sequence first, so the pages can point at
 * them. Run inside a transaction.
 */
export async function copyDocument(tx: Queryable, c: CheckedOperation, actor: Actor, now: Date, dbId: number, details: Record<string, unknown> = {}): Promise<OperationOutcome> {
  const dest = c.destination as ArchiveRow;
  const srcId = c.doc.id;
  const r = await tx.query<{ id: number }>(
    `WITH nd AS (
       INSERT INTO documents (archive_id, secure_hash, fields, mvals, version, file_name, file_type, page_count, content_text, created_at, created_by, modified_at, modified_by)
       SELECT $2, $3, fields, mvals, 1, file_name, file_type, page_count, content_text, $4, $5, $4, $5 FROM documents WHERE id = $1
       RETURNING id
     ), f AS MATERIALIZED (
       SELECT id AS old_id, nextval(pg_get_serial_sequence('document_files', 'id')) AS new_id, position, sha256, file_name, file_type, page_count
         FROM document_files WHERE document_id = $1
     ), nf AS (
       INSERT INTO document_files (id, document_id, position, sha256, file_name, file_type, page_count)
       SELECT f.new_id, nd.id, f.position, f.sha256, f.file_name, f.file_type, f.page_count FROM f, nd
     ), np AS (
       INSERT INTO document_pages (document_id, page_no, file_id, page_in_file, rotation, text)
       SELECT nd.id, p.page_no, f.new_id, p.page_in_file, p.rotation, p.text FROM document_pages p CROSS JOIN nd LEFT JOIN f ON f.old_id = p.file_id
        WHERE p.document_id = $1
     ), nv AS (
       INSERT INTO document_versions (document_id, version, fields, mvals, files, comment, created_at, created_by)
       SELECT nd.id, 1, d.fields, d.mvals,
              COALESCE((SELECT jsonb_agg(jsonb_build_object('sha256', f.sha256, 'fileName', f.file_name, 'fileType', f.file_type, 'pages', f.page_count) ORDER BY f.position, f.old_id) FROM f), '[]'::jsonb),
              $6, $4, $5
         FROM documents d, nd WHERE d.id = $1
     )
     SELECT id FROM nd`,
    [srcId, dest.id, newSecureHash(), now, actor.userName, `Copied from archive ${c.source.name}, document ${srcId}`],
  );
  const newId = Number(r.rows[0]!.id);
  await writeAudit(tx, {
    databaseId: dbId,
    archiveId: dest.id,
    documentId: newId,
    category: 'copied',
    message: `Copied from archive ${c.source.name} (document ${srcId})`,
    time: now,
    userName: actor.userName,
    userId: actor.userId,
    oldArchiveId: c.source.id,
    oldDocId: srcId,
    event: { Kind: 'copied-from', Archive: c.source.name },
    details,
  }, {
    databaseId: dbId,
    archiveId: c.source.id,
    documentId: srcId,
    category: 'copied',
    message: `Copied to archive ${dest.name}`,
    time: now,
    userName: actor.userName,
    userId: actor.userId,
    event: { Kind: 'copied-to', Archive: dest.name },
    details: { ...details, NewArchiveID: dest.id, NewDocID: newId },
  });
  return { newDocumentId: newId, newArchiveId: dest.id };
}

/** Moves one document, keeping its id (see the file comment). Run inside a transaction. */
export async function moveDocument(tx: Queryable, c: CheckedOperation, actor: Actor, now: Date, dbId: number, details: Record<string, unknown> = {}): Promise<OperationOutcome> {
  const dest = c.destination as ArchiveRow;
  await tx.query('UPDATE documents SET archive_id = $2, modified_at = $3, modified_by = $4 WHERE id = $1', [c.doc.id, dest.id, now, actor.userName]);
  await writeAudit(tx, {
    databaseId: dbId,
    archiveId: dest.id,
    documentId: c.doc.id,
    category: 'moved',
    message: `Moved from archive ${c.source.name}`,
    time: now,
    userName: actor.userName,
    userId: actor.userId,
    oldArchiveId: c.source.id,
    oldDocId: c.doc.id,
    event: { Kind: 'moved-from', Archive: c.source.name },
    details,
  });
  return { newDocumentId: c.doc.id, newArchiveId: dest.id };
}

/** Deletes one document (soft delete). Run inside a transaction. */
export async function deleteDocument(tx: Queryable, c: CheckedOperation, actor: Actor, now: Date, dbId: number, details: Record<string, unknown> = {}): Promise<OperationOutcome> {
  await tx.query('UPDATE documents SET deleted = true, deleted_at = $2, modified_at = $2, modified_by = $3 WHERE id = $1 AND NOT deleted', [c.doc.id, now, actor.userName]);
  await writeAudit(tx, {
    databaseId: dbId,
    archiveId: c.source.id,
    documentId: c.doc.id,
    category: 'deleted',
    message: 'Document deleted',
    time: now,
    userName: actor.userName,
    userId: actor.userId,
    event: { Kind: 'document-deleted' },
    details,
  });
  return {};
}

export function applyOperation(tx: Queryable, op: JobKind, c: CheckedOperation, actor: Actor, now: Date, dbId: number, details: Record<string, unknown> = {}): Promise<OperationOutcome> {
  if (op === 'copy') return copyDocument(tx, c, actor, now, dbId, details);
  if (op === 'move') return moveDocument(tx, c, actor, now, dbId, details);
  return deleteDocument(tx, c, actor, now, dbId, details);
}
