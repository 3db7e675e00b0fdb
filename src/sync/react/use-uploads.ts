/**
 * Uploads for the page: `useUploads(owner)` (the tray's rows), `useUpload(id)` (a feature following
 * the file it queued with enqueueUpload: its state, percent and, once done, where it went), and
 * `useUploadWorker()` which runs the upload worker while a user is signed in (mounted once, by the
 * notifications tray), wakes it when a file is queued or the connection comes back, and hands a
 * session error to the app's error handler (the uploads wait for sign-in).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type UploadRecord } from '../../db/db';
import { useLoopWorker } from './use-loop-worker';

const NONE: UploadRecord[] = [];

export function useUploads(owner: string | null): UploadRecord[] {
  return useLiveQuery(() => db.uploads.orderBy('createdAt').filter((r) => r.owner === undefined || r.owner === owner).toArray(), [owner]) ?? NONE;
}

export function useUpload(id: string | null | undefined): UploadRecord | undefined {
  return useLiveQuery(() => (id ? db.uploads.get(id) : undefined), [id]);
}

// uploads.ts (and the upload contract it imports) loads with the worker's bridge, after the first
// paint: the shell only needs the hooks that read the table.
const loadUploadWorker = () =>
  Promise.all([import('../upload-bridge'), import('../uploads')]).then(([b, u]) => ({ start: b.startUploadWorker, setKick: u.setUploadKick }));

export function useUploadWorker(): void {
  useLoopWorker(loadUploadWorker);
}
