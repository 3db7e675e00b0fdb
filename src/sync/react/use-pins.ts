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

/** `${db}|${archiveId}|${docId}`, as src/sync/pins.ts pinKey (not imported: that module loads with the worker's bridge). */
const keyOf = (d: { db: number; archiveId: number; docId: number }) => `${d.db}|${d.archiveId}|${d.docId}`;
const mine = (p: PinRecord, owner: string | null) => p.owner === undefined || p.owner === owner;

export function usePins(owner: string | null): PinRecord[] {
  return useLiveQuery(() => db.pins.orderBy('createdAt').filter((p) => mine(p, owner)).toArray(), [owner]) ?? NONE;
}

/** The kept record of one document (undefined: not kept, or still being read). */
export function usePinned(doc: { db: number; archiveId: number; docId: number } | null): { pin: PinRecord | undefined; loaded: boolean } {
  const owner = useSession()?.userName ?? null;
  const key = doc ? keyOf(doc) : null;
  const r = useLiveQuery(async () => {
    if (!key) return { pin: undefined };
    const p = await db.pins.get(key);
    return { pin: p && mine(p, owner) ? p : undefined };
  }, [key, owner]);
  return { pin: r?.pin, loaded: r !== undefined };
}

/** The keys of the documents of a database kept (or being kept) on the device. */
export function usePinnedKeys(dbId: number): { keys: ReadonlySet<string>; states: ReadonlyMap<string, PinRecord['state']> } {
  const owner = useSession()?.userName ?? null;
  const r = useLiveQuery(async () => {
    const states = new Map<string, PinRecord['state']>();
    // Only the index: the records (rows, fields) are not read for the badges.
    await db.pins.where('key').startsWith(`${dbId}|`).each((p) => {
      if (mine(p, owner)) states.set(p.key, p.state);
    });
    return states;
  }, [dbId, owner]);
  return { keys: r ? new Set(r.keys()) : NO_KEYS, states: r ?? new Map() };
}

const loadPinWorker = () => Promise.all([import('../pin-bridge'), import('../pins')]).then(([b, p]) => ({ start: b.startPinWorker, setKick: p.setPinKick }));

export function usePinWorker(): void {
  useLoopWorker(loadPinWorker);
}
