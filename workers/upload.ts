/**
 * The upload worker's loop (workers/upload.worker.ts wires it; docs/architecture.md "Uploads"). Which
 * upload goes next and what an answer means live in src/sync/upload-engine.ts; the loop itself
 * (watching the table, waiting uploads tried again when due or on kick, a session error stopping it)
 * is workers/record-loop.ts, shared with the pin worker. One upload at a time, oldest first.
 */
import type { ArchiveDb, UploadRecord } from '../src/db/db';
import { workUpload, type UploadApi } from '../src/sync/upload-engine';
import { nextDue } from '../src/sync/next-due';
import { startRecordLoop, type RecordLoop } from './record-loop';

export interface UploadLoopOptions {
  database: ArchiveDb;
  api: UploadApi;
  owner: string | null;
  now?: () => number;
  onStopped?: (error: unknown) => void;
}

export type UploadLoop = RecordLoop;

const workable = (r: UploadRecord) => r.file !== undefined && (r.state === 'queued' || r.state === 'sending' || r.state === 'hashing' || r.state === 'waiting');

/** The upload to work now (oldest first), or when the next one is due. */
export function nextUpload(records: readonly UploadRecord[], owner: string | null, now: number): { id?: string; at?: number } {
  const n = nextDue(records, owner, now, workable);
  return n.record ? { id: n.record.id } : { at: n.at };
}

export function startUploadLoop(opts: UploadLoopOptions): UploadLoop {
  const { database, owner } = opts;
  const now = opts.now ?? Date.now;
  return startRecordLoop<string>({
    name: 'Upload',
    now,
    onStopped: opts.onStopped,
    pick: async (at) => {
      const p = nextUpload(await database.uploads.toArray(), owner, at);
      return { key: p.id, at: p.at };
    },
    work: (id) => workUpload(database, id, opts.api, now),
    watch: () => database.uploads.where('state').anyOf('queued', 'waiting').primaryKeys(),
    // Waiting uploads go at once (the connection is back).
    wakeWaiting: () => database.uploads.where('state').equals('waiting').modify({ nextAttemptAt: 0 }),
  });
}
