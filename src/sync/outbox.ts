/**
 * The outbox's entries (ARCHITECTURE.md "Writes: the outbox"): what the user changed, kept in the
 * Dexie `outbox` table (src/db/db.ts) until the server has given a final answer. This module adds
 * entries and carries out the user's decisions on them; drain.ts sends them.
 *
 * What is stored where: one OutboxEntry per save. `id` is a UUID sent as the Idempotency-Key, so a
 * re-send is never applied twice; `seq` (++) orders entries; `target` (`${db}|${archive}|${doc}`)
 * groups the entries that must reach the server in order. A field edit keeps the edited fields in
 * `body` (the PUT FieldData body) and in `meta` (FieldEditMeta: the document, its Hash, the Rev the
 * edit was based on). The token is never stored: drain.ts stamps the current one when it sends.
 * Entries are removed only by the user (discard a failed/conflict entry, clear done entries).
 */
import { documentPaths, formatRevTag, SECURE_ID_HEADER, type FieldDataConflict } from '../api/documents';
import type { DocumentField } from '../api/search';
import { getSession } from '../session/session';
import { db as defaultDb, type ArchiveDb, type OutboxEntry, type OutboxState } from '../db/db';

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
  /** How the user knows the document (e.g. its title), for the tray. */
  title?: string;
}

export type FieldEditMeta = Omit<FieldEdit, 'fields'>;

export const outboxTarget = (dbId: number, archiveId: number, docId: number): string => `${dbId}|${archiveId}|${docId}`;

/** States that still need the server (or the user): everything but done. */
export const UNFINISHED_STATES: readonly OutboxState[] = ['queued', 'sending', 'failed', 'conflict'];
/** What the tray's badge counts: unsent, failed and conflicting entries. */
export { attentionCount } from './outbox-view';

export function isFieldEditMeta(m: unknown): m is FieldEditMeta {
  const o = m as Partial<FieldEditMeta> | null;
  return typeof o === 'object' && o !== null && typeof o.docId === 'number' && typeof o.hash === 'string';
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}

function fieldDataRequest(meta: FieldEditMeta): Pick<OutboxEntry, 'path' | 'query' | 'headers'> {
  const headers: Record<string, string> = { [SECURE_ID_HEADER]: meta.hash };
  if (meta.baseStamp !== null) headers['If-Match'] = formatRevTag(meta.baseStamp);
  return { path: documentPaths.fieldData(meta.dbId, meta.archiveId, meta.docId), query: { secureId: meta.hash }, headers };
}

type Listener = () => void;
const enqueueListeners = new Set<Listener>();
/** Called after every enqueue (triggers.ts drains then). */
export function onEnqueue(l: Listener): () => void {
  enqueueListeners.add(l);
  return () => enqueueListeners.delete(l);
}

/** Keeps a field edit in the outbox (queued). Resolves with the entry's id (its Idempotency-Key). */
export async function enqueueFieldEdit(
  edit: FieldEdit,
  database: ArchiveDb = defaultDb,
  owner: string | null = getSession()?.userName ?? null,
): Promise<string> {
  if (!edit.fields.length) throw new Error('enqueueFieldEdit: no fields');
  const meta: FieldEditMeta = {
    dbId: edit.dbId,
    archiveId: edit.archiveId,
    docId: edit.docId,
    hash: edit.hash,
    baseStamp: edit.baseStamp,
    ...(edit.labels ? { labels: { ...edit.labels } } : {}),
    ...(edit.title ? { title: edit.title } : {}),
  };
  const now = Date.now();
  const id = newId();
  await database.outbox.add({
    id,
    kind: FIELD_DATA_KIND,
    method: 'PUT',
    ...fieldDataRequest(meta),
    body: edit.fields.map((f) => ({ ID: f.ID, VAL: f.VAL ?? '', ...(f.MVAL ? { MVAL: [...f.MVAL] } : {}) })),
    meta,
    target: outboxTarget(edit.dbId, edit.archiveId, edit.docId),
    ...(owner ? { owner } : {}),
    state: 'queued',
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  });
  for (const l of enqueueListeners) l();
  return id;
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

// --- the user's decisions ------------------------------------------------------------------------

/**
 * Sends a failed (or waiting) entry again at the next drain; a failed one with a fresh count. It keeps
 * its Idempotency-Key: after a 5xx or an error the server may have applied it (a proxy's 500 after
 * the commit), and the key makes the repeat answer that instead of applying it twice. A refused
 * entry (4xx) gets a new key: the server stored its refusal under the old one and would only replay
 * it, and a refusal means nothing was applied, so the new key cannot apply it twice.
 */
export async function retryEntry(seq: number, database: ArchiveDb = defaultDb): Promise<void> {
  await database.outbox
    .where('seq')
    .equals(seq)
    .modify((e) => {
      if (e.state !== 'failed' && e.state !== 'queued') return;
      if (e.state === 'failed') {
        if (e.reason?.code === 'refused') {
          e.id = newId();
          e.attempts = 0;
        }
        e.reason = undefined;
        e.failureCode = undefined;
        e.failureCount = undefined;
      }
      // A waiting entry is only sent now: its count goes on, so pressing Retry cannot keep it
      // from ending as failed.
      e.state = 'queued';
      e.nextAttemptAt = 0;
      e.error = undefined;
      e.updatedAt = Date.now();
    });
  for (const l of enqueueListeners) l();
}

/** Removes a failed or conflicting entry (the caller has asked the user to confirm). Other states stay. */
export async function discardEntry(seq: number, database: ArchiveDb = defaultDb): Promise<boolean> {
  return database.transaction('rw', database.outbox, async () => {
    const e = await database.outbox.get(seq);
    if (!e || (e.state !== 'failed' && e.state !== 'conflict')) return false;
    await database.outbox.delete(seq);
    for (const l of enqueueListeners) l();
    return true;
  });
}

/**
 * Conflict, keep mine: the same edit, now based on the server's current Rev, at the same place in
 * the order. It needs a new Idempotency-Key: the old one's answer (the 409) is stored on the server.
 */
export async function keepMine(seq: number, database: ArchiveDb = defaultDb): Promise<boolean> {
  const ok = await database.transaction('rw', database.outbox, async () => {
    const e = await database.outbox.get(seq);
    if (!e || e.state !== 'conflict' || !isFieldEditMeta(e.meta)) return false;
    const current = (e.result as FieldDataConflict | undefined)?.Current;
    const meta: FieldEditMeta = { ...e.meta, baseStamp: current ? current.Rev : e.meta.baseStamp };
    await database.outbox.update(seq, {
      ...fieldDataRequest(meta),
      meta,
      id: newId(),
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      error: undefined,
      result: undefined,
      updatedAt: Date.now(),
    });
    return true;
  });
  if (ok) for (const l of enqueueListeners) l();
  return ok;
}

/** Conflict, take theirs: the server's values stay; the edit is dropped. */
export const takeTheirs = (seq: number, database: ArchiveDb = defaultDb): Promise<boolean> => discardEntry(seq, database);

/** Removes every done entry (the tray's "Clear done"). */
export async function clearDone(database: ArchiveDb = defaultDb): Promise<number> {
  return database.outbox.where('state').equals('done').delete();
}
