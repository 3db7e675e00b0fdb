/**
 * The outbox kind of a merge or append (issue 10 item 2; the archive-ops spec §4, §7; the contract:
 * src/api/documents.ts MergeRequest): ONE entry per confirmed action, POST documentPaths.merge(db)
 * with the Merge object as its body and the entry's id as the Idempotency-Key (the default send), so a
 * resent entry merges once. Queued offline like every entry. The server merges while it answers
 * (MergeAnswer: the base and its page count), so there is no job to follow: the entry's answer is the
 * outcome, which the tray words and the results screen reads to refresh its grid.
 *
 * What is stored where: the request in the entry's body; in `meta` (MergeMeta) what the tray and the
 * grid need without parsing the request again: the words of the action, the base, the documents the
 * action takes away (AppendType Remove) and how many parts it combines. The entry's target is the
 * base document's (outbox.ts outboxTarget), so a merge is sent after the edits of its base queued
 * before it, in the order the user made them. No React here: the service worker runs it too.
 */
import { MergeAnswer, documentPaths, type MergeRequest } from '../../api/documents';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { enqueue, outboxTarget } from '../outbox';
import { registerKind, type OutboxKind } from '../kinds';

export const MERGE_KIND = 'merge';

export interface MergeMeta {
  type: 'Merge' | 'Append';
  dbId: number;
  /** The base document (an archive document: the results grid's actions start from one). */
  base: { archiveId: number; id: number; title?: string };
  /** How many parts are combined in all, the base included. */
  count: number;
  /** For an append: the inbox file's name (the tray names it). */
  fileName?: string;
  /** Archive documents the action removes (AppendType Remove): the grid drops them when it is done. */
  removed: { archiveId: number; id: number }[];
  /** How the user knows the action, in their words ("Merge 3 documents into Invoice 12"), for the tray. */
  title: string;
  /** The same as words, said in the language of the moment. */
  titleWords?: Words;
}

export function isMergeMeta(m: unknown): m is MergeMeta {
  const o = m as Partial<MergeMeta> | null;
  return typeof o === 'object' && o !== null && (o.type === 'Merge' || o.type === 'Append') && typeof o.base === 'object' && o.base !== null && Array.isArray(o.removed);
}

/** The entry's merge answer once it is done (null before, or when the answer did not fit). */
export function mergeAnswerOf(entry: Pick<OutboxEntry, 'state' | 'result'>): MergeAnswer | null {
  if (entry.state !== 'done') return null;
  const r = MergeAnswer.safeParse(entry.result);
  return r.success ? r.data : null;
}

export const mergeKind: OutboxKind = { kind: MERGE_KIND, response: MergeAnswer };
registerKind(mergeKind);

export interface MergeInput {
  dbId: number;
  request: MergeRequest;
  meta: Omit<MergeMeta, 'dbId'>;
}

/** Keeps one merge or append in the outbox (queued); the enqueue trigger drains it. Resolves with the entry's id. */
export async function enqueueMerge(input: MergeInput, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  const { request } = input;
  const parts = 1 + request.Documents.length;
  if (request.Type === 'Append' ? parts !== 2 : parts < 2) throw new Error(`enqueueMerge: ${request.Type ?? 'Merge'} of ${parts} parts`);
  const meta: MergeMeta = { ...input.meta, dbId: input.dbId };
  return enqueue(
    {
      kind: MERGE_KIND,
      method: 'POST',
      path: documentPaths.merge(input.dbId),
      body: request,
      meta,
      target: outboxTarget(input.dbId, meta.base.archiveId, meta.base.id),
    },
    database,
    owner,
  );
}

/**
 * The spec's "merge and append success and failure notes" (the user-app spec §8) of a finished entry, as a
 * translation key and its values (src/sync has no i18n: the tray and the results screen word it).
 * Null while the entry is not finished, or when it is not a merge.
 */
export function mergeOutcome(entry: Pick<OutboxEntry, 'kind' | 'state' | 'result' | 'meta' | 'reason' | 'error'>):
  | { key: 'MERGE_SUCCESS'; vars: { count: number; id: number | string; pages: number } }
  | { key: 'APPEND_SUCCESS'; vars: { file: string; id: number | string; pages: number } }
  | { key: 'MERGE_FAILED' | 'APPEND_FAILED'; vars: { title: string; reason: string } }
  | null {
  if (entry.kind !== MERGE_KIND || !isMergeMeta(entry.meta)) return null;
  const m = entry.meta;
  if (entry.state === 'done') {
    const a = mergeAnswerOf(entry);
    const id = a?.DocID ?? m.base.id;
    const pages = a?.PageCount ?? 0;
    return m.type === 'Append' ? { key: 'APPEND_SUCCESS', vars: { file: m.fileName ?? '', id, pages } } : { key: 'MERGE_SUCCESS', vars: { count: m.count, id, pages } };
  }
  if (entry.state === 'failed') {
    const reason = entry.reason?.message ?? entry.error ?? '';
    return { key: m.type === 'Append' ? 'APPEND_FAILED' : 'MERGE_FAILED', vars: { title: m.base.title || `#${m.base.id}`, reason } };
  }
  return null;
}
