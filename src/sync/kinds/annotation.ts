/**
 * The annotation kind (issue 12 item 3; the contract: src/api/annotations.ts): one entry per change
 * the user makes to an annotation: PUT annotationPaths.one (added, moved) or DELETE it, with the
 * document's Hash as SecureId and the entry's id as the Idempotency-Key (the default send). The
 * annotation's id is the client's UUID, so a put made offline lands on the same row when it is sent,
 * and a resend changes nothing more.
 *
 * What is stored where: the request in the entry (method, path, query, body); in `meta`
 * (AnnotationMeta) the document, the annotation's id and the change, which the viewer lays over the
 * server's set until the entry is done (features/viewer/annotations). The target is the document's
 * (outbox.ts outboxTarget), so the changes of one document reach the server in the order they were
 * made. No React here: the service worker runs it too.
 */
import { annotationPaths, type AnnotationInput } from '../../api/annotations';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { registerKind } from '../kinds';
import { enqueue, outboxTarget } from '../outbox';

export const ANNOTATION_KIND = 'annotation';

export interface AnnotationDoc {
  dbId: number;
  archiveId: number;
  docId: number;
  /** The document's Hash (SecureId). */
  hash: string;
}

export interface AnnotationMeta extends AnnotationDoc {
  id: string;
  op: 'put' | 'delete';
  /** The document's title (the tray's fallback name of the change). */
  title: string;
  /** How the tray names the change ("Annotation on page 2 of Invoice 12"), worded when shown. */
  titleWords?: Words;
}

export function isAnnotationMeta(m: unknown): m is AnnotationMeta {
  const o = m as Partial<AnnotationMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.id === 'string' && (o.op === 'put' || o.op === 'delete') && typeof o.docId === 'number';
}

// The default send; the viewer reads the outcome from the server again (its query), not from the answer.
registerKind({ kind: ANNOTATION_KIND });

/** Keeps one annotation change in the outbox (queued); the enqueue trigger drains it. Resolves with the entry's id. */
export function enqueueAnnotation(
  doc: AnnotationDoc,
  change: { op: 'put'; id: string; input: AnnotationInput } | { op: 'delete'; id: string },
  where: { page: number; title: string },
  database: ArchiveDb = defaultDb,
  owner: string | null = getSession()?.userName ?? null,
): Promise<string> {
  const titleWords: Words = { key: 'ANNOTATION_OUTBOX_TITLE', vars: { page: where.page, title: where.title } };
  const meta: AnnotationMeta = { ...doc, id: change.id, op: change.op, title: where.title, titleWords };
  return enqueue(
    {
      kind: ANNOTATION_KIND,
      method: change.op === 'put' ? 'PUT' : 'DELETE',
      path: annotationPaths.one(doc.dbId, doc.archiveId, doc.docId, change.id),
      query: { SecureId: doc.hash },
      ...(change.op === 'put' ? { body: change.input } : {}),
      meta,
      target: outboxTarget(doc.dbId, doc.archiveId, doc.docId),
    },
    database,
    owner,
  );
}

/** The change an entry carries (for the viewer's overlay), or null when it is not an annotation entry. */
export function annotationChangeOf(e: Pick<OutboxEntry, 'kind' | 'meta' | 'body'>): { op: 'put'; id: string; input: AnnotationInput } | { op: 'delete'; id: string } | null {
  if (e.kind !== ANNOTATION_KIND || !isAnnotationMeta(e.meta)) return null;
  return e.meta.op === 'put' ? { op: 'put', id: e.meta.id, input: e.body as AnnotationInput } : { op: 'delete', id: e.meta.id };
}
