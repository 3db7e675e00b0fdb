/**
 * Uploads for the page: `useUploads(owner)` (the tray's rows), `useUpload(id)` (a feature following
 * the file it queued with enqueueUpload: its state, percent and, once done, where it went), and
 * `useUploadWorker()` which runs the upload worker while a user is signed in (mounted once, by the
 * notifications tray), wakes it when a file is queued or the connection comes back, and hands a
 * session error to the app's error handler (the uploads wait for sign-in).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { handleError } from '../../api/error-handler';
import { httpContext } from '../../api/http';
import { db, type UploadRecord } from '../../db/db';
import { useSession } from '../../session/use-session';

const NONE: UploadRecord[] = [];

export function useUploads(owner: string | null): UploadRecord[] {
  return useLiveQuery(() => db.uploads.orderBy('createdAt').filter((r) => r.owner === undefined || r.owner === owner).toArray(), [owner]) ?? NONE;
}

export function useUpload(id: string | null | undefined): UploadRecord | undefined {
  return useLiveQuery(() => (id ? db.uploads.get(id) : undefined), [id]);
}

export function useUploadWorker(): void {
  const token = useSession()?.token ?? null;
  useEffect(() => {
    // No Worker in unit tests' DOM (happy-dom): the tray still shows the records.
    if (!token || typeof Worker === 'undefined') return;
    let handle: { kick(): void; stop(): void } | null = null;
    let setKick: ((fn: (() => void) | null) => void) | null = null;
    let live = true;
    const online = () => handle?.kick();
    // uploads.ts (and the upload contract it imports) loads with the worker's bridge, after the
    // first paint: the shell only needs the hooks that read the table.
    void Promise.all([import('../upload-bridge'), import('../uploads')]).then(([{ startUploadWorker }, { setUploadKick }]) => {
      if (!live) return;
      handle = startUploadWorker({ baseUrl: httpContext().baseUrl, onSessionError: (e) => void handleError(e) });
      setKick = setUploadKick;
      setUploadKick(() => handle?.kick());
    });
    window.addEventListener('online', online);
    return () => {
      live = false;
      window.removeEventListener('online', online);
      setKick?.(null);
      handle?.stop();
    };
  }, [token]);
}
