import * as z from 'zod/mini';
import { buildQuery } from './http';
import { DocumentField } from './search';

/**
 * Document calls (the user-app spec §7; the archive-ops spec §7): files, thumbnails, e-mail, field data,
 * copy/move/delete, merge, burst, user actions, viewer sessions, temp files and page rotation.
 */
export type DocumentOperation = 'Copy' | 'Move' | 'delete';
export const DOCUMENT_OPERATIONS: readonly DocumentOperation[] = ['Copy', 'Move', 'delete'];

/**
 * GET documentPaths.operation(db, archive, id, op) with query (DocumentOperationQuery):
 * - SecureId: the document's Hash (a wrong one: 403).
 * - Job: the client's key of the group (1-100 characters of letters, digits, '-' and '_'; e.g. a
 *   UUID). All calls with the same Job (of one user) make ONE server job (src/api/jobs.ts) of Count
 *   documents; without Job the call is a job of its own with Count 1. A repeat of a call for a
 *   document already in the job changes nothing (safe to re-send) and answers as the first did.
 *   GETs skip the Idempotency-Key middleware: a call without Job that carries an Idempotency-Key
 *   header uses that key as its Job, so a resent single call is done once too.
 * - Count: how many documents the group has (1..DOCUMENT_GROUP_MAX); the first call sets it
 *   (default 1); one document more than Count is refused (400). Without Job, Count is 1.
 * - DestinationArchive: for Copy and Move, the archive the documents go to.
 * The call answers at once (DocumentOperationAccepted); the work is done by the job runner, one
 * transaction per document, and its outcome is read from GET api/jobs/{JobId}.
 * Refusals of the DOCUMENT (403, 404 no such document, 409, and 400 for a document that is in the
 * destination archive already: a group listed from a parent archive may hold one) are recorded as a
 * failure of the group's job, 'DocID {id}: reason', so the job's counts still add up to Count; the
 * answer is the error body plus JobId and Job. Problems of the CALL (other 400s, 404 unknown database
 * or destination) touch no job: there is no consistent job to record them in; the answer names no
 * JobId, and the client ends its entry as refused. A call without Job records nothing.
 * The refusals:
 * - 403 ERROR_FAILED_DUE_TO_PERMISSIONS: read-only licence (type 4); no bit 8 (delete) or 131072
 *   (move) on the source archive; Copy without view (1) on the source; Copy or Move without add (2)
 *   on the destination; a wrong SecureId.
 * - 400 ERROR_INCORRECT_PARAMETERS: DestinationArchive missing for Copy/Move or equal to the
 *   document's archive,
 *   a versions archive as destination, Count out of range or different from the job's, a Job key
 *   already used for another operation or destination.
 * - 404 ERROR_NOT_FOUND: no such document (or archive) in this database; a document deleted or
 *   moved away by then is not found either.
 * Revision-control archives (ARCHIVE_PROPS.revisionControl): a document checked out by another user
 * is refused (409 ERROR_DOCUMENT_CHECKED_OUT); a copy takes the current version only; a move keeps
 * the document's versions.
 * The job checks each document again when it does it (rights, document, checkout may have changed):
 * a refusal then is a failure of the job, not of the call. A copy is a new document (JobResult
 * NewDocID); a move keeps the document's id (NewDocID = DocID) and its history, and adds one 'moved'
 * entry with OldArchiveID/OldDocID; a delete is soft (hidden from searches and counts).
 */
export const DOCUMENT_GROUP_MAX = 100_000;
export const JOB_KEY_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
export const DOCUMENT_CHECKED_OUT_KEY = 'ERROR_DOCUMENT_CHECKED_OUT';
export interface DocumentOperationQuery {
  SecureId: string;
  Job?: string;
  Count?: number;
  DestinationArchive?: number;
}
export const DocumentOperationAccepted = z.looseObject({
  /** The server job this document belongs to (GET api/jobs/{JobId}). */
  JobId: z.int(),
  Job: z.optional(z.nullable(z.string())),
  State: z.string(),
  Count: z.int(),
  Received: z.int(),
});
export type DocumentOperationAccepted = z.infer<typeof DocumentOperationAccepted>;

/**
 * Most items one field payload may hold (PUT FieldData, POST indexes): far more than an archive has
 * fields, few enough that the answer, one check per item, stays small.
 */
export const FIELD_PAYLOAD_MAX_ITEMS = 1000;
export const FieldData = z.array(DocumentField).check(z.maxLength(FIELD_PAYLOAD_MAX_ITEMS));

/**
 * PUT FieldData (documentPaths.fieldData): body FieldData, the fields to change only. Query
 * `secureId` (or header Secure-Id) = the document's Hash. Optional header `If-Match: "<Rev>"` with
 * the Rev the edit was based on (ResultDocument.Rev): the edit is refused with 409 CONFLICT only
 * when a field it changes has changed on the server since that Rev; edits of other fields apply.
 * 200: FieldDataResult (ETag: "<Rev>"). 400: FieldDataInvalid (per-field codes, -4 unknown field).
 * 409 Key CONFLICT: FieldDataConflict. 403: no edit right (1024), read-only field or licence, or a
 * wrong secureId. An Idempotency-Key makes a repeat replay the first answer.
 */
export const FIELD_DATA_CONFLICT_KEY = 'CONFLICT';
export const SECURE_ID_HEADER = 'Secure-Id';
export const formatRevTag = (rev: number): string => `"${rev}"`;
export const parseRevTag = (tag: string | undefined | null): number | null => {
  const m = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(tag ?? '');
  return m ? Number(m[1]) : null;
};
/**
 * The document's field values after the change (every field of the archive, as in a result page),
 * its new Rev, and FieldRevs: for each field id, the Rev at which its value last changed (lets the
 * outbox rebase its later edits of the same document on its own change).
 */
export const FieldDataResult = z.looseObject({
  Rev: z.int(),
  Fields: z.array(DocumentField),
  FieldRevs: z.optional(z.record(z.string(), z.int())),
});
export type FieldDataResult = z.infer<typeof FieldDataResult>;
export const FieldDataConflict = z.looseObject({
  Message: z.string(),
  Key: z.literal(FIELD_DATA_CONFLICT_KEY),
  Current: FieldDataResult,
  /** Ids of the edited fields that changed on the server since the edit's Rev. */
  Conflicts: z.array(z.int()),
});
export type FieldDataConflict = z.infer<typeof FieldDataConflict>;
export const FieldCheck = z.looseObject({ ID: z.int(), Code: z.int(), MessageKey: z.optional(z.string()), Message: z.optional(z.string()) });
export const FieldDataInvalid = z.looseObject({ Message: z.string(), Key: z.optional(z.string()), Fields: z.array(FieldCheck) });
export type FieldDataInvalid = z.infer<typeof FieldDataInvalid>;

/** Field update check codes (the user-app spec §5). */
export const FIELD_CHECK_CODES = {
  invalidNumber: -1,
  invalidDate: -2,
  lengthOverflow: -3,
  fieldNotFound: -4,
  required: -5,
} as const;

/**
 * Merge object (the user-app spec §3; the archive-ops spec §3, §7), POST documentPaths.merge(db) (JSON
 * body; the usual Idempotency-Key makes a resent call happen once). Answers MergeAnswer at once (the
 * reference server combines synchronously).
 * - Type: 'Merge' (default) or 'Append'. The documents combined are BaseDocument first, then
 *   Documents in the given order (the base, if listed in Documents too, counts once). Merge needs at
 *   least 2 documents in all (at most 200), Append exactly one in Documents besides the base;
 *   otherwise 400 ERROR_INCORRECT_PARAMETERS. A base in a versions archive: 400.
 * - The result is the BASE document (its id, Hash, fields and history are kept) holding ONE PDF file
 *   with every page in order: PDF pages are copied as they are, image (TIFF, PNG, JPEG) pages become
 *   images on PDF pages of their physical size (a TIFF without a resolution is taken as 100 dpi):
 *   black-and-white pages 1-bit (lossless), others JPEG. Page texts and rotations go with their
 *   pages; the content text is the documents' texts in the same order.
 * - Target.AppendType, what happens to the other documents: 'Keep' (the default, when left out)
 *   leaves them as they are, 'Remove' soft deletes them (history 'deleted'). Target must be the
 *   base's archive.
 * - History on the base: Merge 'updated', Append 'appended' (Event document-appended, Count = pages added).
 * - Rights (403 ERROR_FAILED_DUE_TO_PERMISSIONS): read-only licence (type 4) refused; Merge needs bit
 *   2, Append bit 4, on the base's archive and on the archive of every document removed, and a
 *   removed document needs delete (8) on its archive, as deleting it would; every document needs view (1). Unknown documents 404; a document checked out by another user (revision-controlled
 *   archive) 409; a document changed by someone else during the merge 409 (nothing written).
 * - Inbox files (the archive-ops spec §3 Inbox document: InboxID plus Path, src/api/inboxes.ts) may
 *   stand in Documents beside archive documents, and as BaseDocument (Type 'Inbox'): the combined
 *   PDF then replaces that inbox file (named like it, with .pdf, made unique in its inbox) and Target
 *   must be { Type: 'Inbox', Id: its InboxID } (an archive base needs Target Archive: otherwise 400).
 *   Inbox rights (1 view, 4 edit): every inbox file needs view; an inbox base, and with AppendType
 *   Remove every inbox file merged, needs edit (4) on its inbox; AppendType Remove deletes a merged
 *   inbox file from its inbox. An unknown inbox or file: 404. Inboxes keep no history: an inbox base
 *   gets none; an archive base's entry names the inbox files (Event page-appended with Inbox, the
 *   inbox's name, and Count, the pages now, when one inbox file is appended). An inbox of another database than {db}: 400.
 *   The answer names the base: DocID and ArchiveID, or InboxID and Path.
 */
/** Documents in one merge (the base included): the server merges while the caller waits, one PDF in memory. */
export const MERGE_MAX_DOCUMENTS = 200;
export const MergeArchiveRef = z.object({ ArchiveID: z.int(), DocID: z.int() });
export type MergeArchiveRef = z.infer<typeof MergeArchiveRef>;
export const MergeInboxRef = z.object({ InboxID: z.int(), Path: z.string().check(z.minLength(1), z.maxLength(1000)) });
export type MergeInboxRef = z.infer<typeof MergeInboxRef>;
export const MergeRequest = z.object({
  Type: z.optional(z.enum(['Merge', 'Append'])),
  Documents: z.array(z.union([MergeArchiveRef, MergeInboxRef])),
  BaseDocument: z.union([
    z.object({ Type: z.literal('Archive'), ArchiveID: z.int(), DocID: z.int() }),
    z.object({ Type: z.literal('Inbox'), InboxID: z.int(), Path: z.string().check(z.minLength(1), z.maxLength(1000)) }),
  ]),
  Target: z.object({ Type: z.enum(['Archive', 'Inbox']), Id: z.int(), AppendType: z.optional(z.enum(['Remove', 'Keep'])) }),
});
export type MergeRequest = z.infer<typeof MergeRequest>;
/** The answer to a merge or append: the combined document. */
export const MergeAnswer = z.object({
  DocID: z.optional(z.int()),
  ArchiveID: z.optional(z.int()),
  InboxID: z.optional(z.int()),
  Path: z.optional(z.string()),
  PageCount: z.int(),
});
export type MergeAnswer = z.infer<typeof MergeAnswer>;

/** Viewer session (the user-app spec §3), POST session. */
export const ViewerSession = z.object({
  Database: z.int(),
  SearchId: z.optional(z.int()),
  SearchCriteria: z.optional(z.string()),
  Documents: z.optional(z.array(z.object({ Archive: z.int(), Hash: z.string(), Id: z.int(), ContentSearchTerms: z.optional(z.string()) }))),
  InboxId: z.optional(z.int()),
  InboxFileName: z.optional(z.string()),
});
export type ViewerSession = z.infer<typeof ViewerSession>;

/** Queue actions of a document: GET/PUT useraction. */
export const UserAction = z.looseObject({
  Actions: z.optional(z.unknown()),
  Key: z.string(),
  Name: z.string(),
  ProcessID: z.int(),
  UsersAndGroups: z.optional(z.unknown()),
});
export const UserActionList = z.array(UserAction);

/**
 * E-mail of a document (the user-app spec §7): GET documentPaths.email(db, archive, id) with
 * DocumentEmailQuery sends the document's files as attachments, through the server's SMTP settings,
 * to one address; it answers DocumentEmailAnswer once the mail server took the mail, and writes an
 * 'email' history entry (Event 'emailed' with Address). Needs view (1) and e-mail (32) on the archive
 * and a licence that is not read-only (type 4): otherwise 403 ERROR_FAILED_DUE_TO_PERMISSIONS.
 * A server without e-mail settings answers 503 EMAIL_NOT_CONFIGURED_KEY; a mail server that refuses
 * or cannot be reached, 502 EMAIL_SEND_FAILED_KEY (Message has the mail server's words).
 * Subject defaults to 'Document {id}: {file names}'; Message is the mail's plain text.
 */
export const EMAIL_NOT_CONFIGURED_KEY = 'ERROR_EMAIL_NOT_CONFIGURED';
export const EMAIL_SEND_FAILED_KEY = 'ERROR_EMAIL_SEND_FAILED';
export const DocumentEmailQuery = z.looseObject({
  SecureId: z.string().check(z.minLength(1)),
  // One plain address: no display name, no list (a list would let one call mail anyone).
  To: z.email().check(z.maxLength(254)),
  // No line breaks: a header must stay one line.
  Subject: z.optional(z.string().check(z.maxLength(200), z.regex(/^[^\r\n]*$/))),
  Message: z.optional(z.string().check(z.maxLength(10_000))),
});
export type DocumentEmailQuery = z.infer<typeof DocumentEmailQuery>;
export const DocumentEmailAnswer = z.object({ Sent: z.literal(true), MessageId: z.string() });
export type DocumentEmailAnswer = z.infer<typeof DocumentEmailAnswer>;
/**
 * GET documentPaths.emailSettings (any signed-in user; not in the spec): whether the server can send
 * e-mail at all, so the app says "not set up" before the user writes one. Says nothing of the settings.
 */
export const EmailSettingsAnswer = z.object({ Configured: z.boolean() });
export type EmailSettingsAnswer = z.infer<typeof EmailSettingsAnswer>;

export const documentPaths = {
  file: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/file`,
  email: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/email`,
  emailSettings: '/api/email/settings',
  thumb: (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}/thumb`,
  /** GET with token, SecureId, Job, Count, and DestinationArchive for Copy and Move. */
  operation: (db: number, archive: number, id: number, op: DocumentOperation) =>
    `/api/dbs/${db}/archives/${archive}/documents/${id}/${op}`,
  /** PUT with secureId; Auth-Token and Secure-Id headers; body field data (ID, VAL, MVAL). */
  fieldData: (db: number, archive: number, id: number) =>
    `/api/UpdateDocument/databases/${db}/archive/${archive}/document/${id}/FieldData`,
  merge: (db: number) => `/api/dbs/${db}/merge`,
  /** GET files with fileName, action=burst and RequestedPages (repeated). */
  files: '/api/files',
  useraction: '/api/useraction',
  session: '/api/session',
  /** POST copy; cachedfile, page, format; GET with search terms. */
  tempfiles: '/api/tempfiles',
  /** POST Processing handler: page rotate (doc, angle, page). */
  processing: '/api/Processing',
} as const;

/**
 * Address of a page image the server renders (GET .../documents/{id}/thumb): the grid's thumbnails and
 * preview, the viewer's TIFF pages and thumbnail strip. For an <img>, so the token travels as the
 * `token` query parameter, as for every call; built when rendered, never stored (the token must not
 * be persisted). Height left out: the server keeps the page's proportions. `version` (the row's
 * ThumbVersion, the viewer's pages Version) goes in as `v`, which the server ignores: a new picture
 * gets a new address, so the browser's cached image (kept a day) is never an old one.
 */
export function documentThumbUrl(p: { baseUrl: string; token: string | null; db: number; archiveId: number; docId: number; hash: string; width: number; height?: number; page?: number; version?: string | null }): string {
  const q = buildQuery({ SecureId: p.hash, Height: p.height, Width: p.width, Page: p.page ?? 1, v: p.version, token: p.token });
  return p.baseUrl.replace(/\/+$/, '') + documentPaths.thumb(p.db, p.archiveId, p.docId) + q;
}
