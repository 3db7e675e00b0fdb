/**
 * The app's one IndexedDB database (Dexie). Everything the app keeps on the device lives here, so
 * the page, dedicated workers and the service worker all see the same data (useLiveQuery picks up
 * writes made in any of them).
 *
 * What lives where:
 * - pages      one record per cached grid page (not per row): the rows of one page of one search
 *              with its criteria, sort and page size, and when it was fetched. Read first, then
 *              revalidated; evicted least-recently-used (lastUsed) under a size limit.
 * - gridState  per grid (database + search/archive/inbox): columns (order, width, hidden, pinned),
 *              sort and page size, restored on the next visit; "restore columns" deletes it.
 * - settings   small key/value records: the session (token, licence type, user), the selected
 *              database, local settings of the user-app spec §3 (searchSetting, language, ...).
 * - languages  translation maps fetched from the CDN or the server's languages/ folder, so the
 *              app speaks the chosen language offline.
 * - queryCache TanStack Query's persisted cache (databases, searches, fields, lists).
 * - outbox     every change the user makes, in order (++seq), until the server has answered it;
 *              the key is the Idempotency-Key. Never deleted before a final answer.
 * - jobs       server jobs the user started (export, bulk update, copy/move/delete groups), polled
 *              by jobs.worker.ts and shown in the notifications tray.
 * - uploads    files to import, scan or drop into an inbox, stored as the File/Blob itself before
 *              anything is sent; the chunk index doubles as the resume point.
 * - alerts     notifications shown in the tray (job notes of the user-app spec §3), with when they were
 *              seen, so alerts are re-shown after 12 hours and not before.
 * - pins       documents kept on the device for offline use ("Keep offline", src/sync/pins.ts), per user: what
 *              the viewer and the indexer panel need of each (type, pages, the result row and fields,
 *              the archive's fields), its fetch state and progress (the resume point after a reload).
 * - pinParts   the stored pieces of a pinned document, one record each: its file (PDF, the Blob as
 *              fetched), page images, thumbnails and words per page. Apart from `pins` so listing the
 *              pins reads no blobs; unpinning deletes every part.
 *
 * Each schema change is a new `version(n)`; old version blocks are never edited.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface CachedPage {
  /** `${dbId}|${gridKey}|${criteriaHash}|${sort}|${tab}|${pageSize}|${page}` (features/results/page-cache.ts) */
  key: string;
  gridKey: string;
  page: number;
  pageSize: number;
  /** The server's answer for this page (result set), as parsed by the contract. */
  data: unknown;
  fetchedAt: number;
  lastUsed: number;
  /** Approximate size in bytes, for the cache limit. */
  bytes: number;
}

export interface GridState {
  /** `${dbId}|${kind}|${id}`: kind is search, archive, inbox or task. */
  key: string;
  columns: { id: string; width?: number; hidden?: boolean; pinned?: boolean; order?: number }[];
  sort: { column: string; direction: 'asc' | 'desc' }[];
  pageSize: number;
  updatedAt: number;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

export interface LanguageRecord {
  /** i18next language code, e.g. en, fr, de. */
  code: string;
  map: Record<string, unknown>;
  /** Where the map came from: cdn, server or bundled. */
  source: 'cdn' | 'server' | 'bundled';
  fetchedAt: number;
}

export interface QueryCacheRecord {
  key: string;
  value: string;
}

export type OutboxState = 'queued' | 'sending' | 'done' | 'failed' | 'conflict';

/**
 * Why an entry ended as failed, as data the tray words in the user's language (a language change
 * re-words it): `refused` a 4xx (the server's own Message when it gave one), `serverError` the same
 * 5xx `count` times in a row, `error` anything else thrown `count` times in a row.
 */
export type OutboxReason =
  | { code: 'refused'; status: number; message?: string }
  | { code: 'serverError'; status: number; count: number; message?: string }
  | { code: 'error'; count: number; message?: string };

export interface OutboxEntry {
  seq?: number;
  /** UUID sent as the Idempotency-Key header. */
  id: string;
  /** What the entry does, e.g. 'fieldData', 'copy', 'move', 'delete', 'merge', 'bulkUpdate', 'export'. */
  kind: string;
  method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  /** API path without the token; the current token is stamped when the entry is sent. */
  path: string;
  /** Query parameters other than the token (e.g. secureId). */
  query?: Record<string, string>;
  /** Extra request headers (e.g. If-Match, Secure-Id); never the token. */
  headers?: Record<string, string>;
  body?: unknown;
  /** What the entry is about, for the tray and the grid (kind-specific, e.g. the document and its edited fields). */
  meta?: unknown;
  /** Not sent again before this time (ms) after a failed attempt; 0 or missing: at once. */
  nextAttemptAt?: number;
  /** Groups entries that must be sent in order (e.g. one document). */
  target: string;
  /**
   * The user who made the change. Only that user's session sends it: a queued edit is never sent
   * under someone else's name when another user signs in on the same device.
   */
  owner?: string;
  state: OutboxState;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  /** Last error of the entry, technical (the server's Message, else method, path and status). */
  error?: string;
  /** A failed entry's reason in words (drain.ts's failure policy). */
  reason?: OutboxReason;
  /** The last failure that counts towards the policy (e.g. 'http 500') and how often it came in a row. */
  failureCode?: string;
  failureCount?: number;
  /** What the server answered for a done entry, or the server's values for a conflict. */
  result?: unknown;
}

/** The server's job states (src/api/jobs.ts JOB_STATES). */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/**
 * A server job this device started or is watching (src/sync/jobs.ts): the last answer of
 * GET api/jobs/{id}, kept so the tray shows it at once, offline too, and polling resumes after a
 * reload or a browser restart.
 */
/** A text as a message key and its values, worded when shown (public/languages). */
export interface Words {
  key: string;
  vars?: Record<string, string | number>;
}

/** One failure of a job in parts (src/api/jobs.ts JobFailure). */
export interface JobFailureParts {
  docId: number;
  /** An import's failed row: its line in the CSV (docId is then 0). */
  line?: number;
  /** The server's English reason (said when the app has no words for its key). */
  reason: string;
  reasonKey?: string;
  reasonParams?: Record<string, string | number>;
}

export interface JobRecord {
  /** The server's job id (Job.Id), as a string. */
  id: string;
  dbId: number;
  /** copy, move, delete, export ... (src/api/jobs.ts JOB_KINDS). */
  kind: string;
  state: JobState;
  /** Documents handled so far (Succeeded + Failed). */
  progress: number;
  total: number;
  succeeded?: number;
  failed?: number;
  /** Each failure as the spec words it: 'DocID {id}: reason' (the server's English). */
  failures?: string[];
  /**
   * The same failures in parts (its document or CSV line, the reason and its message key), for the
   * tray to say in the user's language; absent in records from older servers or app versions.
   */
  failureParts?: JobFailureParts[];
  /** What names the job when it has no title words: an export's format, an import's CSV file (Job.Format, Job.Name). */
  format?: 'zip' | 'xlsx';
  name?: string;
  /** Its title as a message key and values, worded when shown (so a language change re-words it). */
  titleWords?: Words;
  /** The user who started it: only their session polls and shows it. */
  owner?: string;
  /** How the user knows the work (e.g. "Move 12 documents to Contracts"), for the tray. */
  title?: string;
  /** The archive the documents came from, and where they went (copy, move). */
  archiveId?: number;
  destinationArchiveId?: number;
  /** The outbox entry that started it, when there is one. */
  entryId?: string;
  startedAt: number;
  updatedAt: number;
  /** When the job is next asked for (backoff); 0: at once. Final jobs are not polled. */
  nextPollAt: number;
  /** Polls in a row that brought no change (drives the backoff). */
  idlePolls?: number;
  /** Job notes (the user-app spec §3): [kind, ...values]. */
  notes: unknown[][];
  resultUrl?: string;
  /** When the user last saw its final state (the tray's badge stops counting it). */
  seenAt?: number;
  /** When this device first saw it final (the tray orders and the system notification use it). */
  endedAt?: number;
  /**
   * When a page told the user of its end (a toast, and a system notification while hidden). Whoever
   * saw the end (a tab's jobs worker, one closing with its tab), the next page of the app that runs
   * tells it (src/sync/jobs-view.ts claimEndedJobs). Set at once for jobs already final when this
   * device heard of them, and for the user's own cancel.
   */
  toldAt?: number;
  /** Why it is no longer polled although not final: 'notFound' (the server does not know it for this user). */
  lost?: 'notFound';
  /** The user cleared it from the tray: kept (so the start-up sync with GET api/jobs does not bring it back), not shown. */
  dismissedAt?: number;
}

/**
 * Where an upload is (src/sync/uploads.ts): queued; hashing (its SHA-256 being computed); sending;
 * waiting (the connection or the server was out of reach: tried again at nextAttemptAt, or at once
 * when the connection comes back); paused by the user; done (result); failed (reason).
 */
export type UploadRecordState = 'queued' | 'hashing' | 'sending' | 'waiting' | 'paused' | 'done' | 'failed';

/**
 * A file on its way to the server (src/sync/uploads.ts, workers/upload.worker.ts). The File/Blob is
 * stored as chosen before anything is sent (ENVIRONMENT.md "Offline machinery"), so the upload goes
 * on after a reload or a browser restart; it is dropped once the server has the file. Written once
 * per chunk (the progress the tray shows). The shape changed in issue 11 without a version bump:
 * no index changed and nothing wrote this table before.
 */
export interface UploadRecord {
  /** UUID; `${id}:${attempt}` is the Idempotency-Key of the upload job's start. */
  id: string;
  /** The user who chose the file: only their session sends it. */
  owner?: string;
  dbId?: number;
  /** Where it goes, as the server takes it (src/api/upload.ts UploadTarget). */
  target: { InboxID: number } | { DatabaseID: number; ArchiveID: number };
  /** The file itself until the server has it. */
  file?: Blob;
  fileName: string;
  size: number;
  type: string;
  /** SHA-256 of the whole file (hex), computed once before the upload job starts. */
  sha256?: string;
  /** Starts of an upload job (a new one after the server expired the last). */
  attempt: number;
  /** The server's upload job. */
  jobId?: string;
  /** The chunk the server needs next, as it last said. */
  nextIndex: number;
  chunkSize: number;
  chunkCount: number;
  /** The highest chunk index sent so far (written before it is sent): sending one at or below it again is a re-send. */
  highestSent: number;
  /** Chunks this device sent more than once (a cut connection costs at most one). */
  resent: number;
  /** The server's count of chunks it got again although it had them. */
  serverRepeated?: number;
  state: UploadRecordState;
  /** Why it failed (the server's key and Message), or why it waits. */
  reason?: { key: string; message?: string; status?: number };
  nextAttemptAt?: number;
  /** Failed network attempts in a row (drives the backoff). */
  retries?: number;
  /** Where the file ended up. */
  result?: { InboxID: number; Path: string; Sha256: string } | { ArchiveID: number; Sha256: string };
  createdAt: number;
  updatedAt: number;
}

export interface AlertRecord {
  id?: number;
  /** Job note kind (the user-app spec §3): 0 error, 1 export, 2 info, 3 information, 4 link, ... */
  kind: number;
  text: string;
  /** Translation key and values, when the text comes from the catalogue. */
  key?: string;
  values?: Record<string, unknown>;
  createdAt: number;
  seenAt?: number;
}

/**
 * Where a pinned document is (src/sync/pins.ts): queued; fetching its parts; waiting (no connection:
 * tried again when it is back); done (everything stored); failed (reason: refused, gone, quota).
 */
export type PinState = 'queued' | 'fetching' | 'waiting' | 'done' | 'failed';

/** A document kept on the device for offline use ("Keep offline"). */
export interface PinRecord {
  /** `${owner}|${db}|${archiveId}|${docId}` (src/sync/pins.ts pinKey): each user keeps their own. */
  key: string;
  /** The user who pinned it: only their session fetches and shows it. */
  owner?: string;
  db: number;
  archiveId: number;
  docId: number;
  /** The document's Hash (SecureId). */
  hash: string;
  fileName?: string | null;
  /** 'PDF' (stored file, drawn by pdf.js) or another type (stored page images). */
  fileType?: string | null;
  pages?: number;
  /** The server's version of the document's pages (viewer session Version) the parts were fetched at. */
  version?: string | null;
  /** The document as its result page had it (ArchiveDocument: Fields, Rev, Permissions ...). */
  row?: unknown;
  /** The result set's Fields (column definitions) the row's values belong to. */
  fields?: unknown[];
  /** The archive's fields (GET archives/{a}?type=fields), for the indexer panel offline. */
  archiveFields?: unknown[];
  /** The document's index data as the indexer panel reads it (GET .../documents/{id}/fields: a grid page of this one document). */
  index?: unknown;
  /**
   * The document's annotations with the user's rights on its archive (GET .../annotations: Permissions,
   * Annotations), so the viewer knows offline whether notes and stamps may be added. No index: added
   * without a version.
   */
  annotations?: unknown;
  /** Whether page words came from the server (the words API) or are left to OCR on the device. */
  words?: 'server' | 'device';
  state: PinState;
  /** Parts stored so far, of `total` (the tray's progress). */
  done: number;
  total: number;
  /** Bytes stored. */
  bytes: number;
  /** Why it failed or waits: a translation key, and the server's words when it gave any. */
  reason?: { key: string; message?: string };
  nextAttemptAt?: number;
  retries?: number;
  createdAt: number;
  updatedAt: number;
  /** When every part was last stored. */
  fetchedAt?: number;
}

/** One stored piece of a pinned document. */
export interface PinPartRecord {
  /** `${pinKey}|file`, `${pinKey}|page|${n}`, `${pinKey}|thumb|${n}`, `${pinKey}|words|${n}`. */
  key: string;
  pin: string;
  kind: 'file' | 'page' | 'thumb' | 'words';
  page: number;
  blob?: Blob;
  words?: unknown;
  bytes: number;
}

/** Approximate size of a cached page: its JSON text length in UTF-16 bytes. */
export function estimatePageBytes(data: unknown): number {
  try {
    return (JSON.stringify(data) ?? '').length * 2;
  } catch {
    return 0;
  }
}

export class ArchiveDb extends Dexie {
  pages!: EntityTable<CachedPage, 'key'>;
  gridState!: EntityTable<GridState, 'key'>;
  settings!: EntityTable<SettingRecord, 'key'>;
  languages!: EntityTable<LanguageRecord, 'code'>;
  queryCache!: EntityTable<QueryCacheRecord, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  jobs!: EntityTable<JobRecord, 'id'>;
  uploads!: EntityTable<UploadRecord, 'id'>;
  alerts!: EntityTable<AlertRecord, 'id'>;
  pins!: EntityTable<PinRecord, 'key'>;
  pinParts!: EntityTable<PinPartRecord, 'key'>;

  constructor(name = 'archive-app') {
    super(name);
    this.version(1).stores({
      pages: 'key, gridKey, lastUsed',
      gridState: 'key',
      settings: 'key',
      languages: 'code',
      queryCache: 'key',
      outbox: '++seq, &id, target, state, [target+seq]',
      jobs: 'id, state, nextPollAt',
      uploads: 'id, state, createdAt',
      alerts: '++id, createdAt, seenAt',
    });
    // v2: pages get a [lastUsed+bytes] index, so the cache limit is checked from the index alone
    // (no page bodies read) and evicted oldest-used first. Pages stored without bytes get an
    // estimate, so every page is in the index.
    this.version(2)
      .stores({ pages: 'key, gridKey, lastUsed, [lastUsed+bytes]' })
      .upgrade(async (tx) => {
        await tx
          .table('pages')
          .toCollection()
          .modify((p: Partial<CachedPage>) => {
            if (typeof p.bytes !== 'number' || !Number.isFinite(p.bytes)) p.bytes = estimatePageBytes(p.data);
            if (typeof p.lastUsed !== 'number') p.lastUsed = typeof p.fetchedAt === 'number' ? p.fetchedAt : 0;
          });
      });
    // v3: documents kept offline (src/sync/pins.ts) and their stored parts.
    this.version(3).stores({ pins: 'key, state, owner, createdAt', pinParts: 'key, pin' });
    // v4: jobs get toldAt (no index). Jobs that ended before it existed were told by the code of
    // then (or never will be): marked told, so the first start after the update does not tell them.
    this.version(4)
      .stores({})
      .upgrade(async (tx) => {
        await tx
          .table('jobs')
          .toCollection()
          .modify((r: JobRecord) => {
            // endedAt: every record seen final has it.
            if (r.toldAt === undefined && (r.endedAt !== undefined || r.lost !== undefined)) r.toldAt = r.endedAt ?? r.updatedAt;
          });
      });
    // v5: a kept document's key starts with the user who kept it (`${owner}|${db}|${archive}|${doc}`,
    // '' for a session without a name), so on a shared device one user's kept documents are not
    // another's. The records and their parts move to the new keys (no index changed).
    this.version(5)
      .stores({})
      .upgrade(async (tx) => {
        const pins = tx.table<PinRecord, string>('pins');
        const parts = tx.table<PinPartRecord, string>('pinParts');
        for (const pin of await pins.toArray()) {
          const key = `${pin.owner ?? ''}|${pin.key}`;
          const moved = (await parts.where('pin').equals(pin.key).toArray()).map((p) => ({ ...p, key: `${pin.owner ?? ''}|${p.key}`, pin: key }));
          await parts.where('pin').equals(pin.key).delete();
          await parts.bulkPut(moved);
          await pins.delete(pin.key);
          await pins.put({ ...pin, key });
        }
      });
  }
}

export const db = new ArchiveDb();
