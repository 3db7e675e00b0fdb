/**
 * Inbox changes (the archive-ops spec §4-7; the contract and its answers: src/api/inboxes.ts): move
 * between inboxes, rename, delete, send to an archive with index values, an archive document put
 * into an inbox, and the zip export. The reads are in services/inboxes.ts.
 *
 * What is stored where: an inbox file is one inbox_files row naming a content-addressed blob
 * (files/file-store.ts), so a move, copy or rename rewrites one row and never copies bytes; its
 * Path is its name (inboxes are flat), checked by inboxNameProblem before it is used anywhere.
 * Inboxes keep no history (the archive-ops spec §4: history is disabled for inboxes); a document
 * made from an inbox file, or one moved into an inbox, gets its archive history entry.
 * A move and a rename keep the file's dates, as a file system does; a copy is created now.
 */
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import type { FieldDataInvalid } from '../../src/api/documents.js';
import {
  INBOX_FILE_EXISTS_KEY,
  INBOX_RIGHTS,
  inboxNameProblem,
  type InboxFileMoved,
  type InboxPutDocument,
  type InboxSendBody,
  type InboxSent,
} from '../../src/api/inboxes.js';
import type { InboxRow } from '../auth/permissions.js';
import type { Queryable, Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError, Errors } from '../http/errors.js';
import { archiveFields } from '../search/model.js';
import { writeAudit } from './audit.js';
import { archiveWithRights, documentIn, requireDatabase, type Actor } from './documents.js';
import { inboxFile, inboxWithRights, type InboxFileRow } from './inboxes.js';
import { pagesOf, pagesToPdf } from './merge.js';
import { archiveToAddTo, checkNewValues, insertDocument } from './new-document.js';

const NAME_PROBLEMS: Record<NonNullable<ReturnType<typeof inboxNameProblem>>, string> = {
  empty: 'is empty',
  'too-long': 'is too long',
  control: 'holds a control character',
  separator: 'holds a path separator (inboxes have no folders)',
  dots: 'is a relative path',
  forbidden: 'holds a character names may not hold (\\ / : * ? " < > |)',
  trailing: 'ends with a dot or a space',
};

/** 400 unless `name` can name a file of an inbox (src/api/inboxes.ts inboxNameProblem). */
export function checkInboxName(name: string, what = 'FilePath'): string {
  const problem = inboxNameProblem(name);
  if (problem) throw Errors.badRequest(`Incorrect parameters: ${what} ${NAME_PROBLEMS[problem]}`);
  return name;
}

/** The inbox, for a change: view and edit (4) on it, and not the read-only licence. */
export async function inboxForChange(db: Queryable, actor: Actor, inboxId: number): Promise<InboxRow> {
  const inbox = await inboxWithRights(db, actor.userId, inboxId, INBOX_RIGHTS.view | INBOX_RIGHTS.edit);
  if (actor.licenceType === 4) throw Errors.forbidden('A read-only licence cannot change inbox files');
  return inbox;
}

const exists = (name: string, inbox: string) => new ApiError(409, `A file named ${name} is in inbox ${inbox} already`, INBOX_FILE_EXISTS_KEY);

/** `name`, or `stem (2).ext`, `stem (3).ext` ...: the first not taken in the inbox. */
async function freeName(tx: Queryable, inboxId: number, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    const taken = await tx.query('SELECT 1 FROM inbox_files WHERE inbox_id = $1 AND file_name = $2', [inboxId, candidate]);
    if (taken.rows.length === 0) return candidate;
  }
}

/** GET inboxes/{id}?FilePath&targetInboxId&deleteOriginal: the file into another inbox (or a copy). */
export async function moveInboxFile(store: Store, actor: Actor, inboxId: number, path: string, targetId: number, deleteOriginal: boolean, now: Date): Promise<InboxFileMoved> {
  checkInboxName(path);
  const source = await inboxForChange(store, actor, inboxId);
  const target = await inboxForChange(store, actor, targetId);
  if (target.id === source.id) throw Errors.badRequest('Incorrect parameters: the file is in this inbox already');
  return store.transaction(async (tx) => {
    const f = await inboxFile(tx, source.id, path, true);
    const name = await freeName(tx, target.id, f.file_name);
    if (deleteOriginal) {
      await tx.query('UPDATE inbox_files SET inbox_id = $2, file_name = $3 WHERE id = $1', [f.id, target.id, name]);
    } else {
      await tx.query(
        `INSERT INTO inbox_files (inbox_id, file_name, new_name, file_type, sha256, size, page_count, fields, date_created, date_modified)
         SELECT $2, $3, new_name, file_type, sha256, size, page_count, fields, $4, date_modified FROM inbox_files WHERE id = $1`,
        [f.id, target.id, name, now],
      );
    }
    return { InboxId: target.id, FileName: name };
  });
}

/** POST inboxes/{id}?FilePath&newFileName. */
export async function renameInboxFile(store: Store, actor: Actor, inboxId: number, path: string, newName: string): Promise<InboxFileMoved> {
  checkInboxName(path);
  checkInboxName(newName, 'newFileName');
  const inbox = await inboxForChange(store, actor, inboxId);
  return store.transaction(async (tx) => {
    const f = await inboxFile(tx, inbox.id, path, true);
    if (newName === f.file_name) return { InboxId: inbox.id, FileName: newName };
    const taken = await tx.query('SELECT 1 FROM inbox_files WHERE inbox_id = $1 AND file_name = $2', [inbox.id, newName]);
    if (taken.rows.length) throw exists(newName, inbox.name);
    await tx.query('UPDATE inbox_files SET file_name = $2, new_name = $2 WHERE id = $1', [f.id, newName]);
    return { InboxId: inbox.id, FileName: newName };
  });
}

/** DELETE inboxes/{id}?FilePath. The blob stays: other rows (documents, inboxes) may share it. */
export async function deleteInboxFile(store: Store, actor: Actor, inboxId: number, path: string): Promise<{ InboxId: number; FileName: string }> {
  checkInboxName(path);
  const inbox = await inboxForChange(store, actor, inboxId);
  const r = await store.query('DELETE FROM inbox_files WHERE inbox_id = $1 AND file_name = $2', [inbox.id, path]);
  if (r.rowCount === 0) throw Errors.notFound(`File ${path} does not exist in inbox ${inbox.id}`);
  return { InboxId: inbox.id, FileName: path };
}


export type SendOutcome = { status: 200; body: InboxSent } | { status: 400; body: FieldDataInvalid };

/**
 * POST inboxes/{id}?fileName&destinationDatabaseId&destinationArchiveId: a new document of the
 * archive holding the file, with the index values given (each checked by the shared field rules and
 * the list rules, as PUT FieldData checks them; every required field needs a value) and the system
 * fields the archive shows filled (date entered, indexed by, page count, file type, last modified by).
 */
export async function sendInboxFile(
  store: Store,
  actor: Actor,
  inboxId: number,
  req: { fileName: string; dbId: number; archiveId: number; deleteOriginal: boolean; body: InboxSendBody },
  now: Date,
): Promise<SendOutcome> {
  checkInboxName(req.fileName, 'fileName');
  const inbox = await inboxForChange(store, actor, inboxId);
  const archive = await archiveToAddTo(store, req.dbId, actor, req.archiveId);
  // The file first: a missing one is a 404 whatever the values say.
  await inboxFile(store, inbox.id, req.fileName);

  const fields = await archiveFields(store, archive.id);
  const { values, mvals, checks } = await checkNewValues(store, fields, req.body.Fields);
  if (checks.length) return { status: 400, body: { Message: checks.map((c) => c.Message).join('; '), Key: 'ERROR_INCORRECT_PARAMETERS', Fields: checks } };

  return store.transaction(async (tx) => {
    const file = await inboxFile(tx, inbox.id, req.fileName, true);
    const { docId, hash } = await insertDocument(tx, {
      dbId: req.dbId,
      archiveId: archive.id,
      fields,
      values,
      mvals,
      file,
      actor,
      now,
      comment: `Indexed from inbox ${inbox.name}`,
      audit: { message: `Indexed from inbox ${inbox.name} (${file.file_name})`, event: { Kind: 'indexed', Inbox: inbox.name }, details: { InboxID: inbox.id, FileName: file.file_name } },
    });
    if (req.deleteOriginal) await tx.query('DELETE FROM inbox_files WHERE id = $1', [file.id]);
    return { status: 200 as const, body: { DocID: docId, ArchiveID: archive.id, Hash: hash, FileName: file.file_name } };
  });
}

/**
 * PUT inboxes/{id}: an archive document into the inbox as one file (its one file as it is; the
 * pages of several files as one PDF). DeleteOriginal (default true) deletes the document, so it
 * needs move (131072) on its archive; a copy needs view. The document's history gets the entry.
 */
export async function putDocumentInInbox(store: Store, files: FileStore, actor: Actor, inboxId: number, req: InboxPutDocument, now: Date): Promise<InboxFileMoved> {
  const inbox = await inboxForChange(store, actor, inboxId);
  await requireDatabase(store, req.DatabaseId);
  const archive = await archiveWithRights(store, req.DatabaseId, actor.userId, req.ArchiveId);
  const deleteOriginal = req.DeleteOriginal !== false;
  if ((archive.rights & ARCHIVE_PERMISSIONS.view) === 0) throw Errors.forbidden('You do not have permission to view this archive');
  if (deleteOriginal && (archive.rights & ARCHIVE_PERMISSIONS.move) === 0) throw Errors.forbidden('You do not have permission to move documents of this archive');
  const doc = await documentIn(store, archive.id, req.DocId);
  if (doc.secure_hash !== req.SecureId) throw Errors.forbidden('The secure id does not match this document');
  const info = await store.query<{ file_name: string | null }>('SELECT file_name FROM documents WHERE id = $1', [doc.id]);
  const docFiles = await store.query<{ sha256: string; file_name: string; file_type: string; page_count: number }>(
    'SELECT sha256, file_name, file_type, page_count FROM document_files WHERE document_id = $1 ORDER BY position, id',
    [doc.id],
  );
  if (docFiles.rows.length === 0) throw new ApiError(404, 'The file of this document does not exist', 'FILE_DOES_NOT_EXIST');
  let blob: { sha256: string; size: number; fileType: string; pages: number; name: string };
  const only = docFiles.rows.length === 1 ? docFiles.rows[0]! : null;
  if (only) {
    const size = await store.query<{ size: number }>('SELECT size FROM blobs WHERE sha256 = $1', [only.sha256]);
    blob = { sha256: only.sha256, size: Number(size.rows[0]?.size ?? 0), fileType: only.file_type, pages: Number(only.page_count), name: only.file_name };
  } else {
    const pages = await pagesOf(store, [doc.id]);
    const pdf = await pagesToPdf(files, pages);
    const put = await files.put(pdf);
    await store.query("INSERT INTO blobs (sha256, size, mime) VALUES ($1, $2, 'application/pdf') ON CONFLICT (sha256) DO NOTHING", [put.sha256, put.size]);
    const base = (info.rows[0]?.file_name ?? `document-${doc.id}`).replace(/\.[^.]*$/, '');
    blob = { sha256: put.sha256, size: put.size, fileType: 'PDF', pages: pages.length, name: `${base}.pdf` };
  }
  // A stored name may hold what an inbox name may not (a folder part, a colon): made safe.
  // eslint-disable-next-line no-control-regex
  let name = blob.name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').replace(/[. ]+$/, '').slice(0, 200);
  if (inboxNameProblem(name)) name = `document-${doc.id}.${blob.fileType.toLowerCase()}`;
  return store.transaction(async (tx) => {
    const locked = await documentIn(tx, archive.id, doc.id, true);
    const free = await freeName(tx, inbox.id, name);
    await tx.query(
      `INSERT INTO inbox_files (inbox_id, file_name, file_type, sha256, size, page_count, fields, date_created, date_modified)
       VALUES ($1, $2, $3, $4, $5, $6, '{}'::jsonb, $7, $7)`,
      [inbox.id, free, blob.fileType, blob.sha256, blob.size, blob.pages, now],
    );
    if (deleteOriginal) {
      await tx.query('UPDATE documents SET deleted = true, deleted_at = $2, modified_at = $2, modified_by = $3 WHERE id = $1 AND NOT deleted', [locked.id, now, actor.userName]);
    }
    await writeAudit(tx, {
      databaseId: req.DatabaseId,
      archiveId: archive.id,
      documentId: locked.id,
      category: deleteOriginal ? 'moved' : 'copied',
      message: `${deleteOriginal ? 'Moved' : 'Copied'} to inbox ${inbox.name} (${free})`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      details: { InboxID: inbox.id, FileName: free },
    });
    return { InboxId: inbox.id, FileName: free };
  });
}

/** The files an export zips, in the order asked, each checked and found (404 for one that is not there). */
export async function exportFiles(store: Store, actor: Actor, inboxId: number, paths: readonly string[]): Promise<InboxFileRow[]> {
  const inbox = await inboxWithRights(store, actor.userId, inboxId);
  const out: InboxFileRow[] = [];
  for (const p of new Set(paths)) out.push(await inboxFile(store, inbox.id, checkInboxName(p)));
  return out;
}
