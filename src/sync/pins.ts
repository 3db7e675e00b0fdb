/**
 * Documents kept on the device for offline use (issue 12 item 7, "Keep offline"). What is stored where:
 * - Dexie `pins`: one record per pinned document and user, `${owner}|${db}|${archiveId}|${docId}`
 *   (pinKey): what the viewer
 *   needs to show it without the server (type, pages, name: a local viewer session), what the
 *   indexer panel needs to edit it (the result row with its Rev and values, the result set's
 *   fields, the archive's fields), the server's pages Version they were fetched at, and the fetch's
 *   state and progress (done of total parts: the resume point after a reload).
 * - Dexie `pinParts`: the pieces, one record each, the Blob as fetched (ENVIRONMENT.md "Offline
 *   machinery"): the file of a PDF, the server's page images of any other type (at PIN_PAGE_WIDTH),
 *   the thumbnails of every page, and the server's words per page when the words API answers (else
 *   the words are left to OCR on the device, which may store them here with putPinnedWords).
 * Pinning only queues a record; workers/pin.worker.ts fetches the parts (workPin below) under a Web
 * Lock, one document at a time. Unpinning deletes the record and every part. Runs in the page and in
 * workers (no window, no React).
 * Each user keeps their own: the key starts with the user who kept it, so on a shared tablet the next
 * user neither sees nor reads the last one's, and a sign-in as another user drops them
 * (dropOtherUsersPins, called by src/app/user-change.ts with the cached answers of that user).
 */
import { ApiError, isApiError } from '../api/api-error';
import { documentLabelOf } from '../fields/document-label';
import type { ViewerDocumentInfo, ViewerSession } from '../api/viewer';
import { db as defaultDb, type ArchiveDb, type PinPartRecord, type PinRecord } from '../db/db';
import { getSession } from '../session/session';
import { nextDue } from './next-due';

/** The width of a stored page image (the server's largest, so a tablet's retina page stays sharp). */
export const PIN_PAGE_WIDTH = 1600;
/** A stored thumbnail: the strip's 150 px at twice the pixels. */
export const PIN_THUMB_SIZE = 300;
/** Server failures in a row before a pin ends as failed. */
export const PIN_MAX_RETRIES = 5;

export const PIN_KEYS = {
  quota: 'PIN_ERROR_QUOTA',
  forbidden: 'PIN_ERROR_FORBIDDEN',
  missing: 'PIN_ERROR_MISSING',
  server: 'PIN_ERROR_SERVER',
  offline: 'PIN_WAITING_OFFLINE',
} as const;

export interface PinDocRef {
  db: number;
  archiveId: number;
  docId: number;
}

/**
 * `${owner}|${db}|${archiveId}|${docId}`; `owner` is the user's name ('' for a session not named yet,
 * e.g. a link's token read offline). Mirrored by src/sync/react/use-pins.ts, which does not import
 * this module (it loads with the worker's bridge).
 */
export const pinKey = (owner: string | null | undefined, d: PinDocRef): string => `${pinPrefix(owner)}${d.db}|${d.archiveId}|${d.docId}`;
/** Where the keys of one user's kept documents start. */
export const pinPrefix = (owner: string | null | undefined): string => `${owner ?? ''}|`;
const partKey = (pin: string, kind: PinPartRecord['kind'], page: number) => (kind === 'file' ? `${pin}|file` : `${pin}|${kind}|${page}`);

/** What "Keep offline" is given: the document and what the grid knows of it. */
export interface PinInput extends PinDocRef {
  hash: string;
  fileName?: string | null;
  row?: unknown;
  fields?: unknown[];
}

/** The calls that fetch a pinned document's parts (the worker passes the real ones; tests fake them). */
export interface PinApi {
  /** What the viewer session says of the document (type, pages, Version); Available false: gone. */
  info(pin: PinRecord): Promise<ViewerDocumentInfo>;
  archiveFields(pin: PinRecord): Promise<unknown[]>;
  /** The document's index data (a grid page of this one document) for the indexer panel. */
  index?(pin: PinRecord): Promise<unknown>;
  /** The document's annotations and the user's rights on its archive, for the viewer's notes and stamps. */
  annotations?(pin: PinRecord): Promise<unknown>;
  file(pin: PinRecord): Promise<Blob>;
  pageImage(pin: PinRecord, page: number, width: number, height?: number): Promise<Blob>;
  /** The server's words of a page, or null when the server has no words call (OCR on the device then). */
  words?(pin: PinRecord, page: number): Promise<unknown>;
  /**
   * Keeps the device's OCR engine on this device (its files cached), for a document whose words are
   * left to the device: it is kept ("done") only once its words can be read with no connection.
   */
  deviceOcr?(): Promise<void>;
}

const currentOwner = (): string | undefined => getSession()?.userName ?? undefined;
export const isPdfType = (type: string | null | undefined): boolean => (type ?? '').toUpperCase() === 'PDF';

/** The page's worker is told of new work through this (react/use-pins.ts sets it). */
let kick: (() => void) | null = null;
export function setPinKick(fn: (() => void) | null): void {
  kick = fn;
}

/**
 * Queues documents to keep offline. One already kept (or on its way) keeps its parts and gets the
 * grid's newer row; a failed one is tried again. Returns the keys.
 */
export async function pinDocuments(inputs: readonly PinInput[], opts: { database?: ArchiveDb; owner?: string | null; now?: number } = {}): Promise<string[]> {
  const database = opts.database ?? defaultDb;
  const now = opts.now ?? Date.now();
  const owner = opts.owner === undefined ? currentOwner() : (opts.owner ?? undefined);
  const keys: string[] = [];
  await database.transaction('rw', database.pins, async () => {
    for (const input of inputs) {
      const key = pinKey(owner, input);
      keys.push(key);
      const old = await database.pins.get(key);
      if (old && old.hash === input.hash) {
        await database.pins.update(key, {
          owner,
          row: input.row ?? old.row,
          fields: input.fields ?? old.fields,
          ...(old.state === 'failed' ? { state: 'queued' as const, reason: undefined, retries: 0, nextAttemptAt: 0 } : {}),
          updatedAt: now,
        });
        continue;
      }
      await database.pins.put({
        key,
        owner,
        db: input.db,
        archiveId: input.archiveId,
        docId: input.docId,
        hash: input.hash,
        fileName: input.fileName ?? null,
        row: input.row,
        fields: input.fields,
        state: 'queued',
        done: 0,
        total: 0,
        bytes: 0,
        createdAt: now,
        updatedAt: now,
      });
    }
  });
  kick?.();
  return keys;
}

/** "Remove from device": the record and every stored part go, at once. */
export async function unpinDocuments(keys: readonly string[], database: ArchiveDb = defaultDb): Promise<void> {
  await database.transaction('rw', database.pins, database.pinParts, async () => {
    await database.pins.bulkDelete([...keys]);
    await database.pinParts.where('pin').anyOf([...keys]).delete();
  });
}

/**
 * A user signs in: the documents other users kept on this device go, with every part (the signed-in
 * user's stay for their next offline visit). Returns how many went.
 */
export async function dropOtherUsersPins(owner: string | null | undefined, database: ArchiveDb = defaultDb): Promise<number> {
  const prefix = pinPrefix(owner);
  const others = (await database.pins.toCollection().primaryKeys()).filter((k) => !k.startsWith(prefix));
  if (others.length > 0) await unpinDocuments(others, database);
  return others.length;
}

export async function retryPin(key: string, database: ArchiveDb = defaultDb): Promise<void> {
  await database.pins.where('key').equals(key).filter((p) => p.state === 'failed' || p.state === 'waiting').modify({ state: 'queued', reason: undefined, retries: 0, nextAttemptAt: 0, updatedAt: Date.now() });
  kick?.();
}

/**
 * The server's pages changed since they were stored (another Version): the parts are fetched again.
 * The old parts stay readable until the new ones replace them, so the document is never half there.
 */
export async function refreshPin(key: string, version: string | null | undefined, database: ArchiveDb = defaultDb): Promise<boolean> {
  const n = await database.pins
    .where('key')
    .equals(key)
    .filter((p) => p.state === 'done' && !!version && p.version !== version)
    .modify({ state: 'queued', done: 0, total: 0, nextAttemptAt: 0, retries: 0, updatedAt: Date.now() });
  if (n > 0) kick?.();
  return n > 0;
}

/** The grid's newer row of a kept document (a fresh page online): the indexer panel edits from it offline. */
export async function updatePinnedRows(rows: readonly { ref: PinDocRef; row: unknown; fields?: unknown[] }[], database: ArchiveDb = defaultDb): Promise<void> {
  if (rows.length === 0) return;
  const owner = currentOwner();
  const keys = rows.map((r) => pinKey(owner, r.ref));
  await database.transaction('rw', database.pins, async () => {
    const pins = await database.pins.bulkGet(keys);
    for (const [i, p] of pins.entries()) {
      const r = rows[i]!;
      if (p && JSON.stringify(p.row) !== JSON.stringify(r.row)) await database.pins.update(p.key, { row: r.row, fields: r.fields ?? p.fields });
    }
  });
}

/** The indexer's newer index data of a kept document (read online): what it edits offline next. */
export function updatePinnedIndex(ref: PinDocRef, index: unknown, database: ArchiveDb = defaultDb): Promise<void> {
  return updateKept(ref, 'index', index, database);
}

/** The viewer's newer annotations and rights of a kept document (read online): what it shows offline next. */
export function updatePinnedAnnotations(ref: PinDocRef, annotations: unknown, database: ArchiveDb = defaultDb): Promise<void> {
  return updateKept(ref, 'annotations', annotations, database);
}

async function updateKept(ref: PinDocRef, part: 'index' | 'annotations', value: unknown, database: ArchiveDb): Promise<void> {
  const key = pinKey(currentOwner(), ref);
  await database.transaction('rw', database.pins, async () => {
    const p = await database.pins.get(key);
    if (p && JSON.stringify(p[part]) !== JSON.stringify(value)) await database.pins.update(key, { [part]: value });
  });
}

// --- Reading what is kept (the viewer, the indexer panel, key-free extraction) -----------------------

/** The kept document (any state) of the signed-in user, or undefined. */
export async function readPinnedDocument(db: number, archiveId: number, docId: number, database: ArchiveDb = defaultDb): Promise<PinRecord | undefined> {
  return database.pins.get(pinKey(currentOwner(), { db, archiveId, docId }));
}

async function partOf(doc: PinDocRef, kind: PinPartRecord['kind'], page: number, database: ArchiveDb): Promise<PinPartRecord | undefined> {
  return database.pinParts.get(partKey(pinKey(currentOwner(), doc), kind, page));
}

/** The stored file (a PDF), or null. */
export async function getPinnedFile(doc: PinDocRef, database: ArchiveDb = defaultDb): Promise<Blob | null> {
  return (await partOf(doc, 'file', 0, database))?.blob ?? null;
}

/** The stored image of a page (documents that are not PDF), or null. */
export async function getPinnedPageImage(doc: PinDocRef, page: number, database: ArchiveDb = defaultDb): Promise<Blob | null> {
  return (await partOf(doc, 'page', page, database))?.blob ?? null;
}

export async function getPinnedThumb(doc: PinDocRef, page: number, database: ArchiveDb = defaultDb): Promise<Blob | null> {
  return (await partOf(doc, 'thumb', page, database))?.blob ?? null;
}

/** The words of a page as stored (the server's at pin time, or the device's OCR), or null. */
export async function getPinnedWords(doc: PinDocRef, page: number, database: ArchiveDb = defaultDb): Promise<unknown> {
  return (await partOf(doc, 'words', page, database))?.words ?? null;
}

/** Keeps the words the device recognised for a page of a kept document (not re-recognised next time). */
export async function putPinnedWords(doc: PinDocRef, page: number, words: unknown, database: ArchiveDb = defaultDb): Promise<void> {
  const pin = pinKey(currentOwner(), doc);
  if (!(await database.pins.get(pin))) return;
  await database.pinParts.put({ key: partKey(pin, 'words', page), pin, kind: 'words', page, words, bytes: JSON.stringify(words ?? null).length * 2 });
}

/** The kept document's name as its result page had it (its row's first character field with a value). */
function pinTitle(pin: PinRecord): string | null {
  const row = pin.row as { Fields?: unknown } | undefined;
  if (!row || !Array.isArray(row.Fields)) return null;
  return documentLabelOf({ FileName: null, Fields: row.Fields as { ID: number; VAL?: string | null }[] }, pin.fields ?? []) || null;
}

/** A viewer session of the kept document alone, for the viewer when the server cannot be reached. */
export function localViewerSession(pin: PinRecord): ViewerSession {
  return {
    Id: `pinned:${pin.db}|${pin.archiveId}|${pin.docId}`,
    Database: pin.db,
    SearchId: null,
    SearchCriteria: null,
    Documents: [{ Archive: pin.archiveId, Id: pin.docId, Hash: pin.hash, Available: true, FileName: pin.fileName ?? null, Title: pinTitle(pin), FileType: pin.fileType ?? null, Pages: pin.pages ?? 1, Version: pin.version ?? null }],
  };
}

// --- Fetching (workers/pin.worker.ts) -------------------------------------------------------------

export const isActivePin = (p: Pick<PinRecord, 'state'>): boolean => p.state === 'queued' || p.state === 'fetching' || p.state === 'waiting';

/** The parts a document is kept as, once its type and pages are known. */
export function partsOf(pin: Pick<PinRecord, 'fileType' | 'pages'>, withWords: boolean): { kind: PinPartRecord['kind']; page: number }[] {
  const pages = Math.max(1, pin.pages ?? 1);
  const each = (kind: PinPartRecord['kind']) => Array.from({ length: pages }, (_, i) => ({ kind, page: i + 1 }));
  return [...(isPdfType(pin.fileType) ? [{ kind: 'file' as const, page: 0 }] : each('page')), ...each('thumb'), ...(withWords ? each('words') : [])];
}

/** The pin to fetch now (oldest first), or when the next one is due. */
export function nextPin(records: readonly PinRecord[], owner: string | null, now: number): { key?: string; at?: number } {
  const n = nextDue(records, owner, now, isActivePin);
  return n.record ? { key: n.record.key } : { at: n.at };
}

export function isQuotaError(e: unknown): boolean {
  for (let x = e as { name?: string; inner?: unknown } | null | undefined, i = 0; x && i < 4; x = x.inner as typeof x, i++) {
    if (x.name === 'QuotaExceededError') return true;
  }
  return false;
}

const backoff = (retries: number) => Math.min(5 * 60_000, 5_000 * 2 ** Math.max(0, retries - 1));

export type PinOutcome = { outcome: 'done' | 'waiting' | 'failed' | 'gone' } | { outcome: 'session'; error: ApiError };

/**
 * Fetches what is missing of one kept document, storing each part as it comes and counting it, so a
 * reload goes on from the next part. A new Version on the server (refreshPin) fetches every part
 * again and swaps them in at the end. No connection: waiting, tried again later or when it is back.
 * Refused (403), gone (404, Available false) or a full device (quota): failed with the reason, and
 * the parts stored so far stay until the user removes the pin.
 */
export async function workPin(database: ArchiveDb, key: string, api: PinApi, now: () => number = Date.now): Promise<PinOutcome> {
  const initial = await database.pins.get(key);
  if (!initial || !isActivePin(initial)) return { outcome: 'gone' };
  let pin: PinRecord = initial;
  /** Writes to the record unless it was removed (unpinned) meanwhile; false then. */
  const save = async (patch: Partial<PinRecord>): Promise<boolean> => {
    const n = await database.pins.update(key, { ...patch, updatedAt: now() });
    pin = { ...pin, ...patch };
    return n > 0;
  };
  try {
    await save({ state: 'fetching' });
    const info = await api.info(pin);
    if (!info.Available) return fail(PIN_KEYS.missing);
    const fileType = info.FileType ?? null;
    const pages = Math.max(1, info.Pages ?? 1);
    const version = info.Version ?? null;
    // The first fetch stores its parts as they come, named by the version it started at, so a reload
    // resumes it. Parts of another version (the server's pages changed: refreshPin) are fetched
    // again and swap the old ones at the end, so the document is never half one version.
    const first = pin.version === undefined;
    const fresh = first || (pin.version === version && pin.fileType === fileType && pin.pages === pages);
    const archiveFields = await api.archiveFields(pin);
    const index = api.index ? await api.index(pin) : pin.index;
    const annotations = api.annotations ? await api.annotations(pin) : pin.annotations;
    const withWords = typeof api.words === 'function';
    const parts = partsOf({ fileType, pages }, withWords);
    const stored = new Set(fresh ? await database.pinParts.where('pin').equals(key).primaryKeys() : []);
    const replacing = fresh ? null : new Map<string, PinPartRecord>();
    let done = parts.filter((p) => stored.has(partKey(key, p.kind, p.page))).length;
    const started = { fileName: info.FileName ?? pin.fileName ?? null, archiveFields, index, annotations, total: parts.length, done, ...(fresh ? { version, fileType, pages } : {}) };
    if (!(await save(started))) return { outcome: 'gone' };
    let wordsFrom: PinRecord['words'] = withWords ? 'server' : 'device';
    for (const part of parts) {
      const pk = partKey(key, part.kind, part.page);
      if (stored.has(pk)) continue;
      const record: PinPartRecord = { key: pk, pin: key, kind: part.kind, page: part.page, bytes: 0 };
      if (part.kind === 'file') record.blob = await api.file(pin);
      else if (part.kind === 'page') record.blob = await api.pageImage(pin, part.page, PIN_PAGE_WIDTH);
      else if (part.kind === 'thumb') record.blob = await api.pageImage(pin, part.page, PIN_THUMB_SIZE, PIN_THUMB_SIZE);
      else if (wordsFrom === 'server') {
        const words = await api.words!(pin, part.page);
        // No OCR on the server: the device recognises the pages when they are needed.
        if (words === null || words === undefined) wordsFrom = 'device';
        else record.words = words;
      }
      record.bytes = record.blob?.size ?? (record.words === undefined ? 0 : JSON.stringify(record.words).length * 2);
      done++;
      if (part.kind === 'words' && record.words === undefined) {
        if (!(await save({ done }))) return { outcome: 'gone' };
        continue;
      }
      if (replacing) replacing.set(pk, record);
      else {
        const alive = await database.transaction('rw', database.pins, database.pinParts, async () => {
          if (!(await database.pins.get(key))) return false;
          await database.pinParts.put(record);
          return true;
        });
        if (!alive) return { outcome: 'gone' };
      }
      if (!(await save({ done }))) return { outcome: 'gone' };
    }
    if (wordsFrom === 'device') await api.deviceOcr?.();
    const alive = await database.transaction('rw', database.pins, database.pinParts, async () => {
      if (!(await database.pins.get(key))) return false;
      if (replacing) {
        await database.pinParts.where('pin').equals(key).delete();
        await database.pinParts.bulkPut([...replacing.values()]);
      }
      let bytes = 0;
      await database.pinParts.where('pin').equals(key).each((p) => (bytes += p.bytes));
      await database.pins.update(key, { state: 'done', version, fileType, pages, words: wordsFrom, bytes, done: parts.length, reason: undefined, retries: 0, nextAttemptAt: 0, fetchedAt: now(), updatedAt: now() });
      return true;
    });
    return { outcome: alive ? 'done' : 'gone' };
  } catch (e) {
    if (isQuotaError(e)) return fail(PIN_KEYS.quota);
    if (!isApiError(e)) return fail(PIN_KEYS.server, e instanceof Error ? e.message : String(e));
    if (e.kind === 'noToken' || e.kind === 'html' || e.status === 401 || e.status === 402 || e.status === 499 || e.loginRedirect) {
      await save({ state: 'queued' });
      return { outcome: 'session', error: e };
    }
    if (e.status === 403) return fail(PIN_KEYS.forbidden, e.serverMessage);
    if (e.status === 404) return fail(PIN_KEYS.missing, e.serverMessage);
    const retries = (pin.retries ?? 0) + 1;
    if (e.kind === 'network') {
      await save({ state: 'waiting', retries, nextAttemptAt: now() + backoff(retries), reason: { key: PIN_KEYS.offline } });
      return { outcome: 'waiting' };
    }
    if (retries >= PIN_MAX_RETRIES) return fail(PIN_KEYS.server, e.serverMessage ?? e.message);
    await save({ state: 'waiting', retries, nextAttemptAt: now() + backoff(retries), reason: { key: PIN_KEYS.server, message: e.serverMessage ?? e.message } });
    return { outcome: 'waiting' };
  }

  async function fail(reasonKey: string, message?: string): Promise<PinOutcome> {
    await save({ state: 'failed', reason: { key: reasonKey, ...(message ? { message } : {}) } });
    return { outcome: 'failed' };
  }
}
