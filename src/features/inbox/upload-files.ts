/**
 * Hands files to the resumable uploads (src/sync/uploads.ts) with the inbox as their target: the
 * File itself is kept in Dexie first, the upload worker sends it in chunks and the tray shows it.
 * Empty files are left out and named (the caller says ZERO_BYTE_FILE_REMOVED_MSG for each).
 */
import { enqueueUploads } from '../../sync/uploads';

export function startInboxUpload(files: readonly File[], inboxId: number, dbId?: number): Promise<{ ids: string[]; refused: string[] }> {
  return enqueueUploads(files, { InboxID: inboxId }, dbId ? { dbId } : {});
}
