/**
 * The outbox kind of a copy, move or delete of documents (issue 9; the archive-ops spec §4, §7): ONE
 * entry per user action, however many documents it names. Its send makes the per-document calls
 * GET documentPaths.operation(db, archive, id, op) with SecureId, Job (the entry's jobKey), Count and
 * DestinationArchive; the server groups the calls with the same Job into one server job, which the
 * jobs table then watches (followUp -> trackJob).
 *
 * What is stored where: everything lives in the entry's `meta` (DocumentOperationMeta): the documents
 * (id, Hash, title), the job key, and `sent`, how many documents from the start of the list have an
 * answer. Calls run with bounded concurrency and `sent` only moves over a contiguous answered prefix,
 * saved after each answer (ctx.saveProgress): a drain that dies re-sends at most the calls that were
 * in flight, and the server ignores a repeat of a document already in the job.
 *
 * A refusal of one document (400, 403, 404, 409 whose body names the JobId) is not the entry's failure:
 * the server recorded it in the job as 'DocID {id}: reason', so it counts as answered. A refusal that
 * names no job is a problem of the call itself (parameters, an unknown destination): no job counts
 * it, so it is thrown and ends the entry as refused (the drain's policy), with the server's reason. Anything else (network, 5xx, the session
 * gone) is thrown after the calls in flight have settled, and the drain's failure policy applies.
 * No React here: the service worker runs it too.
 */
import * as z from 'zod/mini';
import { isApiError } from '../../api/api-error';
import { DOCUMENT_GROUP_MAX, DocumentOperationAccepted, documentPaths, type DocumentOperation, type DocumentOperationQuery } from '../../api/documents';
import type { JobKind } from '../../api/jobs';
import { apiRequest } from '../../api/http';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { trackJob } from '../jobs';
import { enqueue } from '../outbox';
import { registerKind, type OutboxKind, type SendContext } from '../kinds';

export const DOCUMENT_OPERATION_KIND = 'documentOperation';
/** Calls in flight at once: enough to hide the round trip, few enough not to crowd the server. */
export const DOCUMENT_OPERATION_CONCURRENCY = 4;
/** Refusals the server records in the job for that document (src/api/documents.ts). */
const PER_DOCUMENT_REFUSALS = new Set([400, 403, 404, 409]);

export interface OperationDoc {
  id: number;
  /** The document's Hash (SecureId). */
  hash: string;
  /**
   * The archive it is in, when not the action's archive: a search of a parent archive lists its
   * sub-archives' documents too, and each call names the document's own archive.
   */
  archiveId?: number;
  title?: string;
}

export interface DocumentOperationMeta {
  op: DocumentOperation;
  dbId: number;
  /** The archive the action was started from (the grid's); a document may name its own (OperationDoc.archiveId). */
  archiveId: number;
  /** Copy and Move: where they go. */
  destinationArchive?: number;
  /** The Job parameter: one server job for the whole action. */
  jobKey: string;
  docs: OperationDoc[];
  /** Documents from the start of `docs` whose call has been answered. */
  sent: number;
  /** The server job, once a call has told it. */
  jobId?: number;
  /** How the user knows the action, in their words ("Move 12 documents to Contracts"): the fallback of titleWords. */
  title?: string;
  /** The same as words (operationTitleWords), said in the language of the moment. */
  titleWords?: Words;
  /** The destination's name, for the tray and the job. */
  destinationName?: string;
}

export function isDocumentOperationMeta(m: unknown): m is DocumentOperationMeta {
  const o = m as Partial<DocumentOperationMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.jobKey === 'string' && Array.isArray(o.docs) && typeof o.op === 'string';
}

/** The job kind the server gives a group of these calls. */
export const jobKindOf = (op: DocumentOperation): JobKind => (op === 'Copy' ? 'copy' : op === 'Move' ? 'move' : 'delete');

/** The entry's answer when every call has been answered. */
export const DocumentOperationDone = z.object({ JobId: z.nullable(z.int()), Count: z.int(), Answered: z.int() });
export type DocumentOperationDone = z.infer<typeof DocumentOperationDone>;

/** The request of one document's call (the token is stamped by apiRequest). */
export function operationRequest(meta: DocumentOperationMeta, doc: OperationDoc): { path: string; query: DocumentOperationQuery } {
  const query: DocumentOperationQuery = { SecureId: doc.hash, Job: meta.jobKey, Count: meta.docs.length };
  if (meta.op !== 'delete' && meta.destinationArchive !== undefined) query.DestinationArchive = meta.destinationArchive;
  return { path: documentPaths.operation(meta.dbId, doc.archiveId ?? meta.archiveId, doc.id, meta.op), query };
}

/** The job id a refusal's body names, when the server put it there. */
function jobIdOfRefusal(body: unknown): number | undefined {
  const id = (body as { JobId?: unknown } | null)?.JobId;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

export async function sendDocumentOperation(entry: OutboxEntry, ctx: SendContext): Promise<DocumentOperationDone> {
  if (!isDocumentOperationMeta(entry.meta)) throw new Error('documentOperation: entry without its documents');
  let meta: DocumentOperationMeta = { ...entry.meta };
  const total = meta.docs.length;
  const answered = new Array<boolean>(total).fill(false);
  for (let i = 0; i < Math.min(meta.sent, total); i++) answered[i] = true;
  let next = meta.sent;
  let failure: unknown = null;
  // Progress writes are chained, so they land in order and the last one wins.
  let saving: Promise<void> = Promise.resolve();
  const save = (changes: Partial<DocumentOperationMeta>) => {
    meta = { ...meta, ...changes };
    const snapshot = meta;
    saving = saving.then(() => ctx.saveProgress({ meta: snapshot }));
    return saving;
  };

  const one = async (i: number): Promise<void> => {
    const doc = meta.docs[i]!;
    const { path, query } = operationRequest(meta, doc);
    let jobId: number | undefined;
    try {
      const ok = await apiRequest({ path, query: { ...query }, schema: DocumentOperationAccepted });
      jobId = ok.JobId;
    } catch (e) {
      if (!(isApiError(e) && e.kind === 'http' && PER_DOCUMENT_REFUSALS.has(e.status) && !e.loginRedirect)) throw e;
      jobId = jobIdOfRefusal(e.body);
      if (jobId === undefined) throw e;
    }
    answered[i] = true;
    let sent = meta.sent;
    while (sent < total && answered[sent]) sent++;
    await save({ sent, ...(jobId !== undefined && meta.jobId === undefined ? { jobId } : {}) });
  };

  const worker = async (): Promise<void> => {
    while (failure === null && next < total) {
      const i = next++;
      if (answered[i]) continue;
      try {
        await one(i);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(DOCUMENT_OPERATION_CONCURRENCY, Math.max(1, total - meta.sent)) }, worker));
  await saving;
  if (failure !== null) throw failure;

  return { JobId: meta.jobId ?? null, Count: total, Answered: meta.sent };
}

/** After every call was answered: the tray and the jobs worker follow the server job. */
export async function followDocumentOperation(database: ArchiveDb, entry: OutboxEntry, result: unknown): Promise<void> {
  if (!isDocumentOperationMeta(entry.meta)) return;
  const parsed = DocumentOperationDone.safeParse(result);
  const jobId = parsed.success ? parsed.data.JobId : (entry.meta.jobId ?? null);
  if (jobId === null || jobId === undefined) return;
  const m = entry.meta;
  await trackJob(
    {
      id: jobId,
      dbId: m.dbId,
      kind: jobKindOf(m.op),
      total: m.docs.length,
      owner: entry.owner ?? null,
      ...(m.title ? { title: m.title } : {}),
      ...(m.titleWords ? { titleWords: m.titleWords } : {}),
      archiveId: m.archiveId,
      ...(m.destinationArchive !== undefined ? { destinationArchiveId: m.destinationArchive } : {}),
      entryId: entry.id,
    },
    database,
  );
}

export const documentOperationKind: OutboxKind = {
  kind: DOCUMENT_OPERATION_KIND,
  send: sendDocumentOperation,
  response: DocumentOperationDone,
  followUp: followDocumentOperation,
};
registerKind(documentOperationKind);

export interface DocumentOperationInput {
  op: DocumentOperation;
  dbId: number;
  archiveId: number;
  destinationArchive?: number;
  destinationName?: string;
  docs: OperationDoc[];
  /** The tray's words for the action (the caller translates operationTitleWords). */
  title: string;
}

/** How the tray names a copy/move/delete: "Move 12 documents to Contracts", or the one document's title. */
export function operationTitleWords(input: Pick<DocumentOperationInput, 'op' | 'docs' | 'destinationName'>): Words {
  const one = input.docs.length === 1 ? input.docs[0]!.title || `#${input.docs[0]!.id}` : null;
  const vars = { count: input.docs.length, title: one ?? '', archive: input.destinationName ?? '' };
  const key = input.op === 'Copy' ? 'DOCUMENTS_JOB_COPY' : input.op === 'Move' ? 'DOCUMENTS_JOB_MOVE' : 'DOCUMENTS_JOB_DELETE';
  return { key: one ? `${key}_ONE` : key, vars };
}

/** Keeps one copy/move/delete action in the outbox (queued); the enqueue trigger drains it. Resolves with the entry's id. */
export async function enqueueDocumentOperation(
  input: DocumentOperationInput,
  database: ArchiveDb = defaultDb,
  owner: string | null = getSession()?.userName ?? null,
): Promise<string> {
  if (input.docs.length === 0) throw new Error('enqueueDocumentOperation: no documents');
  if (input.docs.length > DOCUMENT_GROUP_MAX) throw new Error(`enqueueDocumentOperation: more than ${DOCUMENT_GROUP_MAX} documents`);
  // One key per user action, kept across re-sends: every call of the action joins the same job.
  const jobKey = globalThis.crypto.randomUUID();
  const meta: DocumentOperationMeta = {
    op: input.op,
    dbId: input.dbId,
    archiveId: input.archiveId,
    ...(input.op !== 'delete' && input.destinationArchive !== undefined ? { destinationArchive: input.destinationArchive } : {}),
    ...(input.destinationName ? { destinationName: input.destinationName } : {}),
    jobKey,
    docs: input.docs.map((d) => ({
      id: d.id,
      hash: d.hash,
      ...(d.archiveId !== undefined && d.archiveId !== input.archiveId ? { archiveId: d.archiveId } : {}),
      ...(d.title ? { title: d.title } : {}),
    })),
    sent: 0,
    title: input.title,
    titleWords: operationTitleWords(input),
  };
  const first = meta.docs[0]!;
  return enqueue(
    {
      kind: DOCUMENT_OPERATION_KIND,
      method: 'GET',
      path: documentPaths.operation(meta.dbId, first.archiveId ?? meta.archiveId, first.id, meta.op),
      meta,
      // Its own target: a group neither waits behind nor holds back one document's field edits.
      target: `${meta.dbId}|${DOCUMENT_OPERATION_KIND}|${jobKey}`,
    },
    database,
    owner,
  );
}
