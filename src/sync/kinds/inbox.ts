/**
 * The outbox kind of an inbox change (issue 11 item 5; the archive-ops spec §7; the contract:
 * src/api/inboxes.ts): rename, move to another inbox, send to an archive, delete, and an archive
 * document sent to an inbox. ONE entry per file and action, sent as the spec's call by the default
 * send with the entry's id as the Idempotency-Key (the server takes it on the move too, a GET), so a
 * resent entry acts once; queued offline like every entry.
 *
 * What is stored where: the request in the entry (method, path, query, body); in `meta` (InboxMeta)
 * the inboxes it touches, so the inbox screen refreshes them when the entry is done, and `title`,
 * the action in the user's words for the tray (worded by the page: src/sync has no i18n). Entries of
 * one inbox share a target, so they are sent in the order the user made them (a rename, then a move
 * of the renamed file). No React here: the service worker runs it too.
 */
import { inboxPaths } from '../../api/inboxes';
import { getSession } from '../../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type Words } from '../../db/db';
import { enqueue } from '../outbox';
import { registerKind, type OutboxKind } from '../kinds';

export const INBOX_KIND = 'inbox';

export type InboxAction = 'rename' | 'move' | 'copy' | 'send' | 'delete' | 'put';

export interface InboxMeta {
  action: InboxAction;
  /** Every inbox the change touches (the source, and the target of a move or copy). */
  inboxIds: number[];
  fileName?: string;
  title: string;
  /** The title as words, said in the language of the moment. */
  titleWords?: Words;
}

export function isInboxMeta(m: unknown): m is InboxMeta {
  const o = m as Partial<InboxMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.action === 'string' && Array.isArray(o.inboxIds);
}

export const inboxKind: OutboxKind = { kind: INBOX_KIND };
registerKind(inboxKind);

export const inboxTarget = (inboxId: number) => `inbox|${inboxId}`;

type Request = Pick<OutboxEntry, 'method'> & { inboxId: number; query?: Record<string, string>; body?: unknown };

/** Keeps one inbox change in the outbox (queued); the enqueue trigger drains it. Resolves with the entry's id. */
export function enqueueInboxChange(req: Request, meta: InboxMeta, database: ArchiveDb = defaultDb, owner: string | null = getSession()?.userName ?? null): Promise<string> {
  return enqueue(
    {
      kind: INBOX_KIND,
      method: req.method,
      path: inboxPaths.one(req.inboxId),
      ...(req.query ? { query: req.query } : {}),
      ...(req.body !== undefined ? { body: req.body } : {}),
      meta,
      target: inboxTarget(req.inboxId),
    },
    database,
    owner,
  );
}
