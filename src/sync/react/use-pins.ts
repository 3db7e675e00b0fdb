/**
 * Documents kept offline, for the page: `usePins(owner)` (the tray's rows), `usePinned(doc)` (the
 * viewer: one document's record, live), `usePinnedKeys(db)` (the grid's badges), and `usePinWorker()`
 * which runs the pin worker while a user is signed in (mounted once, by the notifications tray),
 * wakes it when a document is pinned or the connection comes back, and hands a session error to the
 * app's error handler (the pins wait for sign-in).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type PinRecord } from '../../db/db';
import { useSession } from '../../session/use-session';
import { useLoopWorker } from './use-loop-worker';

const NONE: PinRecord[] = [];
const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * `${owner}|${db}|${archiveId}|${docId}` and the start of one user's keys, as src/sync/pins.ts pinKey
 * and pinPrefix (not imported: that module loads with the worker's bridge).
 */
const prefixOf = (owner: string | null) => `${owner ?? ''}|`;
const keyOf = (owner: string | null, d: { db: number; archiveId: number; docId: number }) => `${prefixOf(owner)}${d.db}|${d.archiveId}|${d.docId}`;

/** The documents the user kept (or is keeping), oldest first. */
export function usePins(owner: string | null): PinRecord[] {
  return useLiveQuery(async () => (await db.pins.where('key').startsWith(prefixOf(owner)).toArray()).sort((a, b) => a.createdAt - b.createdAt), [owner]) ?? NONE;
}

/** The kept record of one document (undefined: not kept, or still being read). */
export function usePinned(doc: { db: number; archiveId: number; docId: number } | null): { pin: PinRecord | undefined; loaded: boolean } {
  const owner = useSession()?.userName ?? null;
  const key = doc ? keyOf(owner, doc) : null;
  const r = useLiveQuery(async () => ({ pin: key ? await db.pins.get(key) : undefined }), [key]);
  return { pin: r?.pin, loaded: r !== undefined };
}

/** The keys of the documents of a database kept (or being kept) on the device. */
export function usePinnedKeys(dbId: number): { keys: ReadonlySet<string>; states: ReadonlyMap<string, PinRecord['state']> } {
  const owner = useSession()?.userName ?? null;
  const r = useLiveQuery(async () => {
    const states = new Map<string, PinRecord['state']>();
    // Only the index: the records (rows, fields) are not read for the badges.
    await db.pins.where('key').startsWith(`${prefixOf(owner)}${dbId}|`).each((p) => states.set(p.key, p.state));
    return states;
  }, [dbId, owner]);
  return { keys: r ? new Set(r.keys()) : NO_KEYS, states: r ?? new Map() };
}

const loadPinWorker = () => Promise.all([import('../pin-bridge'), import('../pins')]).then(([b, p]) => ({ start: b.startPinWorker, setKick: p.setPinKick }));

export function usePinWorker(): void {
  useLoopWorker(loadPinWorker);
}
